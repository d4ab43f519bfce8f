"""User-defined Python functions (docs/functions.md): ``env.create_function`` and the function
DDL of tests/fixtures/functions.sql, checked against values computed in Python, on Calcite's
engine, DuckDB and ``auto``; NULLs, errors with the function's name and traceback, EXPLAIN, the
sandbox and the CLI."""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from click.testing import CliRunner
from tests.helpers.fixtures import load_cases
from tests.helpers.statement_cases import run_cases

import calcite_bridge as cb
from calcite_bridge.cli import main

BACKENDS = ("enumerable", "duckdb", "auto")
CASES = load_cases("functions.sql", keys={"columns", "rows", "error", "match", "column"})
ROWS = 20_000  # more than two batches of Calcite's engine (8192 rows) and many of DuckDB's
XS = [None if i % 7 == 3 else i - 50 for i in range(ROWS)]
SS = [None if i % 5 == 1 else f"w{i % 13}" for i in range(ROWS)]

pytestmark = pytest.mark.jpype_only(reason="Python functions run in an environment of this process")


@pytest.fixture
def fenv(env: cb.Environment) -> cb.Environment:
    env.register_arrow("t", pa.table({"x": pa.array(XS, pa.int64()), "s": pa.array(SS)}))
    return env


def test_function_ddl_script(env: cb.Environment) -> None:
    assert len(CASES) > 30
    run_cases(env, CASES)


def _shout(s: str) -> str:
    return None if s is None else s.upper() + "!"  # type: ignore[return-value]


def _column(env: cb.Environment, sql: str, backend: str) -> list[Any]:
    return [r[0] for r in env.sql(sql, backend=backend).fetchall()]


@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_functions_against_python(fenv: cb.Environment, backend: str) -> None:
    fenv.create_function("plus1", lambda x: None if x is None else x + 1, return_type="BIGINT")
    fenv.create_function("shout", _shout)  # types from the annotations
    fenv.create_function(
        "half", lambda x: None if x is None else x / 2, return_type=float, arg_types=[float]
    )
    assert _column(fenv, "SELECT plus1(x) FROM t", backend) == [
        None if x is None else x + 1 for x in XS
    ]
    assert _column(fenv, "SELECT shout(s) FROM t", backend) == [_shout(s) for s in SS]
    # An INT operand is cast to the declared DOUBLE: the function gets a float.
    assert _column(fenv, "SELECT half(CAST(x AS INT)) FROM t", backend) == [
        None if x is None else x / 2 for x in XS
    ]
    # In a filter, nested, and beside the engine's own expressions.
    rows = fenv.sql(
        "SELECT x, plus1(plus1(x)) * 2 FROM t WHERE shout(s) = 'W3!' AND x > 0", backend=backend
    ).fetchall()
    assert rows == [
        (x, (x + 2) * 2)
        for x, s in zip(XS, SS, strict=True)
        if s == "w3" and x is not None and x > 0
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_vectorized_function_is_called_a_batch_at_a_time(
    fenv: cb.Environment, backend: str
) -> None:
    calls: list[int] = []

    def vsq(a: pa.Array) -> pa.Array:
        calls.append(len(a))
        return pc.multiply(a, a)

    fenv.create_function("vsq", vsq, return_type="DOUBLE", arg_types=["DOUBLE"], vectorized=True)
    got = _column(fenv, "SELECT vsq(x) FROM t", backend)
    assert got == [None if x is None else float(x * x) for x in XS]
    assert sum(calls) == ROWS
    assert len(calls) <= ROWS // 1000  # batches, never a call a row


@pytest.mark.parametrize("backend", BACKENDS)
def test_types_cross_both_ways(env: cb.Environment, backend: str) -> None:
    env.execute(
        "CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES "
        "(DATE '2024-02-28', CAST(1.25 AS DECIMAL(10, 2)), TRUE, X'0102', "
        "TIMESTAMP '2024-01-02 03:04:05.123456'), "
        "(CAST(NULL AS DATE), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS BOOLEAN), "
        "CAST(NULL AS BYTES), CAST(NULL AS TIMESTAMP(6)))) AS v(d, m, b, y, ts)"
    )

    def next_day(d: dt.date) -> dt.date:
        return None if d is None else d + dt.timedelta(days=1)  # type: ignore[return-value]

    def money(m: Decimal) -> Decimal:
        return None if m is None else m * 2  # type: ignore[return-value]

    def flip(b: bool) -> bool:
        return None if b is None else not b  # type: ignore[return-value]

    def rev(y: bytes) -> bytes:
        return None if y is None else y[::-1]  # type: ignore[return-value]

    def later(ts: dt.datetime) -> dt.datetime:
        return None if ts is None else ts + dt.timedelta(hours=1)  # type: ignore[return-value]

    env.create_function("next_day", next_day)
    env.create_function("money", money, return_type="DECIMAL(12, 2)", arg_types=["DECIMAL(10, 2)"])
    env.create_function("flip", flip)
    env.create_function("rev", rev)
    env.create_function("later", later)
    rows = env.sql(
        "SELECT next_day(d), money(m), flip(b), rev(y), later(ts) FROM v", backend=backend
    ).fetchall()
    assert rows == [
        (
            dt.date(2024, 2, 29),
            Decimal("2.50"),
            False,
            b"\x02\x01",
            dt.datetime(2024, 1, 2, 4, 4, 5, 123456),
        ),
        (None, None, None, None, None),
    ]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "spark", "auto"])
