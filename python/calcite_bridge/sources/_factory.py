"""The JVM's view of the connectors written in Python: a JPype proxy of the Java interface
``ConnectorFactory``. Light to import: the connectors' code (and pyarrow's CSV, JSON and Parquet
modules) is imported when DDL first creates a table of one of them, not when an environment
connects."""

from __future__ import annotations

from typing import Any

from jpype import JImplements, JOverride

from .sandbox import CONNECTORS, UNCONFINED, SandboxGetter


@JImplements("io.calcitebridge.connector.ConnectorFactory", deferred=True)
class ConnectorFactory:
    """Creates the sources of connectors written in Python, for tables declared in DDL."""

    CONNECTORS = CONNECTORS

    def __init__(self, sandbox: SandboxGetter | None = None) -> None:
        self._sandbox: SandboxGetter = sandbox or (lambda: UNCONFINED)

    @JOverride
    def connectors(self) -> str:
        return ",".join(self.CONNECTORS)

    @JOverride
    def create(self, connector: Any, table: Any, options_json: Any, schema_address: int) -> Any:
        import pyarrow as pa

        from ._calls import create_source
        from ._glue import SourceProxy

        made = create_source(
            str(connector),
            str(options_json),
            lambda: pa.Schema._import_from_c(int(schema_address)),
            self._sandbox,
        )
        return None if made is None else SourceProxy(str(table), *made)
