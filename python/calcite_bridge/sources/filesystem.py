"""The ``filesystem`` connector (DESIGN §8): Parquet, CSV and JSON lines over ``pyarrow.dataset``.

Filters that ``to_pyarrow()`` translates (nested ones too) are accepted and applied exactly.
Parquet is read by :mod:`calcite_bridge.sources.parquet` from cached footers: row groups are
pruned by their statistics, only the leaf columns a query reads are decoded, and a request for
no columns (``COUNT(*)``) is answered from row counts where the statistics allow. Files whose
columns differ from the table's go through the dataset scanner, which fills and casts.

``INSERT`` writes one new file per call: a temporary file in the same directory, fsynced, renamed
into place, then the directory fsynced. A temporary file is named
``.calcite-bridge-tmp-<random>.<format>``, a name no user would choose; readers skip it (its name
starts with a dot), and only the writer that made it removes it (if its write fails). Nothing
here deletes or overwrites a file it did not create: a process killed in the middle of a write
leaves its temporary file, hidden from readers, for the user to delete.

``UPDATE`` and ``DELETE`` (``overwrite``) write the table's new rows the same way, as one new file,
then remove the files that were there before; a failure before the new file is renamed into place
leaves every file as it was. A table that is one file is replaced with one rename. These are the
only files removed or replaced, and only because the statement says so.

A table ``PARTITIONED BY`` columns keeps its files in Hive-style directories ``col=value``
(:mod:`~.sources.partitions`): the partition columns' values come from the directories, filters on
them pick the directories to read, and ``INSERT`` writes each row into its partition's directory.

A source that DDL declares gets its environment's sandbox (:mod:`~.sources.sandbox`), and checks
every read, write, listing and metadata value against ``filesystem.allowed-paths`` and
``external-access`` at each call.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import secrets
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.json as pjson
import pyarrow.parquet as pq

from calcite_bridge._types import arrow_to_sql, sql_to_arrow
from calcite_bridge.errors import ConfigError, MissingColumnWarning, SourceError, UnsupportedError
from calcite_bridge.expressions import Expression, FieldReference, NestedFieldReference
from calcite_bridge.sources.arrow import scan_dataset, split_filters
from calcite_bridge.sources.base import (
    FilterPushDownResult,
    ScanRequest,
    SupportsAggregatePushDown,
    SupportsDynamicColumns,
    SupportsFilterPushDown,
    SupportsLimitPushDown,
    SupportsProjectionPushDown,
    SupportsReadingMetadata,
    SupportsRowLevelDelete,
    SupportsRowLevelUpdate,
    SupportsWriting,
    TableSource,
)
from calcite_bridge.sources.json_lines import json_rows, read_schema, scan_converted
from calcite_bridge.sources.parquet import list_files, scan_parquet
from calcite_bridge.sources.parquet_files import (
    ParquetFiles,
    _duck_type,
    _q,
    _string,
    parquet_files,
)
from calcite_bridge.sources.parquet_footers import footer
from calcite_bridge.sources.partitions import (
    Partition,
    default_name,
    partition_dirs,
    partition_path,
    prune,
    split,
)
from calcite_bridge.sources.pruning import prune_row_groups
from calcite_bridge.sources.sandbox import SandboxGetter, check_connector, confine
from calcite_bridge.sources.temporal_text import csv_time, csv_timestamp, is_temporal
from calcite_bridge.sources.text_files import csv_header, text_files

if TYPE_CHECKING:
    import pyarrow.dataset as ds

__all__ = ["METADATA", "TMP_PREFIX", "FileSystemSource"]

TMP_PREFIX = ".calcite-bridge-tmp-"
METADATA: dict[str, str] = {
    "file.path": "STRING",
    "file.name": "STRING",
    "file.size": "BIGINT",
    "file.modification-time": "TIMESTAMP_LTZ(3)",
}
_FORMATS = {"parquet": "parquet", "csv": "csv", "json": "json", "jsonl": "json", "ndjson": "json"}
_EXTENSIONS = {"parquet": "parquet", "csv": "csv", "json": "json"}
_IGNORE_PREFIXES = [".", "_"]

# JSON nested deeper than this (objects and arrays) is refused before pyarrow parses it: its
# parser recurses once a level, and a file nested 10^5 deep ends the process. The table option
# 'json.max-depth' changes it.
JSON_MAX_DEPTH = 1000
_JSON_CHUNK = 16 << 20
_JSON_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"')
_checked_json: dict[tuple[str, int, int, int], None] = {}

# What a declared column that no file holds does: 'warn' (the default: NULLs and one
# MissingColumnWarning per statement), 'null' (NULLs, silently) or 'error' (a SourceError).
MISSING_COLUMNS_OPTION = "source.missing-columns"
_MISSING_COLUMNS = ("warn", "null", "error")


def json_depth(path: str) -> int:
    """The deepest nesting of objects and arrays in the JSON lines file at ``path``.

    Strings are removed first (a bracket in a string opens nothing); the file is read in chunks
    that end at a line's end, and numpy counts the depth of every byte at C speed."""
    import numpy as np

    deepest = 0
    carry = b""
    with open(path, "rb") as fh:
        while True:
            block = fh.read(_JSON_CHUNK)
            data = carry + block
            if block:
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            else:
                carry = b""
            if data:
                bare = np.frombuffer(_JSON_STRING.sub(b'""', data), dtype=np.uint8)
                steps = (
                    (bare == ord("[")).astype(np.int64)
                    + (bare == ord("{"))
                    - (bare == ord("]"))
                    - (bare == ord("}"))
                )
                if steps.size:
                    deepest = max(deepest, int(np.cumsum(steps).max()))
            if not block:
                return deepest