def test_a_time_crosses_both_ways_as_a_time_3(env: cb.Environment, backend: str) -> None:
    """A ``datetime.time`` annotation is TIME(3), as a TIME keeps milliseconds at most (it was
    TIME(6)): the function gets a TIME(3)'s milliseconds, and a time it returns with microseconds
    is cut to milliseconds, as PyFlink 2.3 cuts the ``datetime.time`` a TIME(3) function returns
    (``01:02:03.123456`` is ``01:02:03.123``, ``.999999`` ``.999``). DuckDB and Spark have no TIME
    of Flink's: they refuse it, and auto runs the query on Calcite's engine."""
    if backend == "spark":
        pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")
    env.execute(
        "CREATE TEMPORARY VIEW tv AS SELECT * FROM (VALUES (1, TIME '01:02:03.456'), "
        "(2, TIME '23:59:59.999'), (3, CAST(NULL AS TIME(3)))) AS v(k, t)"
    )
    seen: list[object] = []

    def same(t: dt.time) -> dt.time:
        seen.append(t)
        return t

    def finer(t: dt.time) -> dt.time:
        return None if t is None else t.replace(microsecond=t.microsecond + 999)  # type: ignore[return-value]

    def finer_v(t: pa.Array) -> pa.Array:  # microseconds, as an array of time64[us]
        micros = pc.add(pc.cast(pc.cast(t, pa.time64("us")), pa.int64()), 999)
        return pc.cast(micros, pa.time64("us"))

    env.create_function("same_t", same)
    env.create_function("finer_t", finer)
    env.create_function("finer_v", finer_v, "TIME(3)", ["TIME(3)"], vectorized=True)
    sql = (
        "SELECT k, same_t(t) AS s, finer_t(t) AS f, CAST(finer_t(t) AS STRING) AS fs, "
        "TYPEOF(same_t(t)) AS ty, finer_v(t) AS v FROM tv ORDER BY k"
    )
    if backend in ("duckdb", "spark"):
        with pytest.raises(cb.UnsupportedError, match="TIME"):
            env.sql(sql, backend=backend).fetchall()
        return
    rows = env.sql(sql, backend=backend).fetchall()
    t1, t2 = dt.time(1, 2, 3, 456000), dt.time(23, 59, 59, 999000)
    assert rows == [
        (1, t1, t1, "01:02:03.456", "TIME(3)", t1),
        (2, t2, t2, "23:59:59.999", "TIME(3)", t2),
        (3, None, None, None, "TIME(3)", None),
    ]
    assert dt.time(1, 2, 3, 456000) in seen


