"""What the JVM asks of a Python source, whatever carries the call (JPype in-process, or py4j
from another process). Every call is coarse, and every failure comes back as a JSON error object
carrying the Python traceback, so it reaches the user as ``SourceError`` or
``SourceContractError``."""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from ..errors import (
    STREAM_FAILURE_MARKER,
    AccessDeniedError,
    ConfigError,
    SourceContractError,
    SourceError,
)
from .arrow import ArrowTableSource, OfferAnswers
from .base import ScanRequest, check_filter_result, filters_from_json, to_reader
from .sandbox import CONNECTORS, SandboxGetter, check_connector

if TYPE_CHECKING:
    from .filesystem import FileSystemSource
    from .parquet_files import ParquetFiles


def _filesystem_source() -> type[FileSystemSource] | None:
    """``FileSystemSource``, once its module is imported; None before. A source can only be
    one once the ``filesystem`` connector made it, which imports the module: a program that
    registers Arrow tables only does not import the files' modules (pyarrow.fs, pyarrow.parquet,
    about 25 ms of a first ``register_arrow``)."""
    module = sys.modules.get(f"{__package__}.filesystem")
    return None if module is None else module.FileSystemSource


__all__ = ["CONNECTORS", "SourceCalls", "create_source", "load_source_class"]
# The key under which a table's PARTITIONED BY columns come with its options (never a WITH option).
PARTITION_KEYS = "__partition_keys__"
TIME_PRECISIONS = "__time_precisions__"


def error_json(exc: BaseException, source: str | None = None, action: str = "") -> str:
    """The JSON error object the JVM turns into ``SourceError`` or ``SourceContractError``."""
    kind = "SOURCE_CONTRACT" if isinstance(exc, SourceContractError) else "SOURCE"
    if isinstance(exc, SourceContractError):
        message = str(exc)
    elif isinstance(exc, AccessDeniedError):
        kind = "ACCESS"
        message = f"Access denied to table {source!r}: {exc}" if source else str(exc)
    elif isinstance(exc, ConfigError):
        kind = "CONFIG"
        message = f"table {source!r}: {exc}" if source else str(exc)
    else:
        where = f"source {source!r} failed in {action}: " if source else ""
        message = f"{where}{type(exc).__name__}: {exc}"
    return json.dumps(
        {"error": {"kind": kind, "message": message, "traceback": traceback.format_exc()}}
    )


class _StreamFailure(ValueError):
    """A source's reader failed while it streamed; ``str()`` is what the JVM decodes."""

    def __init__(self, kind: str, message: str, detail: str) -> None:
        self.kind, self.message, self.detail = kind, message, detail
        payload = {"kind": kind, "message": message, "detail": detail}
        super().__init__(STREAM_FAILURE_MARKER + json.dumps(payload))


def _carried(reader: pa.RecordBatchReader, source: str) -> pa.RecordBatchReader:
    """``reader`` whose failure while it streams crosses the C stream typed: the JVM reads only
    the error's text, so the text carries the kind, the source's message and its traceback."""

    def batches() -> Iterator[pa.RecordBatch]:
        try:
            yield from reader
        except Exception as e:
            contract = isinstance(e, SourceContractError)
            raise _StreamFailure(
                "SOURCE_CONTRACT" if contract else "SOURCE",
                f"Source {source!r} failed while it was read: {type(e).__name__}: {e}",
                traceback.format_exc(),
            ) from e

    return pa.RecordBatchReader.from_batches(reader.schema, batches())


def _tell(source: Any, method: str, value: Any) -> None:
    """Calls the optional hook ``method`` of ``source`` with ``value``, when it has one."""
    hook = getattr(source, method, None)
    if callable(hook):
        hook(value)


def _check_writable(name: str, source: Any, keys: list[str]) -> None:
    """Refuses metadata keys that a source listing its writable ones doesn't list."""
    listing = getattr(source, "list_writable_metadata", None)
    if not keys or not callable(listing):
        return
    writable = dict(listing())
    refused = [k for k in keys if k not in writable]
    if refused:
        raise ValueError(
            f"source {name!r} cannot write metadata key(s) {', '.join(refused)}; it writes: "
            f"{', '.join(writable) or 'none'}. Declare those columns VIRTUAL to only read them"
        )


