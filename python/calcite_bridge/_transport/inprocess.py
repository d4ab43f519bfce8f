"""The in-process transport: the JVM runs inside this process, reached through JPype, and
results cross the Arrow C Data Interface without copies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa

from . import jvm


def _import_stream(handle: Any) -> pa.RecordBatchReader:
    try:
        return pa.RecordBatchReader._import_from_c(int(handle.address()))
    finally:
        handle.close()


class JPypeSession:
    """A ``BridgeSession`` in this process's JVM (started on first use)."""

    def __init__(self) -> None:
        self._java = jvm.new_session()
        self._proxies: dict[str, Any] = {}  # Java holds them through JPype; keep them alive
        self._factory: Any = None

    def run(self, sql: str, query_only: bool) -> tuple[pa.RecordBatchReader, str]:
        java = self._java
        handle = jvm.wait(java.query(sql) if query_only else java.execute(sql), sql)
        return _import_stream(handle), str(handle.kind())

    def validate(self, sql: str) -> pa.Schema:
        return _import_stream(jvm.wait(self._java.validate(sql), sql)).schema

    def explain(self, sql: str, format: str) -> str:
        return str(jvm.wait(self._java.explain(sql, format), sql))

    def execute_script(self, sql: str) -> int:
        return int(jvm.wait(self._java.executeScript(sql), sql))

    def set_config(self, key: str, value: str) -> None:
        jvm.call(self._java.setConfig, key, value)

    def get_config(self, key: str) -> str:
        return str(jvm.call(self._java.getConfig, key))

    def reset_config(self, key: str | None) -> None:
        jvm.call(self._java.resetConfig, key)

    def config_entries(self) -> list[str]:
        return [str(e) for e in jvm.call(self._java.configEntries)]

    def table_names(self) -> list[str]:
        return [str(n) for n in jvm.call(self._java.tableNames)]

    def register_source(self, name: str, source: Any, replace: bool) -> None:
        from ..sources._glue import SourceProxy

        proxy = SourceProxy(name, source)
        jvm.call(self._java.registerSource, name, proxy, replace)
        self._proxies[name] = proxy

    def set_connector_factory(self, allowed_modules: Callable[[], list[str]]) -> None:
        from ..sources._glue import ConnectorFactory

        self._factory = ConnectorFactory(allowed_modules)
        jvm.call(self._java.setConnectorFactory, self._factory)

    def close(self) -> None:
        jvm.call(self._java.close)
