"""A ``filesystem`` CSV or JSON-lines scan as a query DuckDB runs over the files itself.

The ``duckdb`` backend reads CSV (``read_csv``) and JSON lines (``read_json``) with its own
parallel readers when that gives the rows and the errors our reader gives
(:meth:`~calcite_bridge.sources.filesystem.FileSystemSource.scan`, pyarrow's readers). DuckDB's
readers are more lenient than pyarrow's: they take ``+1``, ``1.0`` or ``1e3`` for an integer,
``yes`` for a BOOLEAN, ``2024-1-2`` for a DATE, round ``1.555`` into a ``DECIMAL(10, 2)``,
and read ``2024-01-02 03:04:05+02:00`` as a TIMESTAMP. So every column whose values DuckDB
would parse more leniently is read as text and converted here in SQL, by pyarrow's grammar:
a value that grammar refuses fails the statement with ``cb.SourceError``, as it does with our
reader. Per format:

- CSV: the first line of each file names the columns, and every file's first line must be the
  same (the columns are handed to ``read_csv`` in its order, each with its type), its names
  distinct without regard to case, at least two of them (a blank line of a one-column file
  would be a row of NULL); the ``csv.field-delimiter`` (one character, not a quote, a line
  break or a backslash); ``"`` quoting with doubled quotes; an empty unquoted field NULL, ``""``
  the empty string. Columns read may be integers, FLOAT, DOUBLE, BOOLEAN, STRING, DATE,
  DECIMAL and TIMESTAMP(3) or TIMESTAMP(6) (a fraction of up to 9 digits, those past the
  type's cut off as Flink reads them); a row with too few or too many fields fails.
- JSON lines: columns of integers, DOUBLE, BOOLEAN and STRING, each value checked to be a JSON
  value of that kind (pyarrow refuses ``"1"`` for an integer and ``1`` for a STRING, DuckDB
  converts them); a file is checked against ``json.max-depth`` first, as by our reader.

A declared column no file holds reads as NULL. Metadata columns, the pushed filters and the
files listed one by one are as for Parquet (:mod:`~calcite_bridge.sources.parquet_files`).
Anything else is None, and the scan is read by our reader.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence

import pyarrow as pa

from calcite_bridge.errors import SOURCE_ERROR
from calcite_bridge.sources.base import ScanRequest
from calcite_bridge.sources.parquet import list_files
from calcite_bridge.sources.parquet_files import (
    _GLOB,
    FILE_COLUMN,
    MetadataValues,
    ParquetFiles,
    _Filters,
    _labels,
    _metadata_rows,
    _q,
    _string,
    _type_at,
)

__all__ = ["SOURCE_ERROR", "text_files"]


_INTEGERS = {
    pa.int8(): "TINYINT",
    pa.int16(): "SMALLINT",
    pa.int32(): "INTEGER",
    pa.int64(): "BIGINT",
}
_REFUSED_DELIMITERS = ('"', "\\", "\n", "\r")
# pyarrow's grammars (arrow/util/value_parsing.h): integers and dates with spaces or tabs
# around them, decimals with a sign and an exponent, ISO 8601 timestamps without a zone.
_INTEGER = r"[ \t]*-?[0-9]+[ \t]*"
_DECIMAL = r"[ \t]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t]*"
_DATE = r"[ \t]*[0-9]{4}-[0-9]{2}-[0-9]{2}[ \t]*"
_TIMESTAMP = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"([T ]([01][0-9]|2[0-3])(:[0-5][0-9](:[0-5][0-9](\.[0-9]{1,DIGITS})?)?)?)?"
)


def _fail(what: str, column: str, value: str) -> str:
    text = _string(f"{SOURCE_ERROR}{what} in column {column}: invalid value '")
    return f"error({text} || {value} || '''')"


def _csv_type(t: pa.DataType) -> str | None:
    """The type ``read_csv`` reads a column of Arrow type ``t`` as (VARCHAR when it is
    converted here), or None when it is left to our reader."""
    if t in (pa.float32(), pa.float64()):
        return "FLOAT" if t == pa.float32() else "DOUBLE"
    if t in _INTEGERS or t in (pa.string(), pa.bool_(), pa.date32()):
        return "VARCHAR"
    if pa.types.is_decimal128(t) and t.precision <= 38:
        return "VARCHAR"
    if t in (pa.timestamp("us"), pa.timestamp("ms")):
        return "VARCHAR"
    return None


def _csv_value(name: str, t: pa.DataType) -> str:
    """The DuckDB expression of the CSV column ``name`` (as :func:`_csv_type` reads it) as a
    value of ``t``, by pyarrow's grammar."""
    c = _q(name)
    if t in _INTEGERS:
        check, value, what = _INTEGER, f"TRY_CAST({c} AS {_INTEGERS[t]})", "an integer"
    elif t == pa.bool_():
        return (
            f"CASE WHEN {c} IS NULL THEN NULL WHEN {c} IN ('1', 'True', 'TRUE', 'true') THEN TRUE "
            f"WHEN {c} IN ('0', 'False', 'FALSE', 'false') THEN FALSE "
            f"ELSE {_fail('a BOOLEAN', name, c)} END"
        )
    elif t == pa.date32():
        check, value, what = _DATE, f"TRY_CAST(trim({c}, ' \t') AS DATE)", "a DATE"
    elif pa.types.is_decimal(t):
        duck = f"DECIMAL({t.precision}, {t.scale})"
        exact = f"DECIMAL(38, {min(38, t.scale + 20)})"
        fail = _fail("a DECIMAL", name, c)
        # Only values that fit the scale without rounding: pyarrow refuses to round.
        return (
            f"CASE WHEN {c} IS NULL THEN NULL "
            f"WHEN NOT regexp_full_match({c}, {_string(_DECIMAL)}) "
            f"OR TRY_CAST(trim({c}, ' \t') AS DECIMAL(38, {t.scale})) "
            f"IS DISTINCT FROM TRY_CAST(trim({c}, ' \t') AS {exact}) "
            f"THEN {fail} ELSE coalesce(TRY_CAST(trim({c}, ' \t') AS {duck}), {fail}) END"
        )
    elif pa.types.is_timestamp(t):
        digits = 6 if t.unit == "us" else 3
        duck = "TIMESTAMP" if t.unit == "us" else "TIMESTAMP_MS"
        check, what = _TIMESTAMP.replace("DIGITS", "9"), "a TIMESTAMP"
        # The digits past the type's cut off, as Flink reads them (and our reader,
        # sources/temporal_text.py); DuckDB would round them.
        cut = _string(rf"(:[0-9]{{2}}\.[0-9]{{1,{digits}}})[0-9]*")
        text = f"regexp_replace({c}, {cut}, '\\1')"
        # DuckDB needs minutes after an hour: `2024-01-02T03` is 03:00.
        value = f"TRY_CAST(CASE WHEN length({c}) = 13 THEN {c} || ':00' ELSE {text} END AS {duck})"
    else:
        return c
    return (
        f"CASE WHEN {c} IS NULL THEN NULL WHEN regexp_full_match({c}, {_string(check)}) "
        f"THEN coalesce({value}, {_fail(what, name, c)}) ELSE {_fail(what, name, c)} END"
    )


