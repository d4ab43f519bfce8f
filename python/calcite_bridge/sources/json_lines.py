"""DATE and TIME values of JSON-lines files, read and written as Flink's ``json`` format has them.

Flink writes (and reads) a DATE as ``"2024-01-02"``, a TIME as ``"12:34:56"`` and a TIMESTAMP as
``"2024-01-02 12:34:56.123"`` (``'json.timestamp-format.standard' = 'SQL'``: the fraction
without trailing zeros, none when it is zero; a TIMESTAMP_LTZ in UTC with a trailing ``Z``).
pyarrow's JSON reader parses a ``date32`` or ``time`` field only from a number, and fails on
the string ("changed from number to string"), and a TIMESTAMP only with at most the digits of
its unit. So those fields (also inside a ROW or an ARRAY) are parsed as strings
(:func:`read_schema`), and each batch is converted to the declared types (:func:`convert_batch`):
a DATE from ``yyyy-MM-dd`` exactly, a TIME from ``HH:mm:ss`` and a TIMESTAMP as pyarrow reads
it, each with a fraction of up to 9 digits cut to the type's, as Flink reads them
(:mod:`~.sources.temporal_text`); NULL or a missing field as NULL, any other value refused with
``SourceError``. The request's filters, columns and limit are applied to the converted rows
(:func:`scan_converted`), so that a pushed filter compares DATE with DATE.

Flink writes a MAP as a JSON object, its keys as text. pyarrow's JSON reader has no map type, so
a file of a table with a MAP column is read line by line first, each such object rewritten as a
list of ``{"key": ..., "value": ...}`` objects (:func:`_pairs`), which pyarrow parses as a list
of structs, then converted to the MAP, its keys cast from text to the key type. INSERT writes a
MAP as an object (:func:`json_rows`).
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from calcite_bridge.errors import SourceError
from calcite_bridge.sources.arrow import combined_filter, limited, projected_columns
from calcite_bridge.sources.base import ScanRequest
from calcite_bridge.sources.temporal_text import is_temporal, json_time, json_timestamp

if TYPE_CHECKING:
    import pyarrow.dataset as ds

__all__ = ["convert_batch", "json_default", "json_rows", "read_schema", "scan_converted"]


def _read_type(t: pa.DataType) -> pa.DataType:
    """The type pyarrow's JSON reader parses for a field of type ``t``: a string for DATE,
    TIME and TIMESTAMP, wherever they are nested."""
    if pa.types.is_date32(t) or is_temporal(t):
        return pa.string()
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_read_type(f.type)) for f in t])
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_read_type(t.value_type)))
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(_read_type(t.value_type)))
    if pa.types.is_map(t):
        return pa.list_(pa.struct([("key", pa.string()), ("value", _read_type(t.item_type))]))
    return t


def _has_map(t: pa.DataType) -> bool:
    if pa.types.is_map(t):
        return True
    if pa.types.is_struct(t):
        return any(_has_map(f.type) for f in t)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _has_map(t.value_type)
    return False


def read_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` as pyarrow's JSON reader is to parse it (see the module)."""
    return pa.schema([f.with_type(_read_type(f.type)) for f in schema], metadata=schema.metadata)


def _refuse(values: pa.Array, good: pa.Array, what: str, column: str, path: str) -> SourceError:
    bad = pc.filter(values, pc.invert(pc.fill_null(good, True)))
    value = bad[0].as_py() if len(bad) else None
    return SourceError(f"cannot read {value!r} in column {column} of {path} as {what}")


def _date(values: pa.Array, column: str, path: str) -> pa.Array:
    try:
        return pc.cast(values, pa.date32())
    except pa.ArrowInvalid:
        pass
    good = pa.array(
        [v is None or _is_date(v) for v in values.to_pylist()], type=pa.bool_()
    )  # only when a value is refused
    raise _refuse(values, good, "a DATE (yyyy-MM-dd)", column, path)


def _is_date(text: str) -> bool:
    try:
        pa.scalar(text).cast(pa.date32())
    except pa.ArrowInvalid:
        return False
    return True


