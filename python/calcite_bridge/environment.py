"""Environment: one catalog and configuration, and the statements run against them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from . import _jvm
from .config import Config, ConfigValue
from .errors import ConfigError
from .result import Result
from .table_api import Table
from .table_api import quote as _quote

_FORMATS = ("text", "json", "dot")


@dataclass(frozen=True)
class ColumnInfo:
    """One column of a table, as ``DESCRIBE`` lists it."""

    name: str
    data_type: str
    nullable: bool
    kind: str  # PHYSICAL, COMPUTED or METADATA
    metadata_key: str | None = None
    virtual: bool | None = None
    expression: str | None = None


def _import_stream(handle: Any) -> pa.RecordBatchReader:
    try:
        return pa.RecordBatchReader._import_from_c(int(handle.address()))
    finally:
        handle.close()


class Environment:
    """An independent catalog and configuration; every Environment shares the one JVM."""

    def __init__(self, config: Mapping[str, ConfigValue] | None = None) -> None:
        self._session = _jvm.new_session()
        self._sources: dict[str, Any] = {}
        from .sources._glue import ConnectorFactory

        self.config = Config(self._session)
        self._connectors = ConnectorFactory(self._allowed_modules)
        _jvm.call(self._session.setConnectorFactory, self._connectors)
        for key, value in (config or {}).items():
            self.config.set(key, value)

    def _allowed_modules(self) -> list[str]:
        value = self.config.get("python.allowed-modules")
        return [value] if isinstance(value, str) else value

    def _result(self, pending: Any, sql: str) -> Result:
        handle = _jvm.wait(pending, sql)
        return Result(_import_stream(handle), kind=str(handle.kind()), sql=sql)

    def execute(self, sql: str) -> Result:
        """Runs any statement (query, INSERT, DDL, SET, ...) and returns its rows."""
        return self._result(self._session.execute(sql), sql)

    def sql(self, sql: str) -> Result:
        """Runs a query (SELECT, WITH, VALUES) and returns its rows."""
        return self._result(self._session.query(sql), sql)

    def execute_script(self, sql: str) -> int:
        """Runs every statement of ``sql`` (separated by ``;``); returns how many ran."""
        return int(_jvm.wait(self._session.executeScript(sql), sql))

    def explain(self, sql: str, format: str = "text") -> str:
        """The optimized plan of a query or INSERT, as ``text``, ``json`` or ``dot``."""
        if format not in _FORMATS:
            raise ConfigError(f"Unknown explain format {format!r}; expected one of {_FORMATS}")
        return str(_jvm.wait(self._session.explain(sql, format), sql))

    def validate(self, sql: str) -> pa.Schema:
        """Validates a query and returns the schema of its result, without running it."""
        handle = _jvm.wait(self._session.validate(sql), sql)
        return _import_stream(handle).schema

    def describe(self, table: str) -> list[ColumnInfo]:
        """Every column of ``table`` with its kind, metadata key and expression."""
        rows = self.execute(f"DESCRIBE {_quote(table)}").to_pylist()
        return [
            ColumnInfo(
                name=r["name"],
                data_type=r["type"],
                nullable=r["nullable"],
                kind=r["kind"],
                metadata_key=r["metadata_key"],
                virtual=r["virtual"],
                expression=r["expression"],
            )
            for r in rows
        ]

    def table(self, name: str) -> Table:
        """A Table API view of table ``name``; fails now if there is no such table."""
        table = Table(self, _quote(name))
        self.validate(table.to_sql())
        return table

    def tables(self) -> list[str]:
        """Names of the tables and views, sorted."""
        return [str(n) for n in _jvm.call(self._session.tableNames)]

    def register_arrow(
        self,
        name: str,
        data: pa.Table | pa.RecordBatchReader | pa.RecordBatch | Iterable[pa.RecordBatch],
        *,
        replace: bool = False,
    ) -> None:
        """Registers Arrow data as table ``name``, queried in place.

        The table is a source that takes filters (nested ones too) and projections, so a query
        that only selects and filters gets Arrow's own batches back, without copies.
        """
        from .sources import ArrowTableSource

        table = _to_reader(data).read_all()
        self.register_source(name, ArrowTableSource(table), replace=replace)

    def register_source(self, name: str, source: Any, *, replace: bool = False) -> None:
        """Registers a Python source object as table ``name`` (DESIGN §7, §9).

        The source needs ``schema() -> pyarrow.Schema`` and ``scan(request)``; its abilities
        (``apply_filters``, ``supports_nested_filters``, ``write``, ...) are optional.
        """
        from .sources._glue import SourceProxy

        proxy = SourceProxy(name, source)
        _jvm.call(self._session.registerSource, name, proxy, replace)
        self._sources[name] = proxy

    def close(self) -> None:
        """Drops every table of this Environment."""
        _jvm.call(self._session.close)

    def __enter__(self) -> Environment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _to_reader(data: Any) -> pa.RecordBatchReader:
    if isinstance(data, pa.RecordBatchReader):
        return data
    if isinstance(data, pa.Table):
        return data.to_reader()
    if isinstance(data, pa.RecordBatch):
        return pa.RecordBatchReader.from_batches(data.schema, [data])
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data)
    batches = list(data)
    if not batches:
        raise ValueError("register_arrow needs at least one batch or a schema")
    return pa.RecordBatchReader.from_batches(batches[0].schema, batches)


def connect(config: Mapping[str, ConfigValue] | None = None) -> Environment:
    """A new Environment with its own catalog and configuration."""
    return Environment(config)
