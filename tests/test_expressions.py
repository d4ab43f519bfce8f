"""The expression model: str, to_sql, to_pyarrow (against a Python evaluation) and JSON."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import re
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calcite_bridge.errors import UnsupportedError
from calcite_bridge.expressions import (
    Call,
    Expression,
    FieldReference,
    Literal,
    NestedFieldReference,
    from_json,
    is_nested,
    references,
    to_json,
)

AGE = NestedFieldReference(("user", "age"), (2, 1), "INT")


def call(fn: str, *args: Expression, data_type: str = "BOOLEAN") -> Call:
    return Call(fn, args, data_type)


def lit(value: Any, data_type: str = "INT") -> Literal:
    return Literal(value, data_type)


# --- str and to_sql ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (call("<", AGE, lit(30)), "<(user.age, 30)"),
        (
            call(
                "AND",
                call(">", FieldReference("a", "INT"), lit(1)),
                call("IS NULL", FieldReference("b", "INT")),
            ),
            "AND(>(a, 1), IS NULL(b))",
        ),
        (call("=", FieldReference("s", "STRING"), lit("it's", "STRING")), "=(s, 'it''s')"),
        (NestedFieldReference(("a.b", "c"), (0, 1), "INT"), "`a.b`.c"),
        (FieldReference("x`y", "INT"), "`x``y`"),
        (lit(None), "NULL"),
        (lit(True, "BOOLEAN"), "true"),
        (lit(decimal.Decimal("12.50"), "DECIMAL(10, 2)"), "12.50"),
        (lit(dt.date(2024, 1, 31), "DATE"), "DATE '2024-01-31'"),
        (lit(b"\x01\xff", "BYTES"), "X'01ff'"),
        (call("IN", FieldReference("i", "INT"), lit(1), lit(2)), "IN(i, 1, 2)"),
        (Call("CAST", (FieldReference("i", "INT"),), "BIGINT"), "CAST(i, BIGINT)"),
    ],
)
def test_str_renders_like_flink_plans(expr: Expression, text: str) -> None:
    assert str(expr) == text


@pytest.mark.parametrize(
    ("expr", "sql"),
    [
        (call("<", AGE, lit(30)), "`user`.`age` < 30"),
        (
            call("OR", call("IS NOT NULL", AGE), call("NOT", call("=", AGE, lit(1)))),
            "(`user`.`age` IS NOT NULL) OR (NOT (`user`.`age` = 1))",
        ),
        (call("IN", AGE, lit(1), lit(None)), "`user`.`age` IN (1, CAST(NULL AS INT))"),
        (
            call("LIKE", FieldReference("s", "STRING"), lit("a!%%", "STRING"), lit("!", "CHAR(1)")),
            "`s` LIKE 'a!%%' ESCAPE '!'",
        ),
        (
            call(
                "=",
                call("UPPER", FieldReference("s", "STRING"), data_type="STRING"),
                lit("A", "STRING"),
            ),
            "UPPER(`s`) = 'A'",
        ),
        (Call("CAST", (FieldReference("i", "INT"),), "BIGINT"), "CAST(`i` AS BIGINT)"),
        (NestedFieldReference(("a.b", "c`d"), (0, 1), "INT"), "`a.b`.`c``d`"),
        (lit(float("nan"), "DOUBLE"), "CAST('NaN' AS DOUBLE)"),
    ],
)
def test_to_sql(expr: Expression, sql: str) -> None:
    assert expr.to_sql() == sql


def test_value_equality_and_hashing() -> None:
    a = call("<", NestedFieldReference(["user", "age"], [2, 1], "INT"), lit(30))  # type: ignore[arg-type]
    b = call("<", AGE, lit(30))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert call("<", AGE, lit(31)) != b
    assert lit(float("nan"), "DOUBLE") == lit(float("nan"), "DOUBLE")
    assert lit(1, "INT") != lit(True, "INT")
    with pytest.raises(AttributeError):
        b.function = ">"  # type: ignore[misc]
    with pytest.raises(ValueError):
        NestedFieldReference(("a", "b"), (0,), "INT")


def test_helpers() -> None:
    f = call("AND", call("<", AGE, lit(30)), call("IS NULL", FieldReference("b", "INT")))
    assert references(f) == {("user", "age"), ("b",)}
    assert is_nested(f)
    assert not is_nested(call("IS NULL", FieldReference("b", "INT")))


# --- JSON --------------------------------------------------------------------------------------


def test_wire_format_is_exact() -> None:
    f = call("<", AGE, lit(30))
    assert to_json(f) == {
        "kind": "call",
        "function": "<",
        "args": [
            {
                "kind": "nested",
                "names": ["user", "age"],
                "indices": [2, 1],
                "type": "INT",
                "input_index": 0,
            },
            {"kind": "literal", "value": 30, "type": "INT"},
        ],
        "type": "BOOLEAN",
    }
    ref = {"kind": "field", "name": "i", "type": "INT", "input_index": 0, "field_index": 0}
    assert to_json(FieldReference("i", "INT")) == ref
    assert from_json(json.dumps(to_json(f))) == f


@pytest.mark.parametrize(
    ("wire", "data_type", "value"),
    [
        (True, "BOOLEAN", True),
        (127, "TINYINT", 127),
        (2**63 - 1, "BIGINT NOT NULL", 2**63 - 1),
        (1.5, "DOUBLE", 1.5),
        ("NaN", "DOUBLE", float("nan")),
        ("-Infinity", "FLOAT", float("-inf")),
        ("12.50", "DECIMAL(10, 2)", decimal.Decimal("12.50")),
        ("x'y", "VARCHAR(10)", "x'y"),
        ("AAH/", "BYTES", b"\x00\x01\xff"),
        ("2024-01-31", "DATE", dt.date(2024, 1, 31)),
        ("12:34:56.789", "TIME(3)", dt.time(12, 34, 56, 789000)),
        ("2024-01-31 12:34:56.789", "TIMESTAMP(3)", dt.datetime(2024, 1, 31, 12, 34, 56, 789000)),
        (
            "2024-01-31 12:34:56.789Z",
            "TIMESTAMP_LTZ(3)",
            dt.datetime(2024, 1, 31, 12, 34, 56, 789000, tzinfo=dt.timezone.utc),
        ),
        (None, "ROW<a INT>", None),
    ],
)
def test_literal_encodings(wire: Any, data_type: str, value: Any) -> None:
    decoded = from_json({"kind": "literal", "value": wire, "type": data_type})
    assert isinstance(decoded, Literal)
    if isinstance(value, float) and math.isnan(value):
        assert math.isnan(decoded.value)
    else:
        assert decoded.value == value and type(decoded.value) is type(value)
        if isinstance(value, dt.datetime):
            assert (decoded.value.tzinfo is None) == (value.tzinfo is None)
    assert to_json(decoded) == {"kind": "literal", "value": wire, "type": data_type}


def test_nanosecond_time_is_truncated_to_microseconds() -> None:
    decoded = from_json({"kind": "literal", "value": "01:02:03.123456789", "type": "TIME(9)"})
    assert isinstance(decoded, Literal) and decoded.value == dt.time(1, 2, 3, 123456)


def test_unknown_kind_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown expression kind"):
        from_json({"kind": "lambda"})


_LITERALS = st.one_of(
    st.booleans().map(lambda v: (v, "BOOLEAN")),
    st.integers(-(2**63), 2**63 - 1).map(lambda v: (v, "BIGINT")),
    st.integers(-(2**31), 2**31 - 1).map(lambda v: (v, "INT")),
    st.floats(allow_nan=True).map(lambda v: (v, "DOUBLE")),
    st.decimals(min_value=-(10**8), max_value=10**8, places=2, allow_nan=False).map(
        lambda v: (v, "DECIMAL(10, 2)")
    ),
    st.text().map(lambda v: (v, "STRING")),
    st.binary().map(lambda v: (v, "BYTES")),
    st.dates().map(lambda v: (v, "DATE")),
    st.times().map(lambda v: (v, "TIME(6)")),
    st.datetimes().map(lambda v: (v, "TIMESTAMP(6)")),
    st.datetimes(timezones=st.just(dt.timezone.utc)).map(lambda v: (v, "TIMESTAMP_LTZ(6)")),
    st.sampled_from(["INT", "STRING", "DATE", "TIMESTAMP_LTZ(3)"]).map(lambda t: (None, t)),
)


@given(_LITERALS)
def test_literal_json_round_trip(pair: tuple[Any, str]) -> None:
    value, data_type = pair
    literal = Literal(value, data_type)
    assert from_json(json.loads(json.dumps(to_json(literal)))) == literal
    assert str(literal)  # renders


# --- to_pyarrow --------------------------------------------------------------------------------


def test_to_pyarrow_shapes() -> None:
    assert str(call("<", AGE, lit(30)).to_pyarrow()) == str(
        pa.compute.field("user", "age") < pa.scalar(30, pa.int32())
    )
    with pytest.raises(UnsupportedError):
        call("+", AGE, lit(1), data_type="INT").to_pyarrow()
    with pytest.raises(UnsupportedError):
        Call("CAST", (AGE,), "BIGINT").to_pyarrow()
    with pytest.raises(UnsupportedError):
        call("LIKE", FieldReference("s", "STRING"), FieldReference("p", "STRING")).to_pyarrow()
    # Arrow's case kernels map one character to one ('ß' stays 'ß'); SQL's UPPER gives 'SS'.
    for fn in ("UPPER", "LOWER"):
        with pytest.raises(UnsupportedError):
            call(fn, FieldReference("s", "STRING"), data_type="STRING").to_pyarrow()


# Three levels of ROW under a name with a dot: t.`u.v`.w.x and t.`u.v`.s
LEAF = pa.struct([("x", pa.int32()), ("s", pa.string())])
MID = pa.struct([("w", LEAF)])
TOP = pa.struct([("u.v", MID)])
X = NestedFieldReference(("t", "u.v", "w", "x"), (0, 0, 0, 0), "INT")
S = NestedFieldReference(("t", "u.v", "w", "s"), (0, 0, 0, 1), "STRING")

_ROWS = st.lists(
    st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {
                "u.v": st.one_of(
                    st.none(),
                    st.fixed_dictionaries(
                        {
                            "w": st.one_of(
                                st.none(),
                                st.fixed_dictionaries(
                                    {
                                        "x": st.one_of(st.none(), st.integers(-3, 3)),
                                        "s": st.one_of(
                                            st.none(),
                                            st.sampled_from(
                                                ["", "a", "ab", "A_b", "a%", "ba", "a\\b"]
                                            ),
                                        ),
                                    }
                                ),
                            )
                        }
                    ),
                )
            }
        ),
    ),
    max_size=12,
)

_INT_LIT = st.one_of(st.none(), st.integers(-3, 3)).map(lit)
_COMPARE = st.builds(
    lambda fn, v, flip: call(fn, v, X) if flip else call(fn, X, v),
    st.sampled_from(["=", "<>", "<", "<=", ">", ">="]),
    _INT_LIT,
    st.booleans(),
)
_ATOMS = st.one_of(
    _COMPARE,
    st.sampled_from(["IS NULL", "IS NOT NULL"]).flatmap(
        lambda fn: st.sampled_from([X, S, X, S]).map(lambda ref: call(fn, ref))
    ),
    st.lists(_INT_LIT, min_size=1, max_size=4).map(lambda items: call("IN", X, *items)),
    st.tuples(
        st.sampled_from(["a%", "%b", "_", "a\\%", "%", "a!%", "A!_b"]),
        st.sampled_from([None, "!"]),
    ).map(
        lambda p: call("LIKE", S, lit(p[0], "STRING"), *([lit(p[1], "CHAR(1)")] if p[1] else []))
    ),
)
_PREDICATES = st.recursive(
    _ATOMS,
    lambda inner: st.one_of(
        inner.map(lambda e: call("NOT", e)),
        st.lists(inner, min_size=2, max_size=3).map(lambda es: call("AND", *es)),
        st.lists(inner, min_size=2, max_size=3).map(lambda es: call("OR", *es)),
    ),
    max_leaves=6,
)


def _like_regex(pattern: str, escape: str | None) -> re.Pattern[str]:
    out, chars = [], iter(pattern)
    for ch in chars:
        if escape is not None and ch == escape:
            out.append(re.escape(next(chars)))
        else:
            out.append({"%": ".*", "_": "."}.get(ch, re.escape(ch)))
    return re.compile("".join(out), re.S)


def evaluate(expr: Expression, row: Any) -> Any:  # noqa: PLR0911, PLR0912
    """SQL's three-valued semantics in plain Python: True, False or None (NULL)."""
    if isinstance(expr, Literal):
        return expr.value
    if isinstance(expr, NestedFieldReference):
        value = row
        for name in expr.field_names:
            if value is None:
                return None
            value = value[name]
        return value
    assert isinstance(expr, Call)
    fn, args = expr.function, expr.args
    if fn == "AND":
        vals = [evaluate(a, row) for a in args]
        return False if False in vals else None if None in vals else True
    if fn == "OR":
        vals = [evaluate(a, row) for a in args]
        return True if True in vals else None if None in vals else False
    if fn == "NOT":
        v = evaluate(args[0], row)
        return None if v is None else not v
    if fn in ("IS NULL", "IS NOT NULL"):
        return (evaluate(args[0], row) is None) == (fn == "IS NULL")
    if fn == "IN":
        v = evaluate(args[0], row)
        items = [evaluate(a, row) for a in args[1:]]
        if v is None:
            return None
        return True if v in items else None if None in items else False
    if fn == "LIKE":
        v, pattern = evaluate(args[0], row), evaluate(args[1], row)
        escape = evaluate(args[2], row) if len(args) == 3 else None
        if v is None or pattern is None:
            return None
        return _like_regex(pattern, escape).fullmatch(v) is not None
    left, right = (evaluate(a, row) for a in args)
    if left is None or right is None:
        return None
    return {
        "=": left == right,
        "<>": left != right,
        "<": left < right,
        "<=": left <= right,
        ">": left > right,
        ">=": left >= right,
    }[fn]


@settings(max_examples=300, deadline=None)
@given(_ROWS, _PREDICATES)
def test_to_pyarrow_matches_sql_three_valued_logic(rows: list[Any], predicate: Call) -> None:
    table = pa.table({"t": pa.array(rows, TOP), "i": pa.array(range(len(rows)), pa.int64())})
    got = table.filter(predicate.to_pyarrow())["i"].to_pylist()
    expected = [i for i, r in enumerate(rows) if evaluate(predicate, {"t": r}) is True]
    assert got == expected, str(predicate)
    # The same through pyarrow.dataset, as the sources use it.
    dataset = pa.dataset.dataset(table)
    assert dataset.to_table(filter=predicate.to_pyarrow())["i"].to_pylist() == expected


def test_not_in_with_null_operand_is_null() -> None:
    table = pa.table({"t": pa.array([None, {"u.v": {"w": {"x": 5, "s": None}}}], TOP)})
    assert table.filter(call("NOT", call("IN", X, lit(1))).to_pyarrow()).num_rows == 1
    assert table.filter(call("NOT", call("IN", X, lit(1), lit(None))).to_pyarrow()).num_rows == 0