def blank_file(path: str) -> bool:
    """Whether the text file at ``path`` holds nothing but ASCII whitespace (no bytes at all
    included): a CSV or JSON-lines file of no rows. False when it cannot be read (the read
    itself says why). A file of no bytes is not opened, and the answer for another is kept
    until the file's modification time, size or inode change: every scan of a table asks it of
    each of the table's files."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if st.st_size == 0:
        return True
    key = (path, st.st_mtime_ns, st.st_size, st.st_ino)
    known = _blank_files.get(key)
    if known is None:
        known = _only_whitespace(path)
        _remember(_blank_files, key, known)
    return known


def _only_whitespace(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            size = 512  # a file of rows shows one in its first bytes: read no more of it
            while block := fh.read(size):
                if block.strip():
                    return False
                size = 1 << 16
    except OSError:
        return False
    return True


_KEPT_FILES = 1 << 16
"""How many files' answers :func:`blank_file` and :func:`check_json_depth` keep; past them each
starts again."""
_blank_files: dict[tuple[str, int, int, int], bool] = {}


def _remember(kept: dict[Any, Any], key: Any, value: Any) -> None:
    if len(kept) >= _KEPT_FILES:
        kept.clear()
    kept[key] = value


def csv_headerless(path: str, delimiter: str, names: Sequence[str]) -> bool:
    """Whether the CSV file at ``path`` has no header, for a table of columns ``names``: its
    first line has a field for each column and names none of them (case aside). Flink's csv
    format writes and reads its files so, the fields in the table's order; a file that names a
    column in its first line is read by its header. The answer is kept until the file
    changes."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    key = (path, st.st_mtime_ns, st.st_size, st.st_ino, delimiter)
    header = _first_lines.get(key, False)
    if header is False:
        header = csv_header(path, delimiter)
        _remember(_first_lines, key, header)
    if not isinstance(header, list) or len(header) != len(names):
        return False
    wanted = {n.casefold() for n in names}
    return not any(field.strip().casefold() in wanted for field in header)


_first_lines: dict[tuple[str, int, int, int, str], list[str] | None] = {}


def _java_floats(table: pa.Table) -> pa.Table:
    """``table`` with its FLOAT and DOUBLE columns that hold a NaN or an infinity as text, those
    spelled as Flink's csv format writes them (Java's ``NaN``, ``Infinity``, ``-Infinity``,
    which pyarrow's and DuckDB's readers read too); pyarrow writes ``nan`` and ``inf``, which
    Flink cannot read."""
    import pyarrow.compute as pc

    for i, f in enumerate(table.schema):
        column = table.column(i)
        if not pa.types.is_floating(f.type) or pc.all(pc.is_finite(column)).as_py() is not False:
            continue
        text = pc.cast(column, pa.string())
        for pyarrow_spelling, java in (("nan", "NaN"), ("inf", "Infinity"), ("-inf", "-Infinity")):
            text = pc.replace_substring_regex(text, f"^{pyarrow_spelling}$", java)
        table = table.set_column(i, f.name, text)
    return table


def _is_bytes(t: pa.DataType) -> bool:
    return bool(pa.types.is_binary(t) or pa.types.is_large_binary(t))


def _base64_bytes(table: pa.Table) -> pa.Table:
    """``table`` with its BYTES columns as Flink's csv format writes them: in base64 (``AP9B``
    for ``b'\\x00\\xffA'``), NULL as an empty field (Flink writes both NULL and ``b''`` so)."""
    for i, f in enumerate(table.schema):
        if not _is_bytes(f.type):
            continue
        text = [
            None if v is None else base64.b64encode(v).decode("ascii")
            for v in table.column(i).to_pylist()
        ]
        table = table.set_column(i, f.name, pa.array(text, pa.string()))
    return table


def _as_text(t: pa.DataType) -> bool:
    """Whether pyarrow's CSV reader reads a column of type ``t`` as text, for
    :func:`csv_convert_batch` to convert."""
    return _is_bytes(t) or is_temporal(t)


