"""Python sources declared in DDL (``'connector' = 'python'``), with metadata read and written."""

from __future__ import annotations

import pytest
from tests.helpers.sink import MetadataSink

import calcite_bridge as cb

DDL = """CREATE TABLE s (id INT, name STRING,
    origin STRING METADATA,
    pos BIGINT METADATA FROM 'offset' VIRTUAL)
  WITH ('connector' = 'python', 'class' = 'tests.helpers.sink:MetadataSink')"""


@pytest.fixture(autouse=True)
def _clean() -> None:
    MetadataSink.written.clear()


def test_class_loads_only_from_allowed_modules(env: cb.Environment) -> None:
    with pytest.raises(cb.SourceError, match=r"python\.allowed-modules"):
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
