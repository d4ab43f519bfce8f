"""The view of Python sources from a JVM in another process: py4j callback objects for the Java
interfaces ``RemoteSource`` and ``RemoteConnectorFactory``. Arrow data crosses as IPC stream
bytes (a copy: two processes share no memory), as bytes towards the JVM and as base64 text from
it (py4j decodes byte arrays a byte at a time); the calls themselves are in ``_calls``."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pyarrow as pa

from ._calls import CONNECTORS, SourceCalls, create_source
from .sandbox import SandboxGetter


def to_ipc(reader: pa.RecordBatchReader) -> bytes:
    """Every batch of ``reader`` as one Arrow IPC stream."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, reader.schema) as writer:
        for batch in reader:
            writer.write_batch(batch)
    return bytes(sink.getvalue().to_pybytes())


def _bytes_or_error(answer: bytes | str) -> bytes:
    return answer.encode() if isinstance(answer, str) else answer


class RemoteSourceProxy:
    """Adapts a Python source object to the JVM across processes."""

    def __init__(self, name: str, source: Any, gate: Callable[[], None] | None = None) -> None:
        self._calls = SourceCalls(name, source, gate)
        self.source = source

    def name(self) -> str:
        return self._calls.name

    def abilities(self) -> str:
        return json.dumps(self._calls.abilities())

    def schema(self) -> bytes:
        schema = self._calls.schema()
        if isinstance(schema, str):
            return schema.encode()
        return to_ipc(pa.RecordBatchReader.from_batches(schema, []))

    def applyFilters(self, filters_json: str) -> str:
        return self._calls.apply_filters(filters_json)

    def scan(self, request_json: str) -> bytes:
        return _bytes_or_error(self._calls.scan(request_json, to_ipc))

    def readableMetadata(self) -> str:
        return self._calls.readable_metadata()

    def discoverColumn(self, name: str) -> str | None:
        return self._calls.discover_column(name)

    def write(self, rows: str, metadata_keys_json: str) -> str | None:
        def table() -> pa.Table:
            return pa.ipc.open_stream(pa.py_buffer(base64.b64decode(rows))).read_all()

        return self._calls.write(table, metadata_keys_json)

    def overwrite(self, rows: str, metadata_keys_json: str) -> str | None:
        def table() -> pa.Table:
            return pa.ipc.open_stream(pa.py_buffer(base64.b64decode(rows))).read_all()

        return self._calls.overwrite(table, metadata_keys_json)

    class Java:
        implements = ("io.calcitebridge.gateway.RemoteSource",)


class RemoteConnectorFactory:
    """Creates the sources of connectors written in Python, for tables declared in DDL."""

    def __init__(self, sandbox: SandboxGetter) -> None:
        self._sandbox = sandbox

    def connectors(self) -> str:
        return ",".join(CONNECTORS)

    def create(self, connector: str, table: str, options_json: str, schema: str) -> Any:
        made = create_source(
            connector,
            options_json,
            lambda: pa.ipc.open_stream(pa.py_buffer(base64.b64decode(schema))).schema,
            self._sandbox,
        )
        return None if made is None else RemoteSourceProxy(table, *made)

    class Java:
        implements = ("io.calcitebridge.gateway.RemoteConnectorFactory",)
