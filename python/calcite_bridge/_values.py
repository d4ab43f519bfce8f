"""Literal values on the wire: JSON encodings by SQL type (see ``expressions.to_json``)."""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import math
import re
from typing import Any

from calcite_bridge._types import base_type

__all__ = ["decode_value", "encode_value"]


_INTS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_STRINGS = ("CHAR", "VARCHAR", "STRING")
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$")


def _parse_time(text: str) -> dt.time:
    m = _CLOCK.match(text.strip())
    if not m:
        raise ValueError(f"not a TIME literal: {text!r}")
    h, mi, s, frac = m.groups()
    micro = int((frac or "0")[:6].ljust(6, "0"))
    return dt.time(int(h), int(mi), int(s or 0), micro)


def _format_time(t: dt.time) -> str:
    text = f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}"
    if t.microsecond % 1000 == 0:
        return text + (f".{t.microsecond // 1000:03d}" if t.microsecond else "")
    return text + f".{t.microsecond:06d}"


def decode_value(value: Any, data_type: str) -> Any:  # noqa: PLR0911
    if value is None:
        return None
    base = base_type(data_type)
    if base == "BOOLEAN":
        return bool(value)
    if base in _INTS:
        return int(value)
    if base in ("FLOAT", "DOUBLE"):
        return float(value)  # float("NaN"), float("Infinity") cover the non-finite strings
    if base == "DECIMAL":
        return decimal.Decimal(str(value))
    if base in _STRINGS:
        return str(value)
    if base in ("BINARY", "VARBINARY"):
        return base64.b64decode(value)
    if base == "DATE":
        return dt.date.fromisoformat(value)
    if base == "TIME":
        return _parse_time(value)
    if base in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        text = str(value).strip().replace("T", " ")
        aware = text.endswith(("Z", "z"))
        day, _, clock = text.rstrip("Zz").partition(" ")
        stamp = dt.datetime.combine(dt.date.fromisoformat(day), _parse_time(clock or "00:00"))
        return stamp.replace(tzinfo=dt.timezone.utc) if aware or base == "TIMESTAMP_LTZ" else stamp
    return value


def encode_value(value: Any) -> Any:  # noqa: PLR0911
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
            return f"{value.date().isoformat()} {_format_time(value.time())}Z"
        return f"{value.date().isoformat()} {_format_time(value.time())}"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return _format_time(value)
    return value
