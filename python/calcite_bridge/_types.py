"""SQL type strings (as the DDL writes them): their base type, and Arrow types and back."""

from __future__ import annotations

import functools
import re

import pyarrow as pa

from calcite_bridge._sql import quote_identifier

__all__ = ["arrow_to_sql", "base_type", "scalar_to_arrow", "sql_to_arrow"]

_TOKEN = re.compile(r"\s*(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*|\d+|[<>(),:])")


def base_type(data_type: str) -> str:
    """``DECIMAL(10, 2) NOT NULL`` -> ``DECIMAL``; ``TIMESTAMP(3) WITH LOCAL TIME ZONE`` ->
    ``TIMESTAMP_LTZ``; ``ROW<a INT>`` -> ``ROW``."""
    text = data_type.strip().upper()
    head = re.split(r"[(<\s]", text, maxsplit=1)[0]
    if head == "TIMESTAMP" and "WITH LOCAL TIME ZONE" in text:
        return "TIMESTAMP_LTZ"
    return {"INTEGER": "INT", "REAL": "FLOAT", "BYTES": "VARBINARY"}.get(head, head)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                if text[pos:].strip():
                    raise ValueError(f"cannot parse type {text!r} at {pos}")
                break
            self.tokens.append(m.group(1))
            pos = m.end()
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok.upper() != expected):
            raise ValueError(f"cannot parse type {self.text!r}: expected {expected or 'more'}")
        self.i += 1
        return tok

    def accept(self, *words: str) -> bool:
        save = self.i
        for w in words:
            tok = self.peek()
            if tok is None or tok.upper() != w:
                self.i = save
                return False
            self.i += 1
        return True

    def nullable(self) -> bool:
        if self.accept("NOT", "NULL"):
            return False
        self.accept("NULL")
        return True

    def params(self) -> list[int]:
        if not self.accept("("):
            return []
        out = [int(self.take())]
        while self.accept(","):
            out.append(int(self.take()))
        self.take(")")
        return out

    def type(self) -> pa.DataType:
        word = self.take().upper()
        if word in ("ROW", "STRUCT"):
            close = ">" if self.accept("<") else ")" if self.accept("(") else None
            if close is None:
                raise ValueError(f"cannot parse type {self.text!r}: ROW needs fields")
            fields: list[pa.Field] = []
            while not self.accept(close):
                if fields:
                    self.take(",")
                name = self.take()
                if name.startswith("`"):
                    name = name[1:-1].replace("``", "`")
                self.accept(":")
                child = self.type()
                fields.append(pa.field(name, child, nullable=self.nullable()))
            return pa.struct(fields)
        if word == "ARRAY":
            self.take("<")
            item = self.type()
            item_nullable = self.nullable()
            self.take(">")
            return pa.list_(pa.field("item", item, nullable=item_nullable))
        if word == "MAP":
            self.take("<")
            key = self.type()
            self.nullable()
            self.take(",")
            value = self.type()
            value_nullable = self.nullable()
            self.take(">")
            return pa.map_(key, pa.field("value", value, nullable=value_nullable))
        if word == "CHARACTER" and self.accept("VARYING"):
            word = "VARCHAR"
        self.accept("PRECISION")  # DOUBLE PRECISION
        params = self.params()
        text = word + (f"({', '.join(map(str, params))})" if params else "")
        if word == "TIMESTAMP" and self.accept("WITH", "LOCAL", "TIME", "ZONE"):
            text = "TIMESTAMP_LTZ" + text[len("TIMESTAMP") :]
        elif word in ("TIMESTAMP", "TIME"):
            self.accept("WITHOUT", "TIME", "ZONE")
        return scalar_to_arrow(text)


def _params(data_type: str) -> list[int]:
    m = re.match(r"\s*[A-Za-z_]+\s*\(([^)]*)\)", data_type)
    return [int(p) for p in m.group(1).split(",")] if m else []


def _time_unit(precision: int) -> str:
    return "s" if precision == 0 else "ms" if precision <= 3 else "us" if precision <= 6 else "ns"


