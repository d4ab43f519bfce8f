"""The JVM's view of Python sources: JPype proxies of the Java interfaces ``PythonSource`` and
``ConnectorFactory``. Every call is coarse and every failure comes back as a JSON error object
carrying the Python traceback, so it reaches the user as ``SourceError`` or
``SourceContractError``."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

import pyarrow as pa
from jpype import JImplements, JOverride

from ..errors import SourceContractError
from .base import ScanRequest, check_filter_result, filters_from_json, to_reader
from .filesystem import FileSystemSource


def _error(exc: BaseException, source: str | None = None, action: str = "") -> str:
    kind = "SOURCE_CONTRACT" if isinstance(exc, SourceContractError) else "SOURCE"
    if isinstance(exc, SourceContractError):
        message = str(exc)
    else:
        where = f"source {source!r} failed in {action}: " if source else ""
        message = f"{where}{type(exc).__name__}: {exc}"
    return json.dumps(
        {"error": {"kind": kind, "message": message, "traceback": traceback.format_exc()}}
    )


@JImplements("io.calcitebridge.connector.PythonSource", deferred=True)
class SourceProxy:
    """Adapts a Python source object (``schema()``, ``scan(request)``, abilities) to the JVM."""

    def __init__(self, name: str, source: Any) -> None:
        self._name = name
        self.source = source

    @JOverride
    def name(self) -> str:
        return self._name

    @JOverride
    def exportSchema(self, address: int) -> str | None:
        try:
            schema = self.source.schema()
            schema._export_to_c(int(address))
            return None
        except Exception as e:
            return _error(e, self._name, "schema()")

    @JOverride
    def supportsFilterPushDown(self) -> bool:
        return callable(getattr(self.source, "apply_filters", None))

    @JOverride
    def supportsNestedFilters(self) -> bool:
        ask = getattr(self.source, "supports_nested_filters", None)
        return bool(ask()) if callable(ask) else False

    @JOverride
    def applyFilters(self, filters_json: Any) -> str:
        try:
            offered = filters_from_json(str(filters_json))
            result = self.source.apply_filters(list(offered))
            accepted, remaining = check_filter_result(self._name, offered, result)
            return json.dumps({"accepted": accepted, "remaining": remaining})
        except Exception as e:
            return _error(e, self._name, "apply_filters()")

    @JOverride
    def scan(self, request_json: Any, address: int) -> str | None:
        try:
            request = ScanRequest.from_json(str(request_json))
            reader = to_reader(self.source.scan(request), None, self._name)
            reader._export_to_c(int(address))
            return None
        except Exception as e:
            return _error(e, self._name, "scan()")

    @JOverride
    def readableMetadata(self) -> str:
        try:
            listing = getattr(self.source, "list_readable_metadata", None)
            return json.dumps(dict(listing()) if callable(listing) else {})
        except Exception as e:
            return _error(e, self._name, "list_readable_metadata()")

    @JOverride
    def supportsNestedProjection(self) -> bool:
        ask = getattr(self.source, "supports_nested_projection", None)
        return bool(ask()) if callable(ask) else False

    @JOverride
    def supportsDynamicColumns(self) -> bool:
        return callable(getattr(self.source, "discover_column", None))

    @JOverride
    def discoverColumn(self, name: Any) -> str | None:
        try:
            found = self.source.discover_column(str(name))
            return None if found is None else str(found)
        except Exception as e:
            return _error(e, self._name, "discover_column()")

    @JOverride
    def supportsWriting(self) -> bool:
        return callable(getattr(self.source, "write", None))

    @JOverride
    def write(self, address: int, metadata_keys_json: Any) -> str | None:
        try:
            table = pa.RecordBatchReader._import_from_c(int(address)).read_all()
            keys = json.loads(str(metadata_keys_json))
            apply = getattr(self.source, "apply_writable_metadata", None)
            if keys and callable(apply):
                apply(keys)
            self.source.write(table)
            return None
        except Exception as e:
            return _error(e, self._name, "write()")


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


def load_source_class(spec: str, allowed: list[str]) -> Any:
    """The class named ``'package.module:Name'``, from a module the user allowed.

    Nothing is imported for a name that comes from SQL unless its module, or a package above
    it, is listed in ``python.allowed-modules``.
    """
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"'class' must look like 'package.module:Name', got {spec!r}")
    if not any(module == a or module.startswith(a + ".") for a in allowed):
        raise PermissionError(
            f"module {module!r} is not allowed; add it to 'python.allowed-modules' "
            f"(now: {';'.join(allowed) or 'empty'})"
        )
    import importlib

    return getattr(importlib.import_module(module), name)


@JImplements("io.calcitebridge.connector.ConnectorFactory", deferred=True)
class ConnectorFactory:
    """Creates the sources of connectors written in Python, for tables declared in DDL."""

    CONNECTORS = ("filesystem", "python")

    def __init__(self, allowed_modules: Callable[[], list[str]] | None = None) -> None:
        self._allowed: Callable[[], list[str]] = allowed_modules or list

    @JOverride
    def connectors(self) -> str:
        return ",".join(self.CONNECTORS)

    @JOverride
    def create(self, connector: Any, table: Any, options_json: Any, schema_address: int) -> Any:
        connector, table = str(connector), str(table)
        if connector not in self.CONNECTORS:
            return None
        try:
            options = json.loads(str(options_json))
            schema = pa.Schema._import_from_c(int(schema_address))
            source: Any
            if connector == "python":
                if "class" not in options:
                    raise ValueError("the python connector needs the option 'class'")
                cls = load_source_class(options["class"], list(self._allowed()))
                source = cls(schema, options)
            else:
                if "path" not in options:
                    raise ValueError("the filesystem connector needs the option 'path'")
                source = FileSystemSource(
                    options["path"],
                    options.get("format", "parquet"),
                    schema=schema,
                    options=options,
                )
        except Exception as e:
            source = _Failed(e)
        return SourceProxy(table, source)
