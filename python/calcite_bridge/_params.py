"""Query parameters on the wire: each value of a statement's ``?`` placeholders as a typed JSON
item, which the JVM turns into a literal node of the parsed statement (``statement/Parameters``).
A value never becomes SQL text, so it cannot change the statement. Values that are all None,
bool, int (of 64 bits), float or str also travel as they are, an array of Java scalars, to the
run of a cached plan (``Values.scalars``): no JSON is written or read for them.

Python types map as results come back: None (NULL), bool (BOOLEAN), int (INT, BIGINT or DECIMAL
as a literal of it would be), float (DOUBLE), Decimal (DECIMAL), str (STRING), bytes (BYTES),
date (DATE), time (TIME), datetime (TIMESTAMP, or TIMESTAMP_LTZ with a zone), timedelta
(INTERVAL DAY TO SECOND), list (ARRAY), dict (MAP), tuple (ROW); a NumPy scalar as its Python
value, a NumPy array as a list, pandas' ``NaT`` and ``NA`` as None. Any other value is sent as
unbindable, and the statement fails at its placeholder.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["Values", "encode_parameters"]

_LONG = 1 << 63


class Values:
    """The values of a statement's ``?`` placeholders, in order, as the JVM takes them."""

    __slots__ = ("_json", "scalars", "values")

    def __init__(self, values: list[Any]) -> None:
        self.values = values
        self._json: str | None = None
        # The values as they are, when JPype makes each a Java scalar the JVM binds as its JSON
        # item would be bound: None, bool, int of 64 bits, float, str without lone surrogates.
        self.scalars: list[Any] | None = values if all(map(_scalar, values)) else None

    @property
    def json(self) -> str:
        """The values as the JSON list the JVM binds (``statement/Parameters.fromJson``)."""
        if self._json is None:
            self._json = json.dumps([_item(v) for v in self.values], ensure_ascii=False)
        return self._json

    def for_backend(self, order: Sequence[int]) -> list[Any]:
        """The values for a backend's prepared statement: value ``order[i]`` for its ``i``-th
        ``?``. Only the types a plan kept for any values binds come here (BOOLEAN, INTEGER,
        DECIMAL, DOUBLE, STRING, DATE, TIMESTAMP)."""
        if self.scalars is not None:
            return [self.scalars[i] for i in order]
        items = json.loads(self.json)
        return [_value(items[i]) for i in order]


def _scalar(value: Any) -> bool:
    kind = type(value)
    if kind is int:
        return bool(-_LONG <= value < _LONG)
    if kind is str:
        return value.isascii() or not _surrogates(value)
    return value is None or kind is bool or kind is float


def _surrogates(value: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in value)


def encode_parameters(params: Sequence[Any] | None) -> Values | None:
    """``params`` as the JVM binds them, or None for a statement without them."""
    if params is None:
        return None
    if isinstance(params, str | bytes | bytearray | Mapping) or not isinstance(params, Sequence):
        raise TypeError(
            "params must be a sequence (list or tuple) of values for the ? placeholders, in order;"
            f" got {type(params).__name__}"
        )
    return Values(list(params))


def _missing(value: Any) -> bool:
    """Whether ``value`` is pandas' missing value, ``pd.NaT`` (a datetime whose text is 'NaT')
    or ``pd.NA``: a NULL."""
    kind = type(value)
    return kind.__module__.startswith("pandas") and kind.__name__ in ("NaTType", "NAType")


def _item(value: Any) -> dict[str, Any]:  # noqa: PLR0911, PLR0912
    if value is None or _missing(value):
        return {"t": "NULL"}
    if isinstance(value, bool):
        return {"t": "BOOLEAN", "v": value}
    if isinstance(value, int):
        return {"t": "INTEGER", "v": str(int(value))}
    if isinstance(value, float):
        if math.isnan(value):
            return {"t": "DOUBLE", "v": "NaN"}
        if math.isinf(value):
            return {"t": "DOUBLE", "v": "Infinity" if value > 0 else "-Infinity"}
        # float's own repr: a subclass's (numpy.float64's) spells the type around the number.
        return {"t": "DOUBLE", "v": float.__repr__(value)}
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return _unbindable(value, f"the decimal {value} is not a number SQL's DECIMAL holds")
        return {"t": "DECIMAL", "v": format(value, "f")}
    if isinstance(value, str):
        if _surrogates(value):
            return _unbindable(
                value, "the string holds a lone surrogate, which is not Unicode text"
            )
        return {"t": "STRING", "v": value}
    if isinstance(value, bytes | bytearray | memoryview):
        return {"t": "BYTES", "v": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            utc = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
            return {"t": "TIMESTAMP_LTZ", "v": utc.isoformat() + "Z"}
        return {"t": "TIMESTAMP", "v": value.replace(tzinfo=None).isoformat()}
    if isinstance(value, dt.date):
        return {"t": "DATE", "v": value.isoformat()}
    if isinstance(value, dt.time):
        if value.tzinfo is not None:
            return _unbindable(value, "a time of day with a zone has no SQL type")
        return {"t": "TIME", "v": value.isoformat()}
    if isinstance(value, dt.timedelta):
        micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
        return {"t": "INTERVAL", "v": str(micros)}
    if isinstance(value, tuple):
        return {"t": "ROW", "v": [_item(v) for v in value]}
    if isinstance(value, list):
        return {"t": "ARRAY", "v": [_item(v) for v in value]}
    if isinstance(value, Mapping):
        return {"t": "MAP", "v": [[_item(k), _item(v)] for k, v in value.items()]}
    if type(value).__module__ == "numpy":
        if getattr(value, "ndim", 0):  # an array of NumPy: an ARRAY of its values
            return _item(value.tolist())
        item = getattr(value, "item", None)  # a NumPy scalar: its Python value
        if callable(item):
            return _item(item())
    return _unbindable(value, f"a value of Python type {type(value).__name__} has no SQL type")


def _unbindable(value: Any, why: str) -> dict[str, Any]:
    return {"t": "UNBINDABLE", "v": why}


_FROM_TEXT: dict[str, Any] = {
    "INTEGER": int,
    "DECIMAL": decimal.Decimal,
    "DOUBLE": float,
    "DATE": dt.date.fromisoformat,
    "TIMESTAMP": dt.datetime.fromisoformat,
    "STRING": str,
}


def _value(item: dict[str, Any]) -> Any:
    t, v = str(item["t"]), item.get("v")
    if t == "NULL" or v is None:
        return None
    if t == "BOOLEAN":
        return bool(v)
    return _FROM_TEXT[t](str(v))