def _ability(source: Any, method: str) -> bool:
    ask = getattr(source, method, None)
    return bool(ask()) if callable(ask) else False


class SourceCalls:
    """The calls on one source; a failure is answered as a JSON error text (a ``str``)."""

    def __init__(self, name: str, source: Any, gate: Callable[[], None] | None = None) -> None:
        self.name = name
        self.source = source
        # For a DDL-declared connector: raises AccessDeniedError when the sandbox turned it off.
        self._gate = gate or (lambda: None)

    def schema(self) -> pa.Schema | str:
        try:
            self._gate()
            schema: pa.Schema = self.source.schema()
            return schema
        except Exception as e:
            return error_json(e, self.name, "schema()")

    def supports_filter_push_down(self) -> bool:
        return callable(getattr(self.source, "apply_filters", None))

    def supports_nested_filters(self) -> bool:
        return _ability(self.source, "supports_nested_filters")

    def supports_nested_projection(self) -> bool:
        return _ability(self.source, "supports_nested_projection")

    def supports_aggregate_pushdown(self) -> bool:
        return _ability(self.source, "supports_aggregate_pushdown")

    def supports_dynamic_columns(self) -> bool:
        return callable(getattr(self.source, "discover_column", None))

    def supports_writing(self) -> bool:
        return callable(getattr(self.source, "write", None))

    def supports_row_level_update(self) -> bool:
        return self.supports_overwrite() and _ability(self.source, "supports_row_level_update")

    def supports_row_level_delete(self) -> bool:
        return self.supports_overwrite() and _ability(self.source, "supports_row_level_delete")

    def supports_overwrite(self) -> bool:
        return callable(getattr(self.source, "overwrite", None))

    def abilities(self) -> dict[str, bool]:
        return {
            "filters": self.supports_filter_push_down(),
            "nested_filters": self.supports_nested_filters(),
            "nested_projection": self.supports_nested_projection(),
            "aggregates": self.supports_aggregate_pushdown(),
            "dynamic_columns": self.supports_dynamic_columns(),
            "writing": self.supports_writing(),
            "row_level_update": self.supports_row_level_update(),
            "row_level_delete": self.supports_row_level_delete(),
            "overwrite": self.supports_overwrite(),
        }

    def apply_filters(self, filters_json: str) -> str:
        try:
            self._gate()
            items = json.loads(filters_json)
            answers = self._answers
            known = None if answers is None else answers.known(items)
            if known is not None:
                return known
            offered = filters_from_json(items)
            result = self.source.apply_filters(list(offered))
            accepted, remaining = check_filter_result(self.name, offered, result)
            answer = json.dumps({"accepted": accepted, "remaining": remaining})
            if answers is not None:
                answers.keep(items, answer)
            return answer
        except Exception as e:
            return error_json(e, self.name, "apply_filters()")

    def answers_by_shape(self) -> bool:
        """Whether the answer to an offer depends only on its shape and on whether each literal
        makes an Arrow scalar (see ``_answers``): the JVM then keeps the answer per shape and
        asks again only for a shape, or a literal, it cannot answer itself."""
        return self._answers is not None

    @functools.cached_property
    def _answers(self) -> OfferAnswers | None:
        """The answers kept per shape of an offer, for an ``ArrowTableSource`` or a
        ``FileSystemSource`` (a ``filesystem`` table) whose ``apply_filters`` is its own: a
        parameter's new value is offered at each run. Both accept what pyarrow can apply
        exactly to their columns (the files' source also splits the filters on partition
        columns from the others), which depends on the offer's shape only. Any other source is
        asked at every offer, and sees the values."""
        source = self.source
        for kind in (ArrowTableSource, _filesystem_source()):
            if (
                kind is not None
                and isinstance(source, kind)
                and type(source).apply_filters is kind.apply_filters
            ):
                return OfferAnswers()
        return None

    def scan(self, request_json: str, deliver: Callable[[pa.RecordBatchReader], Any]) -> Any:
        """Runs the scan and hands its reader to ``deliver``; answers what ``deliver`` returns."""
        try:
            self._gate()
            request = ScanRequest.from_json(request_json)
            if request.limit is not None:
                _tell(self.source, "apply_limit", request.limit)
            if request.metadata_keys:
                _tell(self.source, "apply_readable_metadata", list(request.metadata_keys))
            reader = _carried(to_reader(self.source.scan(request), None, self.name), self.name)
            return deliver(reader)
        except _StreamFailure as e:  # read whole by ``deliver`` (the gateway sends it as bytes)
            failure = {"kind": e.kind, "message": e.message, "traceback": e.detail}
            return json.dumps({"error": failure})
        except Exception as e:
            return error_json(e, self.name, "scan()")

    def reads_in_place(self) -> bool:
        """Whether a backend of this process reads the source's table in place and applies a
        filter itself: an ``ArrowTableSource`` whose scan is its own, which hands over its
        table as it is (``table_scan``), or a ``filesystem`` table of Parquet files, not
        partitioned, that DuckDB reads with its own reader (:meth:`open_files`), skipping the
        row groups a filter rules out from their statistics, a placeholder's value too. The
        JVM then binds no parameter's value into the scan's filters, so the scan's text stays
        the same from run to run (asked once per table)."""
        source = self.source
        if isinstance(source, ArrowTableSource):
            return type(source).scan is ArrowTableSource.scan
        files_source = _filesystem_source()
        if (
            files_source is None
            or not isinstance(source, files_source)
            or type(source).scan is not files_source.scan
            or type(source).parquet_files is not files_source.parquet_files
            or source.format != "parquet"
            or source.partition_keys
        ):
            return False
        try:
            self._gate()
            return source.parquet_files(ScanRequest()) is not None
        except Exception:
            return False

    def open(self, request_json: str) -> pa.Table | pa.RecordBatchReader:
        """Runs the scan here, for a backend of this process to read: a table stays a table (so
        the backend can read it in parallel); anything else is a reader whose failure while it
        streams is typed. A failure of the scan itself raises ``SourceError``."""
        try:
            self._gate()
            request = ScanRequest.from_json(request_json)
            if request.limit is not None:
                _tell(self.source, "apply_limit", request.limit)
            if request.metadata_keys:
                _tell(self.source, "apply_readable_metadata", list(request.metadata_keys))
            source = self.source
            if isinstance(source, ArrowTableSource) and self.reads_in_place():
                table = source.table_scan(request)
                if table is not None:
                    return table
            result = source.scan(request)
            if isinstance(result, pa.Table):
                return result
            return _carried(to_reader(result, None, self.name), self.name)
        except (SourceContractError, AccessDeniedError):
            raise
        except Exception as e:
            raise SourceError(
                f"source {self.name!r} failed in scan(): {type(e).__name__}: {e}",
                source_traceback=traceback.format_exc(),
            ) from e

    def open_files(self, request_json: str) -> ParquetFiles | None:
        """The scan as a query over Parquet files, when the source is the ``filesystem``
        connector and the query reads them as :meth:`open` would; else None (and a failure to
        find out is left to :meth:`open` to report)."""
        source = self.source
        files_source = _filesystem_source()
        if (
            files_source is None
            or not isinstance(source, files_source)
            or type(source).scan is not files_source.scan
        ):
            return None
        try:
            self._gate()
            return source.parquet_files(ScanRequest.from_json(request_json))
        except AccessDeniedError:
            raise
        except Exception:
            return None

    def readable_metadata(self) -> str:
        try:
            self._gate()
            listing = getattr(self.source, "list_readable_metadata", None)
            return json.dumps(dict(listing()) if callable(listing) else {})
        except Exception as e:
            return error_json(e, self.name, "list_readable_metadata()")

    def discover_column(self, name: str) -> str | None:
        try:
            self._gate()
            found = self.source.discover_column(name)
            return None if found is None else str(found)
        except Exception as e:
            return error_json(e, self.name, "discover_column()")

    def write(self, rows: Callable[[], pa.Table], metadata_keys_json: str) -> str | None:
        """Writes the table ``rows()`` reads (an INSERT); None, or an error object."""
        try:
            self._gate()
            keys = json.loads(metadata_keys_json)
            _check_writable(self.name, self.source, keys)
            table = rows()
            if keys:
                _tell(self.source, "apply_writable_metadata", keys)
            self.source.write(table)
            return None
        except Exception as e:
            return error_json(e, self.name, "write()")

    def overwrite(self, rows: Callable[[], pa.Table], metadata_keys_json: str) -> str | None:
        """Replaces the source's rows with the table ``rows()`` reads (an UPDATE or DELETE);
        None, or an error object."""
        try:
            keys = json.loads(metadata_keys_json)
            _check_writable(self.name, self.source, keys)
            table = rows()
            if keys:
                _tell(self.source, "apply_writable_metadata", keys)
            self.source.overwrite(table)
            return None
        except Exception as e:
            return error_json(e, self.name, "overwrite()")