def _convert(values: pa.Array, t: pa.DataType, column: str, path: str) -> pa.Array:
    """``values`` (parsed as :func:`_read_type` of ``t``) as an array of ``t``."""
    if values.type == t:
        return values
    if pa.types.is_date32(t):
        return _date(values, column, path)
    if pa.types.is_time(t):
        return json_time(values, t, column, path)
    if pa.types.is_timestamp(t):
        return json_timestamp(values, t, column, path)
    if pa.types.is_nested(t):
        return _nested(values, t, column, path)
    return values.cast(t)


def _nested(values: pa.Array, t: pa.DataType, column: str, path: str) -> pa.Array:
    """:func:`_convert` of a ROW, a MAP (parsed as a list of key-value structs, :func:`_pairs`,
    its keys cast from text) or an ARRAY."""
    mask = values.is_null() if values.null_count else None
    if pa.types.is_struct(t):
        children = [
            _convert(values.field(i), f.type, f"{column}.{f.name}", path) for i, f in enumerate(t)
        ]
        return pa.StructArray.from_arrays(children, fields=list(t), mask=mask)
    if pa.types.is_map(t):
        pairs = values.values
        try:
            keys = pairs.field("key").cast(t.key_type)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise SourceError(
                f"cannot read a key of column {column} of {path} as {t.key_type}: {exc}"
            ) from None
        items = _convert(pairs.field("value"), t.item_type, f"{column} value", path)
        return pa.MapArray.from_arrays(values.offsets, keys, items, type=t, mask=mask)
    kind = pa.LargeListArray if pa.types.is_large_list(t) else pa.ListArray
    items = _convert(values.values, t.value_type, column, path)
    return kind.from_arrays(values.offsets, items, type=t, mask=mask)


def convert_batch(batch: pa.RecordBatch, schema: pa.Schema, path: str) -> pa.RecordBatch:
    """``batch`` of the file at ``path``, parsed as :func:`read_schema` of ``schema``, with the
    types of ``schema``."""
    columns = [_convert(batch.column(i), f.type, f.name, path) for i, f in enumerate(schema)]
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def scan_converted(
    dataset: ds.Dataset,
    schema: pa.Schema,
    request: ScanRequest,
    metadata: Sequence[pa.Field] = (),
    metadata_values: Callable[[Any], list[pa.Scalar]] | None = None,
    convert: Callable[[pa.RecordBatch, pa.Schema, str], pa.RecordBatch] = convert_batch,
) -> pa.RecordBatchReader:
    """Reads ``dataset`` (of :func:`read_schema` of ``schema``) as ``request`` asks: each file's
    rows converted to ``schema`` (by ``convert``, :func:`convert_batch` unless given), then
    filtered, projected and cut to the limit, the ``metadata`` fields appended
    (``metadata_values(fragment)`` gives their values)."""
    import pyarrow.dataset as ds  # here: it imports pandas

    columns = projected_columns(schema, request)
    flt = combined_filter(request.filters)
    empty = ds.Scanner.from_batches(iter(()), schema=schema, columns=columns, filter=flt)
    out_schema = pa.schema([*empty.projected_schema, *metadata])

    maps = any(_has_map(f.type) for f in schema)

    def batches() -> Iterator[pa.RecordBatch]:
        for fragment in dataset.get_fragments():
            values = metadata_values(fragment) if metadata and metadata_values else []
            if maps:
                read = _read_with_maps(fragment.path, dataset.schema, schema)
            else:
                read = ds.Scanner.from_fragment(fragment, schema=dataset.schema).to_batches()
            converted = (convert(b, schema, fragment.path) for b in read)
            scanner = ds.Scanner.from_batches(converted, schema=schema, columns=columns, filter=flt)
            for batch in scanner.to_batches():
                if not metadata:
                    yield batch  # of no columns too: its row count is its length
                    continue
                extra = [
                    pa.repeat(v.cast(f.type), batch.num_rows)
                    for v, f in zip(values, metadata, strict=True)
                ]
                yield pa.RecordBatch.from_arrays([*batch.columns, *extra], schema=out_schema)

    return pa.RecordBatchReader.from_batches(out_schema, limited(batches(), request.limit))