def csv_read_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` as pyarrow's CSV reader is to parse it: BYTES, TIME and TIMESTAMP columns as
    text, which :func:`csv_convert_batch` converts."""
    if not any(_as_text(f.type) for f in schema):
        return schema
    fields = [f.with_type(pa.string()) if _as_text(f.type) else f for f in schema]
    return pa.schema(fields, metadata=schema.metadata)


def csv_convert_batch(
    batch: pa.RecordBatch,
    schema: pa.Schema,
    path: str,
    time_precisions: Mapping[str, int] | None = None,
) -> pa.RecordBatch:
    """``batch`` of the CSV file at ``path``, parsed as :func:`csv_read_schema` of ``schema``,
    with the types of ``schema``: a BYTES column decoded from base64, as Flink's csv format
    reads it, an empty field (quoted or not) as ``b''``, as Flink reads it too; text that is
    not base64 is refused with ``SourceError``. A TIME or TIMESTAMP with a finer fraction than
    its type keeps is cut to it, as Flink reads it (:mod:`~.sources.temporal_text`): to its
    Arrow type's unit, and a TIME to the precision ``time_precisions`` gives its column
    (``TIME(0)`` to ``TIME(2)``, whose Arrow type holds milliseconds)."""
    columns = []
    for i, f in enumerate(schema):
        values = batch.column(i)
        if pa.types.is_time(f.type) and pa.types.is_string(values.type):
            digits = (time_precisions or {}).get(f.name)
            values = csv_time(values, f.type, f.name, path, digits)
        elif is_temporal(f.type) and pa.types.is_string(values.type):
            values = csv_timestamp(values, f.type, f.name, path)
        elif _is_bytes(f.type) and not _is_bytes(values.type):
            decoded = []
            for text in values.to_pylist():
                try:
                    decoded.append(base64.b64decode(text or "", validate=True))
                except (binascii.Error, ValueError):
                    raise SourceError(
                        f"cannot read {text!r} in column {f.name} of {path} as BYTES (base64)"
                    ) from None
            values = pa.array(decoded, f.type)
        columns.append(values)
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def check_json_depth(path: str, limit: int) -> None:
    """Refuses (``SourceError``) a JSON file nested deeper than ``limit``; a file already
    checked, unchanged since, is not read again."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, limit)
    if key in _checked_json:
        return
    depth = json_depth(path)
    if depth > limit:
        raise SourceError(
            f"JSON file {path} is nested {depth} levels deep, deeper than the limit of {limit}"
            " (the table option 'json.max-depth')"
        )
    _remember(_checked_json, key, None)


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class FileSystemSource(
    TableSource,
    SupportsFilterPushDown,
    SupportsProjectionPushDown,
    SupportsLimitPushDown,
    SupportsReadingMetadata,
    SupportsDynamicColumns,
    SupportsWriting,
    SupportsRowLevelUpdate,
    SupportsRowLevelDelete,
    SupportsAggregatePushDown,
):
    """A file or a directory of files in one format (``parquet``, ``csv`` or ``json`` lines).

    ``schema`` is the DDL's; without it the files' own schema is used. ``options`` are the
    table's ``WITH`` options (``csv.field-delimiter`` is honoured).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: str = "parquet",
        schema: pa.Schema | None = None,
        options: Mapping[str, str] | None = None,
        sandbox: SandboxGetter | None = None,
        partition_keys: Sequence[str] = (),
        time_precisions: Mapping[str, int] | None = None,
    ) -> None:
        self._sandbox = sandbox
        # The precision of each TIME(p) column, p < 3, whose Arrow type holds milliseconds.
        self.time_precisions = dict(time_precisions or {})
        self.path = os.path.abspath(os.fspath(path))
        fmt = _FORMATS.get(str(format).lower())
        if fmt is None:
            raise ConfigError(f"filesystem format must be parquet, csv or json, not {format!r}")
        self.format = fmt
        self.options = dict(options or {})
        self._declared = schema
        self._discovered: dict[str, pa.Field] = {}
        self._lock = threading.Lock()
        self.partition_keys = tuple(partition_keys)
        self._missing = self.options.get(MISSING_COLUMNS_OPTION, "warn").lower()
        if self._missing not in _MISSING_COLUMNS:
            raise ConfigError(
                f"'{MISSING_COLUMNS_OPTION}' must be one of {', '.join(_MISSING_COLUMNS)}, "
                f"not {self._missing!r}"
            )
        if self.partition_keys:
            if schema is None:
                raise ConfigError("a partitioned filesystem table needs declared columns")
            missing = [k for k in self.partition_keys if schema.get_field_index(k) < 0]
            if missing:
                raise ConfigError(f"partition columns {missing} are not columns of the table")
            if len(self.partition_keys) == len(schema):
                raise ConfigError("a partitioned filesystem table needs a column that is no key")
        self._confine()

    # --- files ---------------------------------------------------------------------------------

    def _confine(self, what: str = "path") -> str:
        """The path to read or write: refused under ``external-access = false`` and outside
        ``filesystem.allowed-paths`` (with every entry below it). Its real path when confined."""
        if self._sandbox is None:
            return self.path
        sandbox = self._sandbox()
        check_connector(sandbox, "filesystem")
        if not sandbox.confined:
            return self.path
        return confine(self.path, sandbox, _IGNORE_PREFIXES, what)

    def _file_format(self, schema: pa.Schema | None, positional: bool = False) -> ds.FileFormat:
        """The format of the table's files; with ``positional``, that of a CSV file without a
        header, whose fields are ``schema``'s columns in order (:func:`csv_headerless`)."""
        import pyarrow.dataset as ds  # here: it imports pandas

        if self.format == "parquet":
            return ds.ParquetFileFormat()
        if self.format == "csv":
            delimiter = self.options.get("csv.field-delimiter", ",")
            types = {f.name: f.type for f in schema} if schema is not None else None
            # NULL is an empty unquoted field only, as documented; pyarrow's default list
            # would also read unquoted NA, NULL, nan, N/A, ... as NULL.
            convert = pcsv.ConvertOptions(
                column_types=types,
                null_values=[""],
                strings_can_be_null=True,
                quoted_strings_can_be_null=False,
            )
            read = pcsv.ReadOptions(column_names=schema.names) if positional and schema else None
            return ds.CsvFileFormat(
                parse_options=pcsv.ParseOptions(delimiter=delimiter),
                convert_options=convert,
                read_options=read,
            )
        parse = pjson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer")
        return ds.JsonFileFormat(parse_options=parse)

    def _dataset(self, schema: pa.Schema | None, files: Sequence[str] | None = None) -> ds.Dataset:
        import pyarrow.dataset as ds  # here: it imports pandas

        self._confine()
        if schema is not None:
            schema = self._read_schema(schema)
        fmt = self._file_format(schema)
        headerless: set[str] = set()
        if files is None and self.format != "parquet" and os.path.exists(self.path):
            # A text file of no bytes or blank lines only holds no rows (DuckDB reads it so);
            # pyarrow refuses it ("Empty JSON stream", "Empty CSV file"): it is left out.
            listed = list_files(self.path, _IGNORE_PREFIXES) or []
            kept = [f for f in listed if not blank_file(f)]
            headerless = self._headerless(kept, schema)
            if len(kept) != len(listed) or headerless:
                files = kept
        elif files is not None and self.format != "parquet":
            files = [f for f in files if not blank_file(f)]
            headerless = self._headerless(files, schema)
        if files is not None:  # listed: a partitioned table's partitions, or text files
            if self.format == "json":
                self._check_json_depth()
            try:
                if headerless and schema is not None:
                    return self._mixed_csv(files, headerless, schema, fmt)
                return ds.dataset(list(files), schema=schema or pa.schema([]), format=fmt)
            except (pa.ArrowException, OSError, ValueError) as exc:
                raise SourceError(f"cannot open {self.format} files at {self.path}: {exc}") from exc
        if not os.path.exists(self.path):
            if schema is None:
                raise SourceError(f"filesystem path {self.path} does not exist and has no schema")
            return ds.dataset([], schema=schema, format=fmt)
        if self.format == "json":
            self._check_json_depth()
        try:
            return ds.dataset(
                self.path, schema=schema, format=fmt, ignore_prefixes=_IGNORE_PREFIXES
            )
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise SourceError(f"cannot open {self.format} files at {self.path}: {exc}") from exc

    def _read_schema(self, schema: pa.Schema) -> pa.Schema:
        """``schema`` as the format's reader parses it: JSON's DATE, TIME and TIMESTAMP (see
        :mod:`~.sources.json_lines`) and CSV's BYTES, TIME and TIMESTAMP
        (:func:`csv_read_schema`) as text."""
        if self.format == "json":
            return read_schema(schema)
        if self.format == "csv":
            return csv_read_schema(schema)
        return schema

    def _headerless(self, files: Sequence[str], schema: pa.Schema | None) -> set[str]:
        """Those of ``files`` that are CSV files without a header (:func:`csv_headerless`), for
        a table of declared columns ``schema``."""
        if self.format != "csv" or schema is None or not len(schema):
            return set()
        delimiter = self.options.get("csv.field-delimiter", ",")
        return {f for f in files if csv_headerless(f, delimiter, schema.names)}

    def _mixed_csv(
        self, files: Sequence[str], headerless: set[str], schema: pa.Schema, fmt: ds.FileFormat
    ) -> ds.Dataset:
        """The CSV ``files`` as one dataset, those in ``headerless`` read by position."""
        import pyarrow.dataset as ds  # here: it imports pandas
        import pyarrow.fs as pfs

        local = pfs.LocalFileSystem()
        positional = self._file_format(schema, positional=True)
        fragments = [
            (positional if f in headerless else fmt).make_fragment(f, local) for f in files
        ]
        return ds.FileSystemDataset(fragments, schema, fmt, local)

    def _check_json_depth(self) -> None:
        raw = self.options.get("json.max-depth", str(JSON_MAX_DEPTH))
        try:
            limit = int(raw)
        except ValueError:
            limit = -1
        if limit < 1:
            raise ConfigError(f"'json.max-depth' must be a positive whole number, not {raw!r}")
        if os.path.isfile(self.path):
            check_json_depth(self.path, limit)
            return
        for folder, dirs, files in os.walk(self.path):
            dirs[:] = [d for d in dirs if not d.startswith(tuple(_IGNORE_PREFIXES))]
            for name in files:
                if not name.startswith(tuple(_IGNORE_PREFIXES)):
                    check_json_depth(os.path.join(folder, name), limit)

    def file_schema(self) -> pa.Schema | None:
        """The files' own schema (the first file's), or None when there are no files yet."""
        self._confine()  # first: whether a path outside exists is not to be told either
        if not os.path.exists(self.path):
            return None
        dataset = self._dataset(None)
        files = getattr(dataset, "files", None)
        return None if files is not None and not files else dataset.schema

    # --- schema and discovery ------------------------------------------------------------------

    def schema(self) -> pa.Schema:
        if self._declared is not None:
            return self._declared
        found = self.file_schema()
        if found is None:
            raise SourceError(f"no files at {self.path} to take a schema from; declare one")
        return found

    def _scan_schema(self) -> pa.Schema:
        base = self.schema()
        with self._lock:
            extra = [f for name, f in self._discovered.items() if name not in base.names]
        return pa.schema([*base, *extra]) if extra else base

    def discover_column(self, name: str) -> str | None:
        if self._declared is None or name in self._declared.names:
            return None
        found = self.file_schema()
        if found is None or found.get_field_index(name) < 0:
            return None
        f = found.field(name)
        with self._lock:
            self._discovered[name] = f
        return arrow_to_sql(f.type)

    # --- abilities -----------------------------------------------------------------------------

    def supports_nested_filters(self) -> bool:
        return True

    def supports_nested_projection(self) -> bool:
        return True

    def apply_filters(self, filters: list[Expression]) -> FilterPushDownResult:
        if not self.partition_keys:
            return split_filters(filters, self._scan_schema())
        on_keys, on_data, mixed = split(filters, self.partition_keys)
        keys = split_filters(on_keys, pa.schema(self._key_fields()))
        data = split_filters(on_data, self._data_schema())
        return FilterPushDownResult(
            [*keys.accepted, *data.accepted], [*keys.remaining, *data.remaining, *mixed]
        )

    # --- partitions ----------------------------------------------------------------------------

    def _key_fields(self) -> list[pa.Field]:
        schema = self.schema()
        return [schema.field(k) for k in self.partition_keys]

    def _data_schema(self) -> pa.Schema:
        """The columns the files hold: every scanned column but the partition columns."""
        schema = self._scan_schema()
        return pa.schema([f for f in schema if f.name not in self.partition_keys])

    def partitions(self, filters: Sequence[Expression] = ()) -> list[Partition]:
        """The partition directories a scan with ``filters`` reads: those whose values pass
        the filters on partition columns only."""
        self._confine()
        found = partition_dirs(
            self.path, self._key_fields(), default_name(self.options), _IGNORE_PREFIXES
        )
        on_keys, _, _ = split(filters, self.partition_keys)
        return prune(found, self._key_fields(), on_keys)

    def _partitioned_request(
        self, request: ScanRequest
    ) -> tuple[ScanRequest, list[str], list[tuple[int, str | None]], dict[str, Partition]]:
        """The scan of the partitions' files for ``request``: a request over the files'
        columns, whose metadata keys are followed by the partition columns; the files with the
        partition values of each; and where each column of ``request`` comes from (a data column
        of the files' scan by position, or a partition column by name)."""
        schema = self._scan_schema()
        data = self._data_schema()
        keys = set(self.partition_keys)
        order: list[tuple[int, str | None]] = []
        projection: list[tuple[int, ...]] | None = None
        columns: list[str] | None = None
        if request.projection is not None:
            projection = []
            for path in request.projection:
                name = schema.field(path[0]).name
                if name in keys:
                    order.append((-1, name))
                else:
                    order.append((len(projection), None))
                    projection.append((data.get_field_index(name), *path[1:]))
        else:
            names = list(request.columns) if request.columns is not None else schema.names
            columns = []
            for name in names:
                if name in keys:
                    order.append((-1, name))
                else:
                    order.append((len(columns), None))
                    columns.append(name)
        _, on_data, _ = split(request.filters, self.partition_keys)
        sub = ScanRequest(
            columns=None if columns is None else tuple(columns),
            projection=None if projection is None else tuple(projection),
            filters=tuple(on_data),
            metadata_keys=request.metadata_keys,
            limit=request.limit,
        )
        partitions: dict[str, Partition] = {}
        files: list[str] = []
        for partition in self.partitions(request.filters):
            for file in list_files(partition.path, _IGNORE_PREFIXES) or []:
                files.append(file)
                partitions[os.path.abspath(file)] = partition
        return sub, files, order, partitions

    def _partitioned_metadata(
        self, keys: Sequence[str], partitions: dict[str, Partition]
    ) -> tuple[list[pa.Field], Any]:
        """The metadata fields of a partitioned scan (the request's, then the partition
        columns) and their values for a file."""
        fields = [pa.field(k, sql_to_arrow(METADATA[k])) for k in keys]
        fields += self._key_fields()
        own = self._metadata_values(keys)

        def of(file: str) -> list[pa.Scalar]:
            return [*own(file), *partitions[os.path.abspath(file)].values]

        return fields, of

    def _scan_partitioned(self, request: ScanRequest) -> pa.RecordBatchReader:
        sub, files, order, values = self._partitioned_request(request)
        self._check_missing_columns(request, files)  # the chosen partitions' files only
        fields, of = self._partitioned_metadata(request.metadata_keys, values)
        data = self._data_schema()
        found = None
        if files and self.format == "parquet":
            found = scan_parquet(self.path, data, sub, _IGNORE_PREFIXES, fields, of, files=files)
        if found is None:
            dataset = prune_row_groups(self._dataset(data, files), sub.filters)
            found = self._scan_dataset(dataset, data, sub, fields, lambda f: of(f.path))
        width = len(found.schema) - len(fields)
        picks = [i if name is None else found.schema.get_field_index(name) for i, name in order]
        picks += range(width, width + len(request.metadata_keys))
        out = pa.schema([found.schema.field(i) for i in picks])

        def batches() -> Any:
            with found:
                for batch in found:
                    yield batch.select(picks).rename_columns(out.names)

        return pa.RecordBatchReader.from_batches(out, batches())

    def list_readable_metadata(self) -> dict[str, str]:
        return dict(METADATA)

    def apply_readable_metadata(self, keys: list[str]) -> None:
        unknown = [k for k in keys if k not in METADATA]
        if unknown:
            raise SourceError(
                f"filesystem source has no metadata {unknown}; it has {sorted(METADATA)}"
            )

    # --- reading -------------------------------------------------------------------------------

    def _file_columns(self, files: Sequence[str]) -> set[str] | None:
        """The column names that at least one of ``files`` holds; None when the format does not
        name its columns up front (JSON lines: each line has its own keys)."""
        names: set[str] = set()
        if self.format == "parquet":
            for file in files:
                try:
                    names.update(footer(file).schema.names)
                except Exception:
                    return None  # unreadable: the read itself says why
        elif self.format == "csv":
            delimiter = self.options.get("csv.field-delimiter", ",")
            declared = self._data_schema().names if self._declared is not None else []
            for file in files:
                if declared and csv_headerless(file, delimiter, declared):
                    names.update(declared)  # read by position: it holds every column
                    continue
                header = csv_header(file, delimiter)
                if header is None:
                    return None  # unreadable: the read itself says why
                names.update(header)
        else:
            return None
        return names

    def _read_columns(self, schema: pa.Schema, request: ScanRequest) -> list[str]:
        """The declared top-level columns that ``request`` reads or filters on, partition
        columns left out (their values come from the directories)."""
        if request.projection is not None:
            wanted = [schema.field(p[0]).name for p in request.projection if p]
        elif request.columns is not None:
            wanted = [c for c in request.columns if schema.get_field_index(c) >= 0]
        else:
            wanted = list(schema.names)
        for f in request.filters:
            for node in f.walk():
                if isinstance(node, FieldReference):
                    wanted.append(node.name)
                elif isinstance(node, NestedFieldReference):
                    wanted.append(node.field_names[0])
        return [
            n
            for n in dict.fromkeys(wanted)
            if n not in self.partition_keys and schema.get_field_index(n) >= 0
        ]

    def _check_missing_columns(
        self, request: ScanRequest, files: Sequence[str] | None = None
    ) -> None:
        """Warns (or fails, or stays silent, as ``'source.missing-columns'`` says) when a column
        the statement reads is declared by the table but held by none of its files, so that
        NULLs from a misspelt or renamed column do not pass unnoticed."""
        if self._missing == "null" or self._declared is None:
            return
        wanted = [
            n
            for n in self._read_columns(self._scan_schema(), request)
            if self._declared.get_field_index(n) >= 0
        ]
        if not wanted:
            return
        if files is None:
            files = list_files(self.path, _IGNORE_PREFIXES)
        if not files:
            return  # no file: no rows, nothing read as NULL
        held = self._file_columns(files)
        if held is None:
            return
        missing = [n for n in wanted if n not in held]
        if not missing:
            return
        listed = ", ".join(repr(n) for n in missing)
        what = f"{len(files)} {self.format} file{'s' if len(files) > 1 else ''}"
        if self._missing == "error":
            raise SourceError(
                f"declared column{'s' if len(missing) > 1 else ''} {listed} of the filesystem "
                f"table at {self.path} {'are' if len(missing) > 1 else 'is'} in none of its "
                f"{what} ('{MISSING_COLUMNS_OPTION}' = 'error')"
            )
        warnings.warn(
            f"declared column{'s' if len(missing) > 1 else ''} {listed} of the filesystem table "
            f"at {self.path} {'are' if len(missing) > 1 else 'is'} in none of its {what} and "
            f"read{'' if len(missing) > 1 else 's'} as NULL (table option "
            f"'{MISSING_COLUMNS_OPTION}': 'null' silences this, 'error' refuses the query)",
            MissingColumnWarning,
            stacklevel=2,
        )

    def scan(self, request: ScanRequest) -> pa.RecordBatchReader:
        self._confine()
        self.apply_readable_metadata(list(request.metadata_keys))
        if self.partition_keys:
            return self._scan_partitioned(request)
        self._check_missing_columns(request)
        schema = self._scan_schema()
        fields = [pa.field(k, sql_to_arrow(METADATA[k])) for k in request.metadata_keys]
        values = self._metadata_values(request.metadata_keys)
        if self.format == "parquet":
            found = scan_parquet(self.path, schema, request, _IGNORE_PREFIXES, fields, values)
            if found is not None:
                return found
        dataset = prune_row_groups(self._dataset(schema), request.filters)
        return self._scan_dataset(dataset, schema, request, fields, lambda f: values(f.path))

    def _scan_dataset(
        self,
        dataset: ds.Dataset,
        schema: pa.Schema,
        request: ScanRequest,
        fields: Sequence[pa.Field],
        values: Any,
    ) -> pa.RecordBatchReader:
        """``dataset`` read as ``request`` asks; a JSON dataset that parses columns of
        ``schema`` as text (:mod:`~.sources.json_lines`), or a CSV dataset that parses BYTES,
        TIME and TIMESTAMP columns as text (:func:`csv_read_schema`), with its rows converted
        first."""
        if self.format == "parquet" or dataset.schema.equals(schema):
            return scan_dataset(dataset, request, fields, values)
        if self.format == "csv":
            precisions = self.time_precisions

            def convert(batch: pa.RecordBatch, schema: pa.Schema, path: str) -> pa.RecordBatch:
                return csv_convert_batch(batch, schema, path, precisions)

            return scan_converted(dataset, schema, request, fields, values, convert)
        return scan_converted(dataset, schema, request, fields, values)

    def parquet_files(self, request: ScanRequest) -> ParquetFiles | None:
        """The scan as one query over the files (Parquet, CSV or JSON lines), for a backend that
        reads them itself; None when it must be read by :meth:`scan` (see
        :mod:`~.sources.parquet_files` and :mod:`~.sources.text_files`)."""
        real = self._confine()
        if any(k not in METADATA for k in request.metadata_keys):
            return None
        fields = [pa.field(k, sql_to_arrow(METADATA[k])) for k in request.metadata_keys]
        values = self._metadata_values(request.metadata_keys)
        schema = self._scan_schema()
        listed: list[str] | None = None
        if self.partition_keys:
            request, listed, order, by_file = self._partitioned_request(request)
            schema = self._data_schema()
            if not listed:
                return None  # no partition passes: our reader answers with no rows
        if self.format == "parquet":
            files = parquet_files(
                self.path, schema, request, _IGNORE_PREFIXES, fields, values, files=listed
            )
        else:
            if self.format == "json":
                self._check_json_depth()  # our reader's own refusal, before DuckDB reads
            listing = listed if listed is not None else list_files(self.path, _IGNORE_PREFIXES)
            if self._headerless(listing or [], schema):
                return None  # read by position: our reader reads it
            files = text_files(
                self.path,
                self.format,
                self.options,
                schema,
                request,
                _IGNORE_PREFIXES,
                fields,
                values,
                files=listing,
            )
        if files is None:
            return None  # read by scan(), which checks the columns
        self._check_missing_columns(request, files.files)
        if real != self.path:
            # Confined: DuckDB reads the real paths, within the real allowed directories it is
            # given.
            files = files.resolved()
        if files is not None and self.partition_keys:
            keys = [name for _, name in order if name is not None]
            return self._hive(files, keys, by_file)
        return files

    def _hive(
        self, files: ParquetFiles, keys: Sequence[str], partitions: dict[str, Partition]
    ) -> ParquetFiles | None:
        """``files`` (a scan of the partitions' files) with the partition columns ``keys``,
        read by DuckDB from the files' paths (``hive_partitioning``) and converted to their
        declared types as :mod:`~.sources.partitions` converts them; None when a file's path
        names other partitions than its own (a directory ``a=b`` above the table's, a
        partition reached through a symbolic link) or a key's type is one DuckDB reads
        differently."""
        expected: dict[str, Partition] = {}
        for path, partition in partitions.items():
            expected[os.path.realpath(path)] = partition
            expected[path] = partition
        for file in files.files:
            found = expected.get(file) or expected.get(os.path.abspath(file))
            if found is None:
                return None
            named = [c for c in os.path.dirname(file).split(os.sep) if "=" in c]
            own = os.path.relpath(found.path, self.path).split(os.sep)
            if named != own:
                return None
        fields = {f.name: f for f in self._key_fields()}
        null_name = default_name(self.options)
        hive = []
        for key in keys:
            duck = _duck_type(fields[key].type)
            if duck is None:
                return None
            value = f"NULLIF({_q(key)}, {_string(null_name)})"
            if duck != "VARCHAR":
                value = f"CAST({value} AS {duck})"
            hive.append((key, value))
        return replace(
            files,
            columns=(*files.columns, *keys),
            types=(*files.types, *(fields[k].type for k in keys)),
            hive=tuple(hive),
        )

    @staticmethod
    def _metadata_values(keys: Sequence[str]) -> Any:
        def values(file: str) -> list[pa.Scalar]:
            path = os.path.abspath(file)
            st = os.stat(path)
            known = {
                "file.path": pa.scalar(path, pa.string()),
                "file.name": pa.scalar(os.path.basename(path), pa.string()),
                "file.size": pa.scalar(st.st_size, pa.int64()),
                "file.modification-time": pa.scalar(
                    st.st_mtime_ns // 1_000_000, pa.timestamp("ms", tz="UTC")
                ),
            }
            return [known[k] for k in keys]

        return values

    # --- writing -------------------------------------------------------------------------------

    def _conform(self, table: pa.Table) -> pa.Table:
        target = self._scan_schema() if self._declared is not None else None
        if target is None or table.schema.equals(target):
            return table
        try:
            if table.schema.names != target.names:
                table = table.select(target.names)
            return table.cast(target)
        except (pa.ArrowException, KeyError, ValueError) as exc:
            raise SourceError(f"INSERT rows do not fit {self.path}: {exc}") from exc

    def _write_file(self, table: pa.Table, fh: Any) -> None:
        if self.format == "parquet":
            pq.write_table(table, fh)
        elif self.format == "csv":
            delimiter = self.options.get("csv.field-delimiter", ",")
            # A table whose files have no header (Flink's, csv_headerless) gets none either.
            existing = list_files(self.path, _IGNORE_PREFIXES) or []
            header = not self._headerless(existing, self._data_schema())
            options = pcsv.WriteOptions(
                delimiter=delimiter, quoting_style="all_valid", include_header=header
            )
            pcsv.write_csv(_base64_bytes(_java_floats(table)), fh, options)
        else:
            for line in json_rows(table):
                fh.write(line)

    def write(self, table: pa.Table) -> None:
        """Adds ``table`` as one new file, atomically; a failure leaves no visible file."""
        self._confine("INSERT target")
        if os.path.isfile(self.path):
            raise UnsupportedError(f"INSERT into {self.path} needs a directory path, not a file")
        table = self._conform(table)
        if table.num_rows == 0:
            return
        if self.partition_keys:
            self._write_partitions(table, "INSERT into")
            return
        os.makedirs(self.path, exist_ok=True)
        self._confine("INSERT target")  # what makedirs made, through links made meanwhile
        name = f"part-{secrets.token_hex(16)}.{_EXTENSIONS[self.format]}"
        self._publish(table, self.path, name, "INSERT into", replace=False)

    def overwrite(self, table: pa.Table) -> None:
        """Replaces every row with ``table`` (UPDATE, DELETE): one new file takes the place of
        the files there were. A failure before the new file is in place changes nothing."""
        self._confine("UPDATE or DELETE target")
        self._check_keeps_columns()
        table = self._conform(table)
        if os.path.isfile(self.path):
            directory, name = os.path.split(self.path)
            self._publish(table, directory, name, "Rewrite of", replace=True)
            return
        old = self._files()
        if self.partition_keys:
            if table.num_rows:
                self._write_partitions(table, "Rewrite of")
        elif table.num_rows:
            os.makedirs(self.path, exist_ok=True)
            self._confine("UPDATE or DELETE target")
            name = f"part-{secrets.token_hex(16)}.{_EXTENSIONS[self.format]}"
            self._publish(table, self.path, name, "Rewrite of", replace=False)
        for path in old:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        for directory in sorted({os.path.dirname(path) for path in old}):
            if os.path.isdir(directory):
                _fsync_dir(directory)

    def _write_partitions(self, table: pa.Table, verb: str) -> None:
        """Writes the rows of each partition as one new file in its directory, without the
        partition columns (the directory holds their values)."""
        keys = table.select(list(self.partition_keys)).to_pylist()
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, row in enumerate(keys):
            groups.setdefault(tuple(row.values()), []).append(i)
        data = table.drop_columns(list(self.partition_keys))
        null_name = default_name(self.options)
        for values, rows in groups.items():
            directory = os.path.join(
                self.path, partition_path(values, self.partition_keys, null_name)
            )
            os.makedirs(directory, exist_ok=True)
            self._confine("INSERT target")  # what makedirs made, through links made meanwhile
            name = f"part-{secrets.token_hex(16)}.{_EXTENSIONS[self.format]}"
            self._publish(data.take(rows), directory, name, verb, replace=False)

    def _files(self) -> list[str]:
        """The data files a scan reads now."""
        if not os.path.isdir(self.path):
            return []
        if self.partition_keys:
            return [
                os.path.abspath(f)
                for p in self.partitions()
                for f in list_files(p.path, _IGNORE_PREFIXES) or []
            ]
        files = getattr(self._dataset(self._scan_schema()), "files", None) or []
        return [os.path.abspath(f) for f in files]

    def _check_keeps_columns(self) -> None:
        """Refuses to rewrite files that hold columns the DDL doesn't declare: they would be
        lost."""
        if self._declared is None:
            return
        found = self.file_schema()
        extra = [] if found is None else [n for n in found.names if n not in self._declared.names]
        if extra:
            raise UnsupportedError(
                f"the files at {self.path} hold columns the table does not declare "
                f"({', '.join(extra)}); rewriting them would drop those columns"
            )

    def _publish(
        self, table: pa.Table, directory: str, name: str, verb: str, *, replace: bool
    ) -> None:
        """Writes ``table`` to a temporary file of its own in ``directory``, fsyncs it and
        renames it to ``name``: replacing a file of that name when ``replace`` (the rewrite of a
        one-file table), else never; a failure leaves no visible file."""
        ext = _EXTENSIONS[self.format]
        tmp = os.path.join(directory, f"{TMP_PREFIX}{secrets.token_hex(16)}.{ext}")
        final = os.path.join(directory, name)
        made = False  # whether the temporary file is ours: only then is it ours to remove
        try:
            # O_EXCL: never a file (or a link) that is there already
            with open(tmp, "xb") as fh:
                made = True
                self._write_file(table, fh)
                fh.flush()
                os.fsync(fh.fileno())
            if not replace and os.path.lexists(final):
                raise SourceError(f"{verb} {self.path}: {final} exists; nothing replaced")
            os.replace(tmp, final)
            made = False
            _fsync_dir(directory)
        except BaseException as exc:
            if made:
                try:
                    os.unlink(tmp)
                except FileNotFoundError:
                    pass
            if isinstance(exc, Exception) and not isinstance(exc, SourceError):
                raise SourceError(f"{verb} {self.path} failed: {exc}") from exc
            raise
