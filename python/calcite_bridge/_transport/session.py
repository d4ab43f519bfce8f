"""What an Environment needs from the JVM, whichever way it is reached.

Two transports implement ``Session``: ``inprocess.JPypeSession`` (the JVM inside this process,
results through the Arrow C Data Interface without copies) and ``gateway.Py4JSession`` (a JVM
in another process, through a py4j gateway, results as Arrow IPC bytes). The Environment, the
Config, the Table API and Result are the same for both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from .._params import Values
from ..sources.sandbox import SandboxGetter

if TYPE_CHECKING:
    import pyarrow as pa


class Session(Protocol):
    """One catalog and configuration in the JVM. Every failure is an ``errors.Error``."""

    def run(
        self,
        sql: str,
        query_only: bool,
        backend: str | None = None,
        timeout: str | None = None,
        params: Values | None = None,
    ) -> tuple[pa.RecordBatchReader, str]:
        """Runs a statement: its rows, and what ran (``query``, ``insert``, ``ddl``, ...).
        ``backend`` overrides ``execution.backend`` for a query, ``timeout`` (a duration such
        as ``'30 s'``) ``execution.timeout`` for this statement; ``params`` are the values of
        its ``?`` placeholders (``_params.Values``)."""
        ...

    def validate(self, sql: str) -> pa.Schema: ...

    def explain(
        self, sql: str, format: str, backend: str | None = None, params: Values | None = None
    ) -> str: ...

    def parameter_types(self, sql: str) -> str:
        """The placeholders of a query with their inferred types, as a JSON list."""
        ...

    def execute_script(self, sql: str) -> int: ...

    def check_script(self, sql: str, plans: bool) -> str:
        """A script's dry run, as the JSON list the JVM's ``checkScript`` answers."""
        ...

    def set_config(self, key: str, value: str) -> None: ...

    def get_config(self, key: str) -> str: ...

    def reset_config(self, key: str | None) -> None: ...

    def config_entries(self) -> list[str]:
        """Every setting as ``key=value``."""
        ...

    def table_names(self) -> list[str]: ...

    def register_source(self, name: str, source: Any, replace: bool) -> None: ...

    def set_connector_factory(self, sandbox: SandboxGetter) -> None:
        """Lets DDL declare ``filesystem`` and ``python`` tables, whose code runs here, within
        the environment's sandbox as ``sandbox()`` tells it at each call."""
        ...

    def close(self) -> None: ...