_JSON_KINDS = {
    pa.int8(): ("TINYINT", ("UBIGINT", "BIGINT")),
    pa.int16(): ("SMALLINT", ("UBIGINT", "BIGINT")),
    pa.int32(): ("INTEGER", ("UBIGINT", "BIGINT")),
    pa.int64(): ("BIGINT", ("UBIGINT", "BIGINT")),
    pa.float64(): ("DOUBLE", ("UBIGINT", "BIGINT", "DOUBLE")),
    pa.bool_(): ("BOOLEAN", ("BOOLEAN",)),
    pa.string(): ("VARCHAR", ("VARCHAR",)),
}


def _json_value(name: str, t: pa.DataType) -> str:
    """The DuckDB expression of the JSON column ``name`` (read as DuckDB's JSON) as a value of
    ``t``: only a JSON value of that kind, as pyarrow's reader takes."""
    duck, kinds = _JSON_KINDS[t]
    c = _q(name)
    listed = ", ".join(_string(k) for k in kinds)
    fail = _fail("a " + duck, name, f"{c}::VARCHAR")
    value = f"({c} ->> '$')" if duck == "VARCHAR" else f"coalesce(TRY_CAST({c} AS {duck}), {fail})"
    if duck == "DOUBLE":  # pyarrow refuses a number beyond DOUBLE's range
        value = f"CASE WHEN isinf({value}) THEN {fail} ELSE {value} END"
    return (
        f"CASE WHEN {c} IS NULL OR json_type({c}) = 'NULL' THEN NULL "
        f"WHEN json_type({c}) IN ({listed}) THEN {value} "
        f"ELSE {fail} END"
    )


def _columns(schema: pa.Schema, request: ScanRequest) -> list[tuple[str, ...]] | None:
    """The top-level column of each column the request reads (None for a field inside one)."""
    if request.projection is not None:
        if any(len(p) != 1 or not 0 <= p[0] < len(schema) for p in request.projection):
            return None
        return [(schema.field(p[0]).name,) for p in request.projection]
    names = request.columns if request.columns is not None else schema.names
    if any(schema.get_field_index(n) < 0 for n in names):
        return None
    return [(n,) for n in names]