def _read_with_maps(path: str, parsed: pa.Schema, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    """The batches of the JSON-lines file at ``path`` as pyarrow parses them with ``parsed``
    (:func:`read_schema` of ``schema``), the MAP objects of each line rewritten first."""
    import json

    import pyarrow.json as pjson

    with pa.input_stream(path) as stream:
        text = stream.read()
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:  # pyarrow reads it, or says why it cannot
            lines.append(line)
            continue
        if isinstance(row, dict):
            for f in schema:
                if f.name in row and _has_map(f.type):
                    where = f"column {f.name} of {path}, line {number}"
                    row[f.name] = _pairs(row[f.name], f.type, where)
        lines.append(json.dumps(row).encode("utf-8"))
    if not lines:
        return iter(())
    options = pjson.ParseOptions(explicit_schema=parsed, unexpected_field_behavior="infer")
    try:
        table = pjson.read_json(pa.py_buffer(b"\n".join(lines)), parse_options=options)
    except pa.ArrowInvalid as exc:
        raise SourceError(f"cannot read JSON file {path}: {exc}") from None
    return iter(table.to_batches())


def _pairs(value: Any, t: pa.DataType, where: str) -> Any:
    """``value``, a JSON value of type ``t``, with each MAP object in it as a list of key-value
    objects; NULL stays NULL."""
    if value is None:
        return None
    if pa.types.is_map(t):
        if not isinstance(value, dict):
            raise SourceError(f"cannot read {value!r} in {where} as {t}: not a JSON object")
        return [{"key": k, "value": _pairs(v, t.item_type, where)} for k, v in value.items()]
    if pa.types.is_struct(t) and isinstance(value, dict):
        return {
            k: (_pairs(v, t.field(k).type, where) if t.get_field_index(k) >= 0 else v)
            for k, v in value.items()
        }
    if (pa.types.is_list(t) or pa.types.is_large_list(t)) and isinstance(value, list):
        return [_pairs(v, t.value_type, where) for v in value]
    return value


def json_rows(table: pa.Table) -> Iterator[bytes]:
    """The rows of ``table`` as JSON lines, as Flink's ``json`` format writes them: a MAP as an
    object whose keys are text (a key that JSON cannot hold as text is refused), a DECIMAL as a
    number of its scale's digits (``12.30``)."""
    import json
    import secrets

    # json.dumps writes no Decimal as a number: it writes each as text between two marks of this
    # call, which are then taken out with the quotes around them.
    mark = secrets.token_hex(8)
    quoted = (f'"{mark}', f'{mark}"')

    def default(value: Any) -> Any:
        if isinstance(value, decimal.Decimal) and value.is_finite():
            return f"{mark}{value:f}{mark}"
        return _default(value)

    for row in table.to_pylist(maps_as_pydicts="lossy"):
        try:
            text = json.dumps(row, default=default)
        except TypeError as exc:
            raise SourceError(f"cannot write a row as JSON: {exc}") from None
        if mark in text:
            text = text.replace(quoted[0], "").replace(quoted[1], "")
        yield text.encode("utf-8") + b"\n"


_FRACTION = re.compile(r"(\.\d*?)0+$")


def _trimmed(text: str) -> str:
    """``HH:MM:SS[.ffffff]`` with the fraction's trailing zeros dropped (no point when zero)."""
    text = _FRACTION.sub(r"\1", text)
    return text[:-1] if text.endswith(".") else text


def _default(value: Any) -> Any:
    """A value ``json.dumps`` cannot write itself, as Flink's ``json`` format writes it: a DATE,
    TIME or TIMESTAMP as text (see the module), BYTES in base64."""
    written = json_default(value)
    if written is not None:
        return written
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def json_default(value: Any) -> Any:
    """The JSON value of a DATE, TIME or TIMESTAMP as Flink's ``json`` format writes it (see the
    module); None for any other value."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            utc = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
            return _trimmed(utc.isoformat(sep=" ")) + "Z"
        return _trimmed(value.isoformat(sep=" "))
    if isinstance(value, dt.time):
        return _trimmed(value.isoformat())
    if isinstance(value, dt.date):
        return value.isoformat()
    return None
