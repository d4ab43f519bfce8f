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

A source that DDL declares gets its environment's sandbox (:mod:`~.sources.sandbox`), and checks
every read, write, listing and metadata value against ``filesystem.allowed-paths`` and
``external-access`` at each call.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import os
import re
import secrets
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.json as pjson
import pyarrow.parquet as pq

from calcite_bridge._types import arrow_to_sql, sql_to_arrow
from calcite_bridge.errors import ConfigError, SourceError, UnsupportedError
from calcite_bridge.expressions import Expression
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
from calcite_bridge.sources.parquet import scan_parquet
from calcite_bridge.sources.parquet_files import ParquetFiles, parquet_files
from calcite_bridge.sources.pruning import prune_row_groups
from calcite_bridge.sources.sandbox import SandboxGetter, check_connector, confine
from calcite_bridge.sources.text_files import text_files

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
    _checked_json[key] = None


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


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
    ) -> None:
        self._sandbox = sandbox
        self.path = os.path.abspath(os.fspath(path))
        fmt = _FORMATS.get(str(format).lower())
        if fmt is None:
            raise ConfigError(f"filesystem format must be parquet, csv or json, not {format!r}")
        self.format = fmt
        self.options = dict(options or {})
        self._declared = schema
        self._discovered: dict[str, pa.Field] = {}
        self._lock = threading.Lock()
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

    def _file_format(self, schema: pa.Schema | None) -> ds.FileFormat:
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
            return ds.CsvFileFormat(
                parse_options=pcsv.ParseOptions(delimiter=delimiter), convert_options=convert
            )
        parse = pjson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer")
        return ds.JsonFileFormat(parse_options=parse)

    def _dataset(self, schema: pa.Schema | None) -> ds.Dataset:
        import pyarrow.dataset as ds  # here: it imports pandas

        self._confine()
        fmt = self._file_format(schema)
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
        return split_filters(filters, self._scan_schema())

    def list_readable_metadata(self) -> dict[str, str]:
        return dict(METADATA)

    def apply_readable_metadata(self, keys: list[str]) -> None:
        unknown = [k for k in keys if k not in METADATA]
        if unknown:
            raise SourceError(
                f"filesystem source has no metadata {unknown}; it has {sorted(METADATA)}"
            )

    # --- reading -------------------------------------------------------------------------------

    def scan(self, request: ScanRequest) -> pa.RecordBatchReader:
        self._confine()
        self.apply_readable_metadata(list(request.metadata_keys))
        schema = self._scan_schema()
        fields = [pa.field(k, sql_to_arrow(METADATA[k])) for k in request.metadata_keys]
        values = self._metadata_values(request.metadata_keys)
        if self.format == "parquet":
            found = scan_parquet(self.path, schema, request, _IGNORE_PREFIXES, fields, values)
            if found is not None:
                return found
        dataset = prune_row_groups(self._dataset(schema), request.filters)
        return scan_dataset(dataset, request, fields, lambda fragment: values(fragment.path))

    def parquet_files(self, request: ScanRequest) -> ParquetFiles | None:
        """The scan as one query over the files (Parquet, CSV or JSON lines), for a backend that
        reads them itself; None when it must be read by :meth:`scan` (see
        :mod:`~.sources.parquet_files` and :mod:`~.sources.text_files`)."""
        real = self._confine()
        if any(k not in METADATA for k in request.metadata_keys):
            return None
        fields = [pa.field(k, sql_to_arrow(METADATA[k])) for k in request.metadata_keys]
        values = self._metadata_values(request.metadata_keys)
        if self.format == "parquet":
            files = parquet_files(
                self.path, self._scan_schema(), request, _IGNORE_PREFIXES, fields, values
            )
        else:
            if self.format == "json":
                self._check_json_depth()  # our reader's own refusal, before DuckDB reads
            files = text_files(
                self.path,
                self.format,
                self.options,
                self._scan_schema(),
                request,
                _IGNORE_PREFIXES,
                fields,
                values,
            )
        if files is None or real == self.path:
            return files
        # Confined: DuckDB reads the real paths, within the real allowed directories it is given.
        return files.resolved()

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
            options = pcsv.WriteOptions(delimiter=delimiter, quoting_style="all_valid")
            pcsv.write_csv(table, fh, options)
        else:
            for row in table.to_pylist():
                fh.write(json.dumps(row, default=_json_default).encode("utf-8") + b"\n")

    def write(self, table: pa.Table) -> None:
        """Adds ``table`` as one new file, atomically; a failure leaves no visible file."""
        self._confine("INSERT target")
        if os.path.isfile(self.path):
            raise UnsupportedError(f"INSERT into {self.path} needs a directory path, not a file")
        table = self._conform(table)
        if table.num_rows == 0:
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
        if table.num_rows:
            os.makedirs(self.path, exist_ok=True)
            self._confine("UPDATE or DELETE target")
            name = f"part-{secrets.token_hex(16)}.{_EXTENSIONS[self.format]}"
            self._publish(table, self.path, name, "Rewrite of", replace=False)
        for path in old:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        if old and os.path.isdir(self.path):
            _fsync_dir(self.path)

    def _files(self) -> list[str]:
        """The data files a scan reads now."""
        if not os.path.isdir(self.path):
            return []
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