def csv_header(path: str, delimiter: str) -> list[str] | None:
    """The column names in the first line of the CSV file at ``path`` (None when unreadable)."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            for row in csv.reader(fh, delimiter=delimiter, doublequote=True, strict=True):
                if row:  # pyarrow skips empty lines before the header, as DuckDB does
                    return row
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return None


def text_files(  # noqa: PLR0911, PLR0912, PLR0915 (one return per reason to read it ourselves)
    root: str,
    fmt: str,
    options: Mapping[str, str],
    schema: pa.Schema,
    request: ScanRequest,
    ignore_prefixes: Sequence[str],
    metadata: Sequence[pa.Field] = (),
    metadata_values: MetadataValues | None = None,
    files: Sequence[str] | None = None,
) -> ParquetFiles | None:
    """The scan of the CSV or JSON files at ``root`` as one DuckDB query, or None (see the
    module). The result is a :class:`ParquetFiles` whose reader is ``read_csv`` or
    ``read_json``."""
    paths = _columns(schema, request)
    if (
        paths is None
        or len(metadata) != len(request.metadata_keys)
        or not (paths or metadata)
        or (metadata and metadata_values is None)
    ):
        return None
    filters = _Filters(schema)
    conditions = [filters.sql(f) for f in request.filters]
    if any(c is None for c in conditions):
        return None
    needed = list(dict.fromkeys([p[0] for p in paths] + sorted(filters.columns)))
    files = list(files) if files is not None else list_files(root, ignore_prefixes)
    if not files or any(c in f for f in files for c in _GLOB):
        return None
    if fmt == "csv":
        delimiter = options.get("csv.field-delimiter", ",")
        if len(delimiter) != 1 or delimiter in _REFUSED_DELIMITERS:
            return None
        header = csv_header(files[0], delimiter)
        if (
            header is None
            or len(header) < 2
            or any(csv_header(f, delimiter) != header for f in files[1:])
        ):
            return None
        lowered = [n.lower() for n in header]
        if len(set(lowered)) != len(lowered) or FILE_COLUMN in lowered:
            return None
        columns: list[str] = []
        for name in header:
            t = schema.field(name).type if schema.get_field_index(name) >= 0 else pa.string()
            duck = _csv_type(t)
            if name in needed and duck is None:
                return None
            columns.append(f"{_string(name)}: {_string(duck or 'VARCHAR')}")
        function = "read_csv"
        reader_options = (
            f"header = true, columns = {{{', '.join(columns)}}}, delim = {_string(delimiter)}, "
            "quote = '\"', escape = '\"', nullstr = '', allow_quoted_nulls = false, "
            "auto_detect = false, strict_mode = true, null_padding = false, "
            "hive_partitioning = false, union_by_name = false, ignore_errors = false, "
            "encoding = 'utf-8', "
        )
        present = set(header)
        convert = _csv_value
    elif fmt == "json":
        if not needed:  # DuckDB reads no line of no column: read one, as our reader does
            needed = [f.name for f in schema if f.type in _JSON_KINDS][:1]
            if not needed:
                return None
        for name in needed:
            if schema.get_field_index(name) < 0 or schema.field(name).type not in _JSON_KINDS:
                return None
        listed = ", ".join(f"{_string(n)}: 'JSON'" for n in needed)
        function = "read_json"
        reader_options = (
            f"columns = {{{listed}}}, format = 'newline_delimited', auto_detect = false, "
            "hive_partitioning = false, union_by_name = false, ignore_errors = false, "
        )
        present = set(needed)
        convert = _json_value
    else:
        return None
    converted = []
    for name in needed:
        t = schema.field(name).type
        if name not in present:
            if name in filters.columns:
                return None
            continue
        converted.append(f"{convert(name, t)} AS {_q(name)}")
    items = []
    for path, label in zip(paths, _labels(paths), strict=True):
        name = path[0]
        if name not in present:
            t = schema.field(name).type
            duck = _csv_type(t) if fmt == "csv" else _JSON_KINDS[t][0]
            if duck == "VARCHAR" and t != pa.string():
                duck = _typed(t)
            items.append(f"CAST(NULL AS {duck}) AS {_q(label)}")
        else:
            items.append(_q(name) if name == label else f"{_q(name)} AS {_q(label)}")
    rows: list[tuple[str, ...]] | None = []
    if metadata and metadata_values is not None:
        rows = _metadata_rows(files, metadata, metadata_values)
    if rows is None or not (converted or metadata):
        return None
    where = " AND ".join(c for c in conditions if c is not None)
    types = tuple(
        t for t in (*(_type_at(schema, p) for p in paths), *(f.type for f in metadata)) if t
    )
    labels = (*_labels(paths), *(f.name for f in metadata))
    return ParquetFiles(
        tuple(files),
        labels,
        types,
        tuple(items),
        where,
        request.limit,
        tuple(rows),
        function=function,
        options=reader_options,
        converted=tuple(converted),
    )


def _typed(t: pa.DataType) -> str:
    """DuckDB's name of a type :func:`_csv_type` reads as VARCHAR and converts."""
    if t in _INTEGERS:
        return _INTEGERS[t]
    if t == pa.bool_():
        return "BOOLEAN"
    if t == pa.date32():
        return "DATE"
    if pa.types.is_decimal(t):
        return f"DECIMAL({t.precision}, {t.scale})"
    return "TIMESTAMP" if t == pa.timestamp("us") else "TIMESTAMP_MS"