class _Failed:
    """Stands for a source whose creation failed; CREATE TABLE reports the failure."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def schema(self) -> pa.Schema:
        raise self.exc

    def scan(self, request: ScanRequest) -> Any:
        raise self.exc

    def list_readable_metadata(self) -> dict[str, str]:
        raise self.exc


def _module_allowed(module: str, allowed: Sequence[str]) -> bool:
    return any(module == a or module.startswith(a + ".") for a in allowed)


def load_source_class(spec: str, allowed: list[str]) -> Any:
    """The class named ``'package.module:Name'``, from a module the user allowed.

    Nothing is imported for a name that comes from SQL unless its module, or a package above
    it, is listed in ``python.allowed-modules``.
    """
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"'class' must look like 'package.module:Name', got {spec!r}")
    if not _module_allowed(module, allowed):
        raise AccessDeniedError(
            f"module {module!r} is not allowed; add it to 'python.allowed-modules' "
            f"(now: {';'.join(allowed) or 'empty'})"
        )
    return getattr(importlib.import_module(module), name)


def create_source(
    connector: str,
    options_json: str,
    schema: Callable[[], pa.Schema],
    sandbox: SandboxGetter,
) -> tuple[Any, Callable[[], None]] | None:
    """The source object of a DDL-declared table of ``connector``, with the gate its every call
    passes: it refuses once ``external-access`` is ``false``, and a ``python`` table once its
    module has left ``python.allowed-modules``. None for an unknown connector.

    A failure to create it is kept in a stand-in source, so that CREATE TABLE reports it.
    """
    if connector not in CONNECTORS:
        return None
    loaded: list[str] = []  # the module of a python table's class, once imported

    def gate() -> None:
        now = sandbox()
        check_connector(now, connector)
        if loaded and not _module_allowed(loaded[0], now.allowed_modules):
            raise AccessDeniedError(
                f"module {loaded[0]!r} is no longer in 'python.allowed-modules' "
                f"(now: {';'.join(now.allowed_modules) or 'empty'})"
            )

    try:
        gate()
        options = json.loads(options_json)
        partition_keys = options.pop(PARTITION_KEYS, None) or []
        time_precisions = options.pop(TIME_PRECISIONS, None) or {}
        declared = schema()
        if connector == "python":
            if "class" not in options:
                raise ValueError("the python connector needs the option 'class'")
            cls = load_source_class(options["class"], list(sandbox().allowed_modules))
            loaded.append(str(options["class"]).partition(":")[0])
            return cls(declared, options), gate
        if "path" not in options:
            raise ValueError("the filesystem connector needs the option 'path'")
        from .filesystem import FileSystemSource

        source = FileSystemSource(
            options["path"],
            options.get("format", "parquet"),
            schema=declared,
            options=options,
            sandbox=sandbox,
            partition_keys=partition_keys,
            time_precisions=time_precisions,
        )
        _check_path_exists(source.path, options)
        return source, gate
    except Exception as e:
        return _Failed(e), gate


def _check_path_exists(path: str, options: dict[str, str]) -> None:
    """A ``filesystem`` table's path exists when it is created, unless ``'sink.create-path'`` lets
    the first INSERT create it: a mistyped path fails here instead of reading as empty."""
    value = str(options.get("sink.create-path", "false")).strip().lower()
    if value not in ("true", "false"):
        raise ConfigError(f"'sink.create-path' must be 'true' or 'false', not {value!r}")
    if value == "false" and not os.path.exists(path):
        raise ConfigError(
            f"the path {path!r} does not exist; create it first, or set "
            "'sink.create-path' = 'true' to let the first INSERT create it"
        )