@pytest.mark.parametrize("backend", ("enumerable", "auto"))
def test_a_row_argument_has_the_field_names_the_function_declared(
    env: cb.Environment, backend: str
) -> None:
    def describe(r: Any) -> Any:
        return None if r is None else f"{r['x']}:{r['y']}"

    def names(rs: Any) -> Any:
        return None if rs is None else ",".join(describe(r) or "-" for r in rs)

    env.create_function(
        "describe_row", describe, return_type="STRING", arg_types=["ROW<x BIGINT, y STRING>"]
    )
    env.create_function(
        "describe_rows", names, return_type="STRING", arg_types=["ARRAY<ROW<x BIGINT, y STRING>>"]
    )
    env.register_arrow(
        "r",
        pa.table(
            {
                "k": [1, 2, 3],
                "r": pa.array(
                    [{"a": 1, "b": "p"}, None, {"a": None, "b": None}],
                    pa.struct([("a", pa.int64()), ("b", pa.string())]),
                ),
            }
        ),
    )
    sql = (
        "SELECT describe_row(r), describe_row(ROW(k, 'z')), describe_row(?),"
        " describe_rows(ARRAY[ROW(k, 'q'), CAST(NULL AS ROW<x BIGINT, y STRING>)])"
        " FROM r ORDER BY k"
    )
    rows = env.sql(sql, [(7, "w")], backend=backend).fetchall()
    assert rows == [
        ("1:p", "1:z", "7:w", "1:q,-"),
        (None, "2:z", "7:w", "2:q,-"),
        ("None:None", "3:z", "7:w", "3:q,-"),
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_scalars_a_function_returns_are_their_python_values(
    env: cb.Environment, backend: str
) -> None:
    import numpy as np

    env.register_arrow("n", pa.table({"x": pa.array([2, None, -3], pa.int64())}))
    env.create_function(
        "twice", lambda x: None if x is None else np.int64(2 * x), return_type="BIGINT"
    )
    env.create_function(
        "half", lambda x: None if x is None else np.float64(x / 2), return_type="DOUBLE"
    )
    env.create_function(
        "positive", lambda x: None if x is None else np.bool_(x > 0), return_type="BOOLEAN"
    )
    env.create_function(
        "named", lambda x: None if x is None else np.str_(f"n{x}"), return_type="STRING"
    )
    rows = env.sql(
        "SELECT twice(x), half(x), positive(x), named(x) FROM n", backend=backend
    ).fetchall()
    assert rows == [(4, 1.0, True, "n2"), (None, None, None, None), (-6, -1.5, False, "n-3")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_nan_or_infinity_stays_a_value_and_null_stays_null(
    env: cb.Environment, backend: str
) -> None:
    # DuckDB's own Python functions return a NaN as NULL: it must stay NaN, as in Python.
    xs = [1.5, math.nan, None, math.inf, -math.inf, -0.0]
    env.register_arrow("f", pa.table({"k": range(len(xs)), "x": pa.array(xs, pa.float64())}))
    env.create_function("twice", lambda x: None if x is None else x * 2, return_type="DOUBLE")
    env.create_function("as_nan", lambda x: math.nan, return_type=float, arg_types=["BIGINT"])
    env.create_function("is_nan", lambda x: None if x is None else math.isnan(x), "BOOLEAN")
    rows = env.sql(
        "SELECT twice(x), as_nan(k), is_nan(x), is_nan(twice(x)) FROM f ORDER BY k",
        backend=backend,
    ).fetchall()
    want = [
        (
            None if x is None else x * 2,
            math.nan,
            None if x is None else math.isnan(x),
            None if x is None else math.isnan(x * 2),
        )
        for x in xs
    ]
    assert repr(rows) == repr(want)
    # A filter sees the NaN too.
    got = env.sql("SELECT k FROM f WHERE is_nan(twice(x)) ORDER BY k", backend=backend)
    assert got.fetchall() == [(1,)]
    # A function without arguments too, computed once or at each row.
    env.create_function("nan0", lambda: math.nan, return_type="DOUBLE")
    env.create_function("nan1", lambda: math.nan, return_type="DOUBLE", deterministic=False)
    rows = env.sql("SELECT nan0(), nan1(), k FROM f ORDER BY k", backend=backend).fetchall()
    assert all(math.isnan(a) and math.isnan(b) for a, b, _ in rows), rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_defaults_and_star_args_are_called_as_pyflink_calls_them(
    env: cb.Environment, backend: str
) -> None:
    def scaled(x: int, by: int = 10) -> int:
        return x * by

    def joined(sep, *parts):  # type: ignore[no-untyped-def]
        return sep.join("" if p is None else str(p) for p in parts)

    env.create_function("scaled", scaled)
    env.create_function("joined", joined, return_type="STRING")
    env.create_function("opt", lambda a, b=None: f"{a}/{b}", return_type="STRING")
    got = env.sql(
        "SELECT scaled(2), scaled(2, 3), joined('-'), joined('-', 1, 'b', 2.5),"
        " opt('x'), opt('x', 'y')",
        backend=backend,
    ).fetchall()
    assert got == [(20, 6, "", "1-b-2.5", "x/None", "x/y")]
    with pytest.raises(cb.SqlValidationError, match="scaled"):
        env.sql("SELECT scaled(1, 2, 3)", backend=backend)
    with pytest.raises(cb.SqlValidationError, match="joined"):
        env.sql("SELECT joined()", backend=backend)


def test_a_keyword_only_parameter_without_a_default_is_refused_when_added(
    env: cb.Environment,
) -> None:
    def keyed(x, *, unit):  # type: ignore[no-untyped-def]
        return x

    with pytest.raises(cb.ConfigError, match=r"The function keyed has keyword-only .*\(unit\)"):
        env.create_function("keyed", keyed, return_type="INT")
    env.create_function("keyed", lambda x, *, unit="m": f"{x}{unit}", return_type="STRING")
    assert env.sql("SELECT keyed(3)").fetchall() == [("3m",)]


def test_a_map_argument_is_a_dict(env: cb.Environment) -> None:
    # As PyFlink passes it, in a ROW and an ARRAY too.
    env.create_function(
        "kinds",
        lambda m, r, a: repr((m, r, a)),
        return_type="STRING",
        arg_types=["MAP<STRING, INT>", "ROW<m MAP<STRING, INT>>", "ARRAY<MAP<INT, STRING>>"],
    )
    got = env.sql(
        "SELECT kinds(MAP['a', 1, 'b', 2], ROW(MAP['c', 3]), ARRAY[MAP[1, 'x']]),"
        " kinds(CAST(NULL AS MAP<STRING, INT>), NULL, NULL)"
    ).fetchall()
    assert got == [
        (repr(({"a": 1, "b": 2}, {"m": {"c": 3}}, [{1: "x"}])), repr((None, None, None)))
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_decimal_result_of_more_digits_rounds_half_up_to_the_return_types_scale(
    env: cb.Environment, backend: str
) -> None:
    ms = ["1.25", "-3.50", "0.375", "-0.375", "0.124", None]
    env.register_arrow(
        "m",
        pa.table(
            {
                "k": range(len(ms)),
                "m": pa.array([None if m is None else Decimal(m) for m in ms], pa.decimal128(6, 3)),
            }
        ),
    )
    env.create_function(
        "third",
        lambda m: None if m is None else m / 3,
        return_type="DECIMAL(10, 2)",
        arg_types=["DECIMAL(6, 3)"],
    )
    env.create_function(
        "same", lambda m: m, return_type="DECIMAL(10, 2)", arg_types=["DECIMAL(6, 3)"]
    )
    rows = env.sql("SELECT third(m), same(m) FROM m ORDER BY k", backend=backend).fetchall()

    def half_up(v: Decimal) -> Decimal:
        return v.quantize(Decimal("0.01"), ROUND_HALF_UP)

    assert rows == [
        (None, None) if m is None else (half_up(Decimal(m) / 3), half_up(Decimal(m))) for m in ms
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_integer_out_of_the_return_types_range_names_the_function(
    env: cb.Environment, backend: str
) -> None:
    env.create_function("plus1", lambda x: None if x is None else x + 1, return_type="BIGINT")
    with pytest.raises(
        cb.ExecutionError,
        match=r"The function plus1 returned int 9223372036854775808, not a value of its return "
        r"type BIGINT",
    ):
        env.sql("SELECT plus1(9223372036854775807)", backend=backend).fetchall()
    env.create_function("small", lambda x: x * 1000, return_type="TINYINT", arg_types=["INT"])
    with pytest.raises(cb.ExecutionError, match=r"The function small returned int 5000"):
        env.sql("SELECT small(k) FROM (VALUES (0), (5)) AS v(k)", backend=backend).fetchall()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failing_function_names_itself_and_the_session_goes_on(
    fenv: cb.Environment, backend: str
) -> None:
    def boom(x: int) -> int:
        if x is not None and x > 100:
            raise ValueError(f"too big: {x}")
        return x

    fenv.create_function("boom", boom)
    with pytest.raises(cb.ExecutionError) as info:
        fenv.sql("SELECT boom(x) FROM t", backend=backend).fetchall()
    assert "The function boom failed: ValueError: too big: " in info.value.message
    assert info.value.source_traceback is not None
    assert "in boom" in info.value.source_traceback
    assert 'raise ValueError(f"too big: {x}")' in info.value.source_traceback
    # The environment goes on.
    assert fenv.sql("SELECT boom(5)", backend=backend).fetchall() == [(5,)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_wrong_return_type_names_the_function(fenv: cb.Environment, backend: str) -> None:
    fenv.create_function("wrong", lambda x: "seven", return_type="BIGINT", arg_types=["BIGINT"])
    with pytest.raises(cb.ExecutionError, match="The function wrong returned str 'seven', not "):
        fenv.sql("SELECT wrong(x) FROM t", backend=backend).fetchall()
    fenv.create_function(
        "short",
        lambda a: pa.array([1]),
        return_type="BIGINT",
        arg_types=["BIGINT"],
        vectorized=True,
    )
    with pytest.raises(cb.ExecutionError, match=r"The function short returned 1 values? for"):
        fenv.sql("SELECT short(x) FROM t", backend=backend).fetchall()


def test_explain_shows_where_functions_run(fenv: cb.Environment) -> None:
    fenv.create_function("plus1", lambda x: x + 1, return_type="BIGINT", arg_types=["BIGINT"])
    enumerable = fenv.explain("SELECT plus1(x) FROM t", backend="enumerable")
    assert "PythonBatch(batch=[[plus1($0)]])" in enumerable
    duck = fenv.explain("SELECT plus1(x) FROM t", backend="duckdb")
    assert re.search(r'CB_PY_\d+_I8_I8\("x"\)', duck), duck
    assert fenv.explain("SELECT plus1(x) FROM t").startswith("DuckDB(")  # auto keeps DuckDB


def test_spark_runs_python_table_functions_only_laterally(fenv: cb.Environment) -> None:
    # LATERAL TABLE runs on Spark as LATERAL inline(...) (tests/test_spark_functions.py); a
    # table function's rows without a correlation are an UNNEST, which Spark is not given.
    fenv.create_table_function("pairs", lambda x: [(x, x)], columns="a BIGINT, b BIGINT")
    plan = fenv.explain("SELECT a FROM t, LATERAL TABLE(pairs(x)) AS p(a, b)", backend="spark")
    assert re.search(r"CB_PY_\d+_TB_I8\(", plan) and "LATERAL INLINE(" in plan.upper(), plan
    with pytest.raises(cb.UnsupportedError, match="spark backend cannot run UNNEST"):
        fenv.explain("SELECT * FROM TABLE(pairs(CAST(1 AS BIGINT)))", backend="spark")


def test_a_function_that_is_not_deterministic_is_called_each_time(env: cb.Environment) -> None:
    calls: list[int] = []

    def count(x: int) -> int:
        calls.append(x)
        return len(calls)

    env.create_function("counted", count, deterministic=False)
    assert "counted(" in env.explain("SELECT counted(1)", backend="enumerable")
    rows = env.sql(
        "SELECT counted(1) FROM (VALUES (1), (2), (3)) AS v(a)", backend="enumerable"
    ).fetchall()
    assert len({r[0] for r in rows}) == 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_filter_on_a_function_that_is_not_deterministic_sees_the_value_shown(
    env: cb.Environment, backend: str
) -> None:
    """A filter on the alias of a call that is not deterministic stays above the projection:
    moved below it, the call was made twice a row (once to filter, once to project) and a row
    kept on one value showed another."""
    env.register_arrow("t", pa.table({"x": pa.array(range(30), pa.int64())}))
    calls: list[int] = []

    def wobble(x: int) -> int:
        calls.append(x)
        return len(calls) % 3 - 1  # -1, 0, 1, -1, ...: another value each call

    env.create_function("wobble", wobble, return_type="INT", deterministic=False)
    sql = "SELECT * FROM (SELECT x, wobble(x) AS r FROM t) WHERE r > 0"
    rows = env.sql(sql, backend=backend).fetchall()
    assert sorted(calls) == list(range(30))  # once a row
    assert rows and all(r == 1 for _, r in rows), rows
    assert sorted(x for x, _ in rows) == sorted(
        x for i, x in enumerate(calls) if (i + 1) % 3 - 1 > 0
    )
    # Under the projection, the filter is computed on the call's own column.
    assert (
        len(re.findall(r"wobble\(|cb_py_\d+_i4_i8\(", env.explain(sql, backend=backend), re.I)) == 1
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_calls_the_engine_makes_a_row_at_a_time(fenv: cb.Environment, backend: str) -> None:
    fenv.create_function("plus1", lambda x: None if x is None else x + 1, return_type="BIGINT")
    # Inside CASE (a row may not reach it), in GROUP BY and in an aggregate's argument.
    rows = fenv.sql(
        "SELECT CASE WHEN x > 0 THEN plus1(x) ELSE 0 END AS c, COUNT(*), SUM(plus1(x)) "
        "FROM t WHERE x BETWEEN -2 AND 2 GROUP BY CASE WHEN x > 0 THEN plus1(x) ELSE 0 END "
        "ORDER BY c",
        backend=backend,
    ).fetchall()
    expected: dict[int, list[int]] = {}
    for x in XS:
        if x is not None and -2 <= x <= 2:
            expected.setdefault(x + 1 if x > 0 else 0, []).append(x + 1)
    assert rows == [(k, len(v), sum(v)) for k, v in sorted(expected.items())]


def test_annotations_and_arguments_give_types(env: cb.Environment) -> None:
    with pytest.raises(cb.ConfigError, match="needs a return_type"):
        env.create_function("f", lambda x: x)
    with pytest.raises(cb.ConfigError, match="which has no SQL type"):
        env.create_function("f", lambda x: x, return_type=list)
    with pytest.raises(cb.ConfigError, match="is not a SQL type: 'NOT A TYPE'"):
        env.create_function("f", lambda x: x, return_type="NOT A TYPE")
    # argument types the function cannot take fail here, not at each call
    with pytest.raises(cb.ConfigError, match="declared with 2 argument types, but cannot be"):
        env.create_function("f", lambda x: x, return_type="INT", arg_types=["INT", "INT"])
    with pytest.raises(cb.ConfigError, match="declared with 1 argument type, but cannot be"):
        env.create_table_function("f", lambda: [], columns="a INT", arg_types=["INT"])
    env.create_function("pair", lambda *xs: len(xs), return_type="INT", arg_types=["INT", "INT"])
    assert env.sql("SELECT pair(1, NULL)").fetchall() == [(2,)]

    def text(x):  # type: ignore[no-untyped-def]
        return str(x)

    env.create_function("any_arg", text, return_type="STRING")
    assert env.sql("SELECT any_arg(1), any_arg('a'), any_arg(TRUE)").fetchall() == [
        ("1", "a", "True")
    ]


def test_functions_belong_to_their_environment(connect: Any) -> None:
    first, second = connect(), connect()
    first.create_function("mine", lambda: 1, return_type="INT")
    assert first.sql("SELECT mine()").fetchall() == [(1,)]
    with pytest.raises(cb.SqlValidationError, match="No match found for function signature mine"):
        second.sql("SELECT mine()")
    with pytest.raises(cb.CatalogError, match="does already exist"):
        first.create_function("mine", lambda: 2, return_type="INT")
    first.create_function("mine", lambda: 2, return_type="INT", replace=True)
    assert first.sql("SELECT mine()").fetchall() == [(2,)]
    first.drop_function("mine")
    with pytest.raises(cb.CatalogError, match="Function mine does not exist"):
        first.drop_function("mine")
    first.drop_function("mine", if_exists=True)


@pytest.mark.parametrize(
    "settings",
    [{}, {"external-access": "false"}, {"lock-config": "true"}],
    ids=["open", "external-access", "lock-config"],
)
def test_sql_imports_only_allowed_modules(connect: Any, settings: dict[str, str]) -> None:
    env = connect(settings)
    sql = "CREATE FUNCTION twice AS 'tests.helpers.udfs.twice' LANGUAGE PYTHON"
    with pytest.raises(
        cb.AccessDeniedError, match=r"module 'tests\.helpers\.udfs' is not allowed"
    ) as e:
        env.execute(sql)
    assert (e.value.line, e.value.column) == (1, 26)
    # The application itself may add any function.
    env.create_function("own", lambda: 7, return_type="INT")
    assert env.sql("SELECT own()").fetchall() == [(7,)]
    allowed = connect({"python.allowed-modules": "tests.helpers", **settings})
    allowed.execute(sql)
    assert allowed.sql("SELECT twice(4)").fetchall() == [(8,)]


def test_a_locked_environment_keeps_its_allowed_modules(connect: Any) -> None:
    env = connect({"python.allowed-modules": "tests.helpers.udfs"}, lock_config=True)
    with pytest.raises(cb.ConfigError):
        env.execute("SET 'python.allowed-modules' = 'tests'")
    with pytest.raises(cb.AccessDeniedError):
        env.execute("CREATE FUNCTION f AS 'tests.helpers.fixtures.load_cases' LANGUAGE PYTHON")


def test_a_gateway_environment_refuses_python_functions(
    gateway_address: str, gateway_token: str
) -> None:
    env = cb.connect(gateway=gateway_address, token=gateway_token)
    with pytest.raises(cb.UnsupportedError, match="not a gateway's"):
        env.create_function("f", lambda: 1, return_type="INT")
    with pytest.raises(cb.UnsupportedError, match="Python functions need"):
        env.execute("CREATE FUNCTION twice AS 'tests.helpers.udfs.twice' LANGUAGE PYTHON")


def test_cli_catalog_script_creates_a_function(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.sql"
    catalog.write_text(
        "CREATE TEMPORARY SYSTEM FUNCTION backwards AS 'tests.helpers.udfs.backwards' "
        "LANGUAGE PYTHON;\n"
        "CREATE TABLE w (s STRING) WITH ('connector' = 'memory');\n"
        "INSERT INTO w VALUES ('abc'), (CAST(NULL AS STRING));\n"
    )
    result = CliRunner().invoke(
        main,
        [
            "query",
            "--set",
            "python.allowed-modules=tests.helpers",
            "--catalog",
            str(catalog),
            "--format",
            "csv",
            "SELECT backwards(s) AS r FROM w",
        ],
    )
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.output.splitlines() == ["r", "cba", ""]


def _wavg(pairs: list[tuple[Any, Any]]) -> float | None:
    kept = [(v, w) for v, w in pairs if v is not None and w is not None]
    total = sum(w for _, w in kept)
    return None if total == 0 else sum(v * w for v, w in kept) / total


@pytest.mark.parametrize("backend", ("enumerable", "auto"))
def test_aggregate_functions_against_python(fenv: cb.Environment, backend: str) -> None:
    from tests.helpers.udfs import WeightedAvg

    fenv.create_aggregate_function("wavg", WeightedAvg)  # a class is instantiated
    rows = fenv.sql(
        "SELECT s, wavg(CAST(x AS DOUBLE), 2.0) AS a, COUNT(*) FROM t GROUP BY s ORDER BY s",
        backend=backend,
    ).fetchall()
    groups: dict[Any, list[Any]] = {}
    for x, s in zip(XS, SS, strict=True):
        groups.setdefault(s, []).append(x)
    expected = [
        (s, _wavg([(x, 2.0) for x in xs]), len(xs))
        for s, xs in sorted(groups.items(), key=lambda kv: (kv[0] is not None, kv[0] or ""))
    ]
    assert sorted(rows, key=lambda r: (r[0] is not None, r[0] or "")) == expected
    # FILTER, an empty input, and a window.
    assert fenv.sql(
        "SELECT wavg(CAST(x AS DOUBLE), 1.0) FILTER (WHERE x < 0), "
        "wavg(CAST(x AS DOUBLE), 1.0) FILTER (WHERE x > 1000000) FROM t",
        backend=backend,
    ).fetchall() == [(_wavg([(x, 1.0) for x in XS if x is not None and x < 0]), None)]
    window = fenv.sql(
        "SELECT x, wavg(CAST(x AS DOUBLE), 1.0) OVER (PARTITION BY s) FROM t WHERE s = 'w3'",
        backend=backend,
    ).fetchall()
    mean = _wavg([(x, 1.0) for x, s in zip(XS, SS, strict=True) if s == "w3"])
    assert {w for _, w in window} == {mean}
    assert "PythonBatch(batch=[[wavg$finish(" in fenv.explain(
        "SELECT wavg(CAST(x AS DOUBLE), 1.0) FROM t", backend="enumerable"
    )


@pytest.mark.parametrize("backend", ("enumerable", "auto"))
def test_an_aggregate_function_over_a_window_sees_each_rows_own_frame(
    env: cb.Environment, backend: str
) -> None:
    class Total:
        def create_accumulator(self) -> list[Any]:
            return [None]

        def accumulate(self, acc: list[Any], x: int) -> None:
            if x is not None:
                acc[0] = (acc[0] or 0) + x

        def get_value(self, acc: list[Any]) -> int:
            return acc[0]  # type: ignore[no-any-return]

    rows = [(1, "a", None), (2, "a", 1), (3, "b", 2), (4, "a", 4), (5, "b", 5), (6, "a", 7)]
    env.register_arrow(
        "w",
        pa.table({"k": [r[0] for r in rows], "g": [r[1] for r in rows], "x": [r[2] for r in rows]}),
    )
    env.create_aggregate_function("total", Total)

    def total(xs: list[Any]) -> Any:
        kept = [x for x in xs if x is not None]
        return sum(kept) if kept else None

    def frames(partition: bool, preceding: int | None) -> list[tuple[Any, ...]]:
        out = []
        for i, (k, g, _) in enumerate(rows):
            mine = [r for r in rows[: i + 1] if not partition or r[1] == g]
            if preceding is not None:
                mine = mine[-(preceding + 1) :]
            xs = [r[2] for r in mine]
            out.append((k, total(xs), xs))
        return out

    for over, partition, preceding in (
        ("ORDER BY k", False, None),
        ("ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", False, None),
        ("ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW", False, 1),
        ("PARTITION BY g ORDER BY k", True, None),
        ("PARTITION BY g ORDER BY k ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", True, 2),
    ):
        got = env.sql(
            f"SELECT k, total(x) OVER ({over}), ARRAY_AGG(x) OVER ({over}) FROM w ORDER BY k",
            backend=backend,
        ).fetchall()
        assert got == frames(partition, preceding), over


def test_aggregate_function_errors(fenv: cb.Environment) -> None:
    class Broken:
        def create_accumulator(self) -> list[int]:
            return []

        def accumulate(self, acc: list[int], x: int) -> None:
            acc.append(1 // 0)

        def get_value(self, acc: list[int]) -> int:
            return len(acc)

    fenv.create_aggregate_function("broken", Broken())
    with pytest.raises(cb.SqlValidationError, match="Was expecting 1 arguments") as info:
        fenv.sql("SELECT broken(x, x) FROM t")
    assert (info.value.line, info.value.column) == (1, 8)
    with pytest.raises(cb.ExecutionError, match="The function broken failed: ZeroDivisionError"):
        fenv.sql("SELECT broken(x) FROM t").fetchall()
    with pytest.raises(cb.UnsupportedError, match="cannot run the function broken"):
        fenv.sql("SELECT broken(x) FROM t", backend="duckdb")
    with pytest.raises(cb.ConfigError, match="it lacks create_accumulator, accumulate, get_value"):
        fenv.create_aggregate_function("nothing", object(), return_type="INT")


def test_create_function_of_an_aggregate_class(env: cb.Environment) -> None:
    env.config.set("python.allowed-modules", "tests.helpers")
    env.execute("CREATE FUNCTION wavg AS 'tests.helpers.udfs.WeightedAvg' LANGUAGE PYTHON")
    assert env.sql(
        "SELECT wavg(v, w) FROM (VALUES (1.0, 1.0), (4.0, 2.0)) AS v(v, w)"
    ).fetchall() == [(3.0,)]
    info = dict(env.execute("DESCRIBE FUNCTION EXTENDED wavg").fetchall())
    assert info["kind"] == "AGGREGATE"


def _words(s: Any) -> list[tuple[str, int]]:
    return [] if s is None else [(w, len(w)) for w in s.split()]


@pytest.mark.parametrize("backend", ("enumerable", "auto"))
def test_table_functions_against_python(env: cb.Environment, backend: str) -> None:
    from tests.helpers.udfs import split_words

    texts = ["a bb", None, "", "ccc a"] * 3000
    env.register_arrow("docs", pa.table({"id": range(len(texts)), "s": texts}))
    env.create_table_function("split_words", split_words, columns="word STRING, n INT")
    inner = env.sql(
        "SELECT id, w, n FROM docs, LATERAL TABLE(split_words(s)) AS x(w, n) ORDER BY id, w",
        backend=backend,
    ).fetchall()
    assert inner == [(i, w, n) for i, s in enumerate(texts) for w, n in sorted(_words(s))]
    left = env.sql(
        "SELECT id, w, n FROM docs LEFT JOIN LATERAL TABLE(split_words(s)) AS x(w, n) ON TRUE "
        "WHERE id < 8 ORDER BY id, w",
        backend=backend,
    ).fetchall()
    assert left == [
        (i, w, n) for i, s in enumerate(texts[:8]) for w, n in (sorted(_words(s)) or [(None, None)])
    ]
    assert env.sql("SELECT * FROM TABLE(split_words('x yy'))", backend=backend).fetchall() == [
        ("x", 1),
        ("yy", 2),
    ]
    plan = env.explain("SELECT w FROM docs, LATERAL TABLE(split_words(s)) AS x(w, n)")
    assert re.search(r"PythonBatch\(batch=\[\[split_words\$finish\(\$\d+\)\]\]\)", plan), plan


def test_table_function_errors(env: cb.Environment) -> None:
    def bad_rows(x: int):  # type: ignore[no-untyped-def]
        yield ("not a number",)

    env.create_table_function("bad_rows", bad_rows, columns="n INT")
    with pytest.raises(cb.ExecutionError, match="The function bad_rows returned"):
        env.sql("SELECT * FROM TABLE(bad_rows(1))").fetchall()
    with pytest.raises(cb.ConfigError, match="needs its columns"):
        env.create_table_function("f", bad_rows, columns="")
    env.config.set("python.allowed-modules", "tests.helpers")
    # CREATE FUNCTION makes a scalar function: a table function comes from the Python API.
    with pytest.raises(cb.ConfigError, match="needs a return_type"):
        env.execute("CREATE FUNCTION w2 AS 'tests.helpers.udfs.split_words' LANGUAGE PYTHON")
