"""Resolved expressions handed to table sources (DESIGN §7).

``FieldReference``, ``NestedFieldReference``, ``Literal`` and ``Call`` are immutable, compare
equal by value and are hashable. ``str()`` renders like Flink's plans (``<(user.age, 30)``),
``to_sql()`` gives SQL text and ``to_pyarrow()`` a ``pyarrow.compute.Expression`` that keeps
SQL's three-valued logic. ``to_json``/``from_json`` are the wire format shared with the JVM.
"""

from __future__ import annotations

import datetime as dt
import decimal
import functools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from calcite_bridge._sql import quote_identifier
from calcite_bridge._types import base_type, sql_to_arrow
from calcite_bridge._values import decode_value, encode_value
from calcite_bridge.errors import UnsupportedError

__all__ = [
    "COMPARISONS",
    "Call",
    "Expression",
    "FieldReference",
    "Literal",
    "NestedFieldReference",
    "arrow_type",
    "base_type",
    "from_json",
    "is_nested",
    "references",
    "to_json",
]

COMPARISONS = ("=", "<>", "<", "<=", ">", ">=")
_POSTFIX = ("IS NULL", "IS NOT NULL")
_INFIX = (*COMPARISONS, "+", "-", "*", "/")
_ARROW_COMPARE = {
    "=": "equal",
    "<>": "not_equal",
    "<": "less",
    "<=": "less_equal",
    ">": "greater",
    ">=": "greater_equal",
}


class Expression:
    """Base class of the four expression kinds."""

    __slots__ = ()
    data_type: str

    def children(self) -> tuple[Expression, ...]:
        return ()

    def walk(self) -> Iterator[Expression]:
        """This expression and every sub-expression, depth first."""
        yield self
        for child in self.children():
            yield from child.walk()

    def to_sql(self) -> str:
        raise NotImplementedError

    def to_pyarrow(self) -> pc.Expression:
        raise NotImplementedError


def _quote_name(name: str) -> str:
    """A name for ``str()``: backticks only when it has a dot or a backtick (or is empty)."""
    if name and "." not in name and "`" not in name:
        return name
    return quote_identifier(name)


@dataclass(frozen=True)
class FieldReference(Expression):
    """A top-level column of input ``input_index`` (0 for a scan)."""

    name: str
    data_type: str
    input_index: int = 0
    field_index: int = 0

    def __str__(self) -> str:
        return _quote_name(self.name)

    def to_sql(self) -> str:
        return quote_identifier(self.name)

    def to_pyarrow(self) -> pc.Expression:
        return pc.field(self.name)


@dataclass(frozen=True)
class NestedFieldReference(Expression):
    """A field inside ROW columns: ``field_names`` top level first, one index a level."""

    field_names: tuple[str, ...]
    field_indices: tuple[int, ...]
    data_type: str
    input_index: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "field_names", tuple(self.field_names))
        object.__setattr__(self, "field_indices", tuple(int(i) for i in self.field_indices))
        if not self.field_names or len(self.field_names) != len(self.field_indices):
            raise ValueError(
                "NestedFieldReference needs one index per name, at least one level: "
                f"{self.field_names!r} / {self.field_indices!r}"
            )

    def __str__(self) -> str:
        return ".".join(_quote_name(n) for n in self.field_names)

    def to_sql(self) -> str:
        return ".".join(quote_identifier(n) for n in self.field_names)

    def to_pyarrow(self) -> pc.Expression:
        return pc.field(*self.field_names)


def _value_key(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return ("NaN",)
    if isinstance(value, list):
        return tuple(_value_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _value_key(v)) for k, v in value.items()))
    return value


@dataclass(frozen=True, eq=False)
class Literal(Expression):
    """A constant; ``value`` is None for NULL. NaN equals NaN here, so filters stay findable."""

    value: Any
    data_type: str

    def _key(self) -> tuple[Any, ...]:
        return (type(self.value) is bool, _value_key(self.value), self.data_type)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Literal) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        if self.value is None:
            return "NULL"
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        return _render_value(self.value, self.data_type)

    def to_sql(self) -> str:
        if self.value is None:
            if base_type(self.data_type) == "NULL":
                return "NULL"
            return f"CAST(NULL AS {self.data_type})"
        if isinstance(self.value, bool):
            return "TRUE" if self.value else "FALSE"
        if isinstance(self.value, float) and not math.isfinite(self.value):
            text = "NaN" if math.isnan(self.value) else ("-" if self.value < 0 else "") + "Infinity"
            return f"CAST('{text}' AS {base_type(self.data_type)})"
        return _render_value(self.value, self.data_type)

    def to_pyarrow(self) -> pc.Expression:
        return pc.scalar(self.to_arrow_scalar())

    def to_arrow_scalar(self) -> pa.Scalar:
        try:
            return pa.scalar(self.value, type=arrow_type(self.data_type))
        except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
            raise UnsupportedError(f"cannot make an Arrow scalar of {self}: {exc}") from exc