def scalar_to_arrow(data_type: str) -> pa.DataType:
    """The Arrow type of a scalar SQL type string (no ROW, ARRAY or MAP)."""
    base, params = base_type(data_type), _params(data_type)
    simple = {
        "NULL": pa.null(),
        "BOOLEAN": pa.bool_(),
        "TINYINT": pa.int8(),
        "SMALLINT": pa.int16(),
        "INT": pa.int32(),
        "BIGINT": pa.int64(),
        "FLOAT": pa.float32(),
        "DOUBLE": pa.float64(),
        "CHAR": pa.string(),
        "VARCHAR": pa.string(),
        "STRING": pa.string(),
        "BINARY": pa.binary(),
        "VARBINARY": pa.binary(),
        "DATE": pa.date32(),
    }
    if base in simple:
        return simple[base]
    if base == "DECIMAL":
        precision, scale = (params + [10, 0][len(params) :])[:2]
        decimal_type = pa.decimal128 if precision <= 38 else pa.decimal256
        return decimal_type(precision, scale)
    if base == "TIME":
        unit = _time_unit(params[0] if params else 0)
        return pa.time32(unit) if unit in ("s", "ms") else pa.time64(unit)
    if base in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = _time_unit(params[0] if params else 6)
        return pa.timestamp(unit, tz="UTC" if base == "TIMESTAMP_LTZ" else None)
    raise ValueError(f"unknown SQL type {data_type!r}")


@functools.lru_cache(maxsize=1024)
def sql_to_arrow(data_type: str) -> pa.DataType:
    """``ROW<a INT, b ARRAY<STRING>> NOT NULL`` -> the Arrow type (nullability is dropped).
    Kept per text: a source's filters are converted again on each run of a plan with
    parameters, with the same types each time."""
    parser = _Parser(data_type)
    out = parser.type()
    parser.nullable()
    if parser.peek() is not None:
        raise ValueError(f"cannot parse type {data_type!r}: unexpected {parser.peek()!r}")
    return out


def _precision(unit: str) -> int:
    return {"s": 0, "ms": 3, "us": 6, "ns": 9}[unit]


def arrow_to_sql(arrow: pa.DataType, nullable: bool = True) -> str:  # noqa: PLR0911
    """The DDL type string of an Arrow type, e.g. ``ROW<a INT, b STRING NOT NULL>``."""
    t = pa.types
    suffix = "" if nullable else " NOT NULL"
    simple = [
        (t.is_null, "NULL"),
        (t.is_boolean, "BOOLEAN"),
        (t.is_int8, "TINYINT"),
        (t.is_int16, "SMALLINT"),
        (t.is_uint8, "SMALLINT"),
        (t.is_int32, "INT"),
        (t.is_uint16, "INT"),
        (t.is_int64, "BIGINT"),
        (t.is_uint32, "BIGINT"),
        (t.is_uint64, "DECIMAL(20, 0)"),
        (t.is_float16, "FLOAT"),
        (t.is_float32, "FLOAT"),
        (t.is_float64, "DOUBLE"),
        (lambda x: t.is_string(x) or t.is_large_string(x), "STRING"),
        (lambda x: t.is_binary(x) or t.is_large_binary(x), "BYTES"),
        (t.is_date, "DATE"),
    ]
    for test, name in simple:
        if test(arrow):
            return name + suffix
    if str(arrow) == "string_view":
        return "STRING" + suffix
    if str(arrow) == "binary_view" or t.is_fixed_size_binary(arrow):
        return "BYTES" + suffix
    if t.is_decimal(arrow):
        return f"DECIMAL({arrow.precision}, {arrow.scale}){suffix}"
    if t.is_time(arrow):
        return f"TIME({_precision(arrow.unit)}){suffix}"
    if t.is_timestamp(arrow):
        kind = "TIMESTAMP_LTZ" if arrow.tz is not None else "TIMESTAMP"
        return f"{kind}({_precision(arrow.unit)}){suffix}"
    if t.is_struct(arrow):
        inner = ", ".join(
            f"{quote_identifier(f.name, if_needed=True)} {arrow_to_sql(f.type, f.nullable)}"
            for f in arrow
        )
        return f"ROW<{inner}>{suffix}"
    if t.is_map(arrow):
        key = arrow_to_sql(arrow.key_type, False).removesuffix(" NOT NULL")
        value = arrow_to_sql(arrow.item_field.type, arrow.item_field.nullable)
        return f"MAP<{key}, {value}>{suffix}"
    if t.is_list(arrow) or t.is_large_list(arrow) or t.is_fixed_size_list(arrow):
        item = arrow.value_field
        return f"ARRAY<{arrow_to_sql(item.type, item.nullable)}>{suffix}"
    if t.is_dictionary(arrow):
        return arrow_to_sql(arrow.value_type, nullable)
    raise ValueError(f"no SQL type for Arrow type {arrow}")
