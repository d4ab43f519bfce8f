"""TIME, TIMESTAMP and TIMESTAMP_LTZ values of CSV and JSON-lines files, read as Flink's ``csv``
and ``json`` formats read them: a fraction of a second finer than the column's type keeps is cut
off (never rounded), whatever its number of digits up to 9.

Flink 2.3 reads ``01:02:03.123456789`` into a ``TIME(3)`` column as ``01:02:03.123`` and
``2024-01-02 23:59:59.9999`` into a ``TIMESTAMP(3)`` as ``2024-01-02 23:59:59.999``. Its csv
format cuts a ``TIME(0)`` to ``01:02:03``; its json format keeps the milliseconds of a
``TIME(0)``, which its cast to STRING does not show but a comparison or a cast to ``TIME(3)``
does (here too: a TIME column's Arrow type holds milliseconds, whatever its precision).
pyarrow's readers refuse a fraction finer than the column's unit ("invalid value"), so these
columns are read as text and converted here: the digits past the unit cut from the text
(:func:`cut_fraction`), then parsed by pyarrow's own grammar of the unit.

- CSV (:func:`csv_time`, :func:`csv_timestamp`): a TIME ``HH:mm``, ``HH:mm:ss`` or
  ``HH:mm:ss.f`` (1 to 9 digits), as Flink's ``LocalTime.parse``; a TIMESTAMP as pyarrow's CSV
  reader takes it (ISO 8601, a ``T`` or a space; no zone for a TIMESTAMP, a zone for a
  TIMESTAMP_LTZ).
- JSON (:func:`json_time`, :func:`json_timestamp`): a TIME ``HH:mm:ss`` with an optional
  fraction, as Flink's ``json`` format; a TIMESTAMP as pyarrow's JSON reader takes it (a zone,
  when there is one, moves the value to UTC; none is needed for a TIMESTAMP_LTZ).

A value that does not parse fails the read with ``SourceError`` naming it, its column and file.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from calcite_bridge.errors import SourceError

__all__ = [
    "csv_time",
    "csv_timestamp",
    "cut_fraction",
    "is_temporal",
    "json_time",
    "json_timestamp",
]

_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}
_HOURS = "([01][0-9]|2[0-3]):[0-5][0-9]"
_CSV_TIME = rf"^{_HOURS}(:[0-5][0-9](\.[0-9]{{1,9}})?)?$"
_JSON_TIME = rf"^{_HOURS}:[0-5][0-9](\.[0-9]{{1,9}})?$"
# A zone after the time of day: Z, +hh, +hhmm or +hh:mm.
_ZONE = r"[T ][0-9:.]+(Z|[+-][0-9]{2}(:?[0-9]{2})?)$"


def is_temporal(t: pa.DataType) -> bool:
    """Whether a column of type ``t`` is read as text and converted here."""
    return bool(pa.types.is_time(t) or pa.types.is_timestamp(t))


def cut_fraction(values: pa.Array, digits: int) -> pa.Array:
    """``values`` (text) with the fraction of each second cut to ``digits`` digits: of 9 digits
    at most, those past ``digits`` dropped (none when ``digits`` is 0); a longer fraction keeps
    its tenth digit on, for the parse to refuse."""
    if digits >= 9:
        return values
    if digits == 0:
        return pc.replace_substring_regex(values, r"(:[0-9]{2})\.[0-9]{1,9}", r"\1")
    return pc.replace_substring_regex(
        values, rf"(:[0-9]{{2}}\.[0-9]{{1,{digits}}})[0-9]{{0,{9 - digits}}}", r"\1"
    )


def _refuse(values: pa.Array, good: pa.Array, what: str, column: str, path: str) -> SourceError:
    bad = pc.filter(values, pc.invert(pc.fill_null(good, True)))
    value = bad[0].as_py() if len(bad) else None
    return SourceError(f"cannot read {value!r} in column {column} of {path} as {what}")


def _time(
    values: pa.Array,
    t: pa.DataType,
    pattern: str,
    shown: str,
    column: str,
    path: str,
    digits: int | None = None,
) -> pa.Array:
    good = pc.match_substring_regex(values, pattern)
    if not pc.all(pc.fill_null(good, True)).as_py():
        raise _refuse(values, good, f"a TIME ({shown})", column, path)
    unit = _DIGITS[t.unit]
    text = cut_fraction(values, unit if digits is None else min(digits, unit))
    stamps = pc.cast(pc.binary_join_element_wise("1970-01-01", text, "T"), pa.timestamp(t.unit))
    ticks = pc.cast(stamps, pa.int64())
    return pc.cast(ticks if t.bit_width == 64 else pc.cast(ticks, pa.int32()), t)


def csv_time(
    values: pa.Array, t: pa.DataType, column: str, path: str, digits: int | None = None
) -> pa.Array:
    """The text ``values`` of a CSV file's TIME column as an array of ``t`` (see the module),
    the fraction cut to ``digits`` digits when given (a ``TIME(p)``, ``p < 3``, whose Arrow type
    holds milliseconds), as Flink's csv format cuts it."""
    return _time(values, t, _CSV_TIME, "HH:mm[:ss[.fraction]]", column, path, digits)


def json_time(values: pa.Array, t: pa.DataType, column: str, path: str) -> pa.Array:
    """The text ``values`` of a JSON file's TIME field as an array of ``t`` (see the module)."""
    return _time(values, t, _JSON_TIME, "HH:mm:ss[.fraction]", column, path)


def _parsed(text: pa.Array, t: pa.DataType, values: pa.Array, column: str, path: str) -> pa.Array:
    try:
        return pc.cast(text, t)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        pass
    good = []
    for v in text.to_pylist():  # only when a value is refused: which one
        try:
            pc.cast(pa.array([v], pa.string()), t)
            good.append(True)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            good.append(False)
    kind = "TIMESTAMP_LTZ" if t.tz is not None else "TIMESTAMP"
    raise _refuse(values, pa.array(good, pa.bool_()), f"a {kind}", column, path)


def csv_timestamp(values: pa.Array, t: pa.DataType, column: str, path: str) -> pa.Array:
    """The text ``values`` of a CSV file's TIMESTAMP or TIMESTAMP_LTZ column as an array of
    ``t`` (see the module)."""
    return _parsed(cut_fraction(values, _DIGITS[t.unit]), t, values, column, path)


def json_timestamp(values: pa.Array, t: pa.DataType, column: str, path: str) -> pa.Array:
    """The text ``values`` of a JSON file's TIMESTAMP or TIMESTAMP_LTZ field as an array of
    ``t`` (see the module): a value with a zone at that instant, one without at that time in
    UTC, as pyarrow's JSON reader reads either into either type."""
    text = cut_fraction(values, _DIGITS[t.unit])
    zoned = pc.match_substring_regex(text, _ZONE)
    if not pc.all(pc.fill_null(zoned, True)).as_py():
        text = pc.if_else(zoned, text, pc.binary_join_element_wise(text, "Z", ""))
    return pc.cast(_parsed(text, pa.timestamp(t.unit, tz="UTC"), values, column, path), t)
