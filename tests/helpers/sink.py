"""A Python source with metadata, for tables declared with ``'connector' = 'python'``."""

from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

from calcite_bridge.sources import ScanRequest


class MetadataSink:
    """Keeps written rows in memory; offers the metadata keys ``origin`` and ``offset``."""

    written: ClassVar[list[tuple[list[str], pa.Table]]] = []
    read_keys: ClassVar[list[list[str]]] = []

    def __init__(self, schema: pa.Schema, options: dict[str, str]) -> None:
        self._schema = schema
        self._keys: list[str] = []
        self.table = pa.table({"origin": pa.array([], pa.string())}).select([])

    def schema(self) -> pa.Schema:
        return self._schema

    def list_readable_metadata(self) -> dict[str, str]:
        return {"origin": "STRING", "offset": "BIGINT"}

    def list_writable_metadata(self) -> dict[str, str]:
        return {"origin": "STRING"}

    def apply_readable_metadata(self, keys: list[str]) -> None:
        MetadataSink.read_keys.append(list(keys))

    def apply_writable_metadata(self, keys: list[str]) -> None:
        self._keys = list(keys)

    def write(self, table: pa.Table) -> None:
        MetadataSink.written.append((self._keys, table))

    def scan(self, request: ScanRequest) -> Any:
        rows: dict[str, list[Any]] = {name: [] for name in request.columns or self._schema.names}
        meta: dict[str, list[Any]] = {key: [] for key in request.metadata_keys}
        offset = 0
        for _, table in MetadataSink.written:
            for row in table.to_pylist():
                for name, values in rows.items():
                    values.append(row[name])
                for key, values in meta.items():
                    values.append(offset if key == "offset" else row.get(key))
                offset += 1
        arrays = [pa.array(v, self._schema.field(n).type) for n, v in rows.items()]
        arrays += [
            pa.array(v, pa.int64() if k == "offset" else pa.string()) for k, v in meta.items()
        ]
        return pa.table(arrays, names=[*rows, *meta])
