"""Python sources declared in DDL (``'connector' = 'python'``), with metadata read and written."""

from __future__ import annotations

import pyarrow as pa
import pytest
from tests.helpers.sink import MetadataSink

import calcite_bridge as cb
from calcite_bridge.sources import ScanRequest

DDL = """CREATE TABLE s (id INT, name STRING,
    origin STRING METADATA,
    pos BIGINT METADATA FROM 'offset' VIRTUAL)
  WITH ('connector' = 'python', 'class' = 'tests.helpers.sink:MetadataSink')"""


@pytest.fixture(autouse=True)
def _clean() -> None:
    MetadataSink.written.clear()
    MetadataSink.read_keys.clear()


def test_class_loads_only_from_allowed_modules(env: cb.Environment) -> None:
    with pytest.raises(cb.AccessDeniedError, match=r"python\.allowed-modules"):
        env.execute(DDL)
    assert "s" not in env.tables()


def test_metadata_is_written_by_key_and_read_back(env: cb.Environment) -> None:
    env.config.set("python.allowed-modules", ["tests.helpers"])
    env.execute(DDL)
    env.execute("INSERT INTO s VALUES (1, 'a', 'web'), (2, NULL, NULL)")
    keys, table = MetadataSink.written[0]
    assert keys == ["origin"]
    assert table.column_names == ["id", "name", "origin"]
    env.config.set("table.column-expansion-strategy", "EXCLUDE_PERSISTED_METADATA_COLUMNS")
    assert env.sql("SELECT * FROM s").columns == ["id", "name", "pos"]
    assert env.sql("SELECT id, origin, pos FROM s ORDER BY id").fetchall() == [
        (1, "web", 0),
        (2, None, 1),
    ]


def test_unknown_metadata_key_lists_the_offered_ones(env: cb.Environment) -> None:
    env.config.set("python.allowed-modules", "tests.helpers")
    with pytest.raises(cb.SqlValidationError, match="offers: origin, offset"):
        env.execute(
            "CREATE TABLE s (id INT, k STRING METADATA FROM 'nope') "
            "WITH ('connector' = 'python', 'class' = 'tests.helpers.sink:MetadataSink')"
        )


class _Hooked:
    """Records the hooks the engine calls before a scan."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self.table = pa.table({"id": [1, 2, 3, None]})

    def schema(self) -> pa.Schema:
        return self.table.schema

    def list_readable_metadata(self) -> dict[str, str]:
        return {"part": "STRING"}

    def apply_limit(self, limit: int) -> None:
        self.calls.append(("limit", limit))

    def apply_readable_metadata(self, keys: list[str]) -> None:
        self.calls.append(("metadata", keys))

    def scan(self, request: ScanRequest) -> pa.Table:
        out = self.table.select(list(request.columns or self.table.column_names))
        for key in request.metadata_keys:
            out = out.append_column(key, pa.array(["p0"] * out.num_rows, pa.string()))
        return out


def test_limit_and_metadata_hooks_are_called_before_the_scan(env: cb.Environment) -> None:
    source = _Hooked()
    env.register_source("h", source)
    assert len(env.sql("SELECT id FROM h LIMIT 2").fetchall()) == 2
    assert source.calls == [("limit", 2)]
    source.calls.clear()
    assert env.sql("SELECT id FROM h").fetchall() == [(1,), (2,), (3,), (None,)]
    assert source.calls == []


def test_readable_metadata_hook_names_the_keys_read(env: cb.Environment) -> None:
    env.config.set("python.allowed-modules", ["tests.helpers"])
    env.execute(DDL)
    env.execute("INSERT INTO s VALUES (1, 'a', 'web')")
    assert env.sql("SELECT id, pos FROM s").fetchall() == [(1, 0)]
    assert MetadataSink.read_keys[-1] == ["offset"]


def test_insert_of_an_unwritable_metadata_key_fails_and_writes_nothing(
    env: cb.Environment,
) -> None:
    env.config.set("python.allowed-modules", ["tests.helpers"])
    env.execute(
        "CREATE TABLE w (id INT, pos BIGINT METADATA FROM 'offset') "
        "WITH ('connector' = 'python', 'class' = 'tests.helpers.sink:MetadataSink')"
    )
    with pytest.raises(cb.SourceError, match=r"cannot write metadata key.*offset.*writes: origin"):
        env.execute("INSERT INTO w VALUES (1, 7)")
    assert MetadataSink.written == []