def _render_value(value: Any, data_type: str) -> str:  # noqa: PLR0911
    base = base_type(data_type)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, (bytes, bytearray)):
        return "X'" + bytes(value).hex() + "'"
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, float) and not math.isfinite(value):
        return str(encode_value(value))
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (dt.date, dt.time)):
        text = encode_value(value)
        prefix = {"TIMESTAMP_LTZ": "TIMESTAMP WITH LOCAL TIME ZONE"}.get(base, base)
        if prefix not in ("DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH LOCAL TIME ZONE"):
            prefix = "TIMESTAMP" if isinstance(value, dt.datetime) else type(value).__name__.upper()
        return f"{prefix} '{str(text).rstrip('Z')}'"
    return repr(value)


@dataclass(frozen=True)
class Call(Expression):
    """A function or operator call; ``data_type`` is the result's type."""

    function: str
    args: tuple[Expression, ...]
    data_type: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", tuple(self.args))

    def children(self) -> tuple[Expression, ...]:
        return self.args

    def __str__(self) -> str:
        inner = ", ".join(str(a) for a in self.args)
        if self.function.upper() == "CAST":
            return f"CAST({inner}, {self.data_type})"
        return f"{self.function}({inner})"

    def to_sql(self) -> str:  # noqa: PLR0911
        fn = self.function.upper()
        args = [_sql_operand(a) for a in self.args]
        if fn in _INFIX and len(args) == 2:
            return f"{args[0]} {fn} {args[1]}"
        if fn in ("AND", "OR"):
            return f" {fn} ".join(args)
        if fn == "NOT" and len(args) == 1:
            return f"NOT {args[0]}"
        if fn in _POSTFIX and len(args) == 1:
            return f"{args[0]} {fn}"
        if fn == "IN" and args:
            return f"{args[0]} IN ({', '.join(args[1:])})"
        if fn == "LIKE" and len(args) in (2, 3):
            escape = f" ESCAPE {args[2]}" if len(args) == 3 else ""
            return f"{args[0]} LIKE {args[1]}{escape}"
        if fn == "CAST" and len(args) == 1:
            return f"CAST({self.args[0].to_sql()} AS {self.data_type})"
        return f"{self.function}({', '.join(a.to_sql() for a in self.args)})"

    def to_pyarrow(self) -> pc.Expression:  # noqa: PLR0911
        fn = self.function.upper()
        n = len(self.args)
        if fn in _ARROW_COMPARE and n == 2:
            left, right = (a.to_pyarrow() for a in self.args)
            return pc.Expression._call(_ARROW_COMPARE[fn], [left, right])
        if fn in ("AND", "OR") and n >= 1:
            parts = [a.to_pyarrow() for a in self.args]
            out = parts[0]
            for part in parts[1:]:
                out = (out & part) if fn == "AND" else (out | part)  # Kleene logic
            return out
        if fn == "NOT" and n == 1:
            return ~self.args[0].to_pyarrow()
        if fn == "IS NULL" and n == 1:
            return self.args[0].to_pyarrow().is_null()
        if fn == "IS NOT NULL" and n == 1:
            return self.args[0].to_pyarrow().is_valid()
        if fn == "IN" and n >= 2:
            return _in_to_pyarrow(self.args[0], self.args[1:])
        if fn == "LIKE" and n in (2, 3):
            return _like_to_pyarrow(self.args)
        # No UPPER or LOWER: Arrow's kernels map one character to one, where SQL's (Java's) map
        # 'ß' to 'SS' and a final 'Σ' to 'ς'; such a filter stays with the engine.
        raise UnsupportedError(f"{self} has no pyarrow translation")


@functools.cache
def _null_bool() -> pc.Expression:
    """A NULL BOOLEAN; made on first use, as making a pyarrow scalar imports pandas."""
    return pc.scalar(pa.scalar(None, pa.bool_()))


def _sql_operand(expr: Expression) -> str:
    text = expr.to_sql()
    if isinstance(expr, Call) and expr.function.upper() not in ("UPPER", "LOWER", "CAST"):
        return f"({text})"
    return text


def _in_to_pyarrow(tested: Expression, items: tuple[Expression, ...]) -> pc.Expression:
    if not all(isinstance(i, Literal) for i in items):
        raise UnsupportedError("IN with non-literal items has no pyarrow translation")
    values = [i.value for i in items if isinstance(i, Literal) and i.value is not None]
    has_null = len(values) < len(items)
    typed = tested if base_type(tested.data_type) != "NULL" else items[0]
    try:
        value_set = pa.array(values, type=arrow_type(typed.data_type))
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
        raise UnsupportedError(f"cannot build the IN value set for {tested}: {exc}") from exc
    operand = tested.to_pyarrow()
    # is_in is false for a NULL operand; SQL says NULL. "false | NULL" and "true | NULL" keep
    # SQL's answer (and Parquet statistics still prune through it).
    out = operand.isin(value_set) | (operand.is_null() & _null_bool())
    if pa.types.is_floating(value_set.type) and any(v == 0 for v in values):
        # is_in hashes -0.0 and 0.0 apart; SQL's = (and Arrow's equal) holds them equal.
        out = out | (operand == pc.scalar(pa.scalar(0.0, value_set.type)))
    if has_null:  # x IN (1, NULL) is TRUE when x = 1 and NULL otherwise
        out = out | _null_bool()
    return out


def _like_to_pyarrow(args: tuple[Expression, ...]) -> pc.Expression:
    pattern, escape = args[1], args[2] if len(args) == 3 else None
    if not isinstance(pattern, Literal) or (escape is not None and not isinstance(escape, Literal)):
        raise UnsupportedError("LIKE needs a literal pattern for pyarrow")
    esc = escape.value if escape is not None else None
    if pattern.value is None or (escape is not None and esc is None):
        return _null_bool()
    if esc is not None and len(esc) != 1:
        raise UnsupportedError(f"LIKE escape must be one character: {escape}")
    return pc.Expression._call(
        "match_like",
        [args[0].to_pyarrow()],
        pc.MatchSubstringOptions(_arrow_like_pattern(str(pattern.value), esc)),
    )


def _arrow_like_pattern(pattern: str, escape: str | None) -> str:
    """SQL pattern (optional escape character) to Arrow's, where backslash always escapes."""
    out: list[str] = []
    chars = iter(pattern)
    for ch in chars:
        if escape is not None and ch == escape:
            nxt = next(chars, None)
            if nxt is None:
                raise UnsupportedError(f"LIKE pattern {pattern!r} ends with its escape character")
            out.append("\\" + nxt)
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


# --- types -------------------------------------------------------------------------------------


def arrow_type(data_type: str) -> pa.DataType:
    """The Arrow type of a SQL type string (``_types.sql_to_arrow``)."""
    return sql_to_arrow(data_type)


# --- JSON --------------------------------------------------------------------------------------


def to_json(expr: Expression) -> dict[str, Any]:
    """The JSON-ready dict of ``expr`` (the wire format shared with the JVM)."""
    if isinstance(expr, FieldReference):
        return {
            "kind": "field",
            "name": expr.name,
            "type": expr.data_type,
            "input_index": expr.input_index,
            "field_index": expr.field_index,
        }
    if isinstance(expr, NestedFieldReference):
        return {
            "kind": "nested",
            "names": list(expr.field_names),
            "indices": list(expr.field_indices),
            "type": expr.data_type,
            "input_index": expr.input_index,
        }
    if isinstance(expr, Literal):
        value = encode_value(expr.value)
        return {"kind": "literal", "value": value, "type": expr.data_type}
    if isinstance(expr, Call):
        args = [to_json(a) for a in expr.args]
        return {"kind": "call", "function": expr.function, "args": args, "type": expr.data_type}
    raise TypeError(f"not an expression: {expr!r}")


def from_json(obj: dict[str, Any] | str) -> Expression:
    """Decodes one expression from its dict (or JSON text)."""
    if isinstance(obj, str):
        obj = json.loads(obj)
    if not isinstance(obj, dict):
        raise ValueError(f"an expression is a JSON object, not {obj!r}")
    kind = obj.get("kind")
    if kind == "field":
        return FieldReference(
            obj["name"], obj["type"], int(obj.get("input_index", 0)), int(obj.get("field_index", 0))
        )
    if kind == "nested":
        return NestedFieldReference(
            tuple(obj["names"]), tuple(obj["indices"]), obj["type"], int(obj.get("input_index", 0))
        )
    if kind == "literal":
        return Literal(decode_value(obj.get("value"), obj["type"]), obj["type"])
    if kind == "call":
        args = tuple(from_json(a) for a in obj.get("args", []))
        return Call(obj["function"], args, obj["type"])
    raise ValueError(f"unknown expression kind {kind!r} in {obj!r}")


# --- helpers -----------------------------------------------------------------------------------


def references(expr: Expression) -> set[tuple[str, ...]]:
    """Every field path ``expr`` reads, as tuples of names (top level first)."""
    paths: set[tuple[str, ...]] = set()
    for node in expr.walk():
        if isinstance(node, FieldReference):
            paths.add((node.name,))
        elif isinstance(node, NestedFieldReference):
            paths.add(node.field_names)
    return paths


def is_nested(expr: Expression) -> bool:
    """Whether ``expr`` holds a ``NestedFieldReference``."""
    return any(isinstance(node, NestedFieldReference) for node in expr.walk())
