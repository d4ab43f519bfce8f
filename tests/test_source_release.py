"""A table's Python source is let go as soon as the table no longer names it, without waiting
for the JVM's garbage collector, and the JVM's collector is not run by Python's: JPype's own hook
(a full collection of the JVM each time malloc's memory grew by 10 MB) is taken out of Python's
collector when this package starts the JVM."""

from __future__ import annotations

import gc
import json
import weakref
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import calcite_bridge as cb


class _Source:
    """A source that holds its table, so a weak reference to it says whether anything holds
    the table."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table

    def schema(self) -> pa.Schema:
        return self.table.schema

    def scan(self, request: Any) -> pa.RecordBatchReader:
        return self.table.to_reader()


def _jvm_collections() -> int:
    import jpype

    beans = jpype.JClass("java.lang.management.ManagementFactory").getGarbageCollectorMXBeans()
    return sum(int(b.getCollectionCount()) for b in beans)


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
@pytest.mark.parametrize("how", ["replace", "drop", "close"])
def test_a_source_is_let_go_when_its_table_no_longer_names_it(how: str, backend: str) -> None:
    env = cb.connect(backend=backend)
    try:
        source = _Source(pa.table({"v": pa.array([1, 2, None], pa.int64())}))
        env.register_source("t", source)
        assert env.sql("SELECT SUM(v) AS s FROM t").to_pylist() == [{"s": 3}]
        held = weakref.ref(source)
        del source
        gc.collect()
        assert held() is not None  # the table still names it
        if how == "replace":
            env.register_source(
                "t", _Source(pa.table({"v": pa.array([7], pa.int64())})), replace=True
            )
            assert env.sql("SELECT SUM(v) AS s FROM t").to_pylist() == [{"s": 7}]
        elif how == "drop":
            env.execute("DROP TABLE t")
            assert "t" not in env.tables()
        else:
            env.close()
        gc.collect()  # Python's collector only: the JVM's need not run
        assert held() is None, f"the source of a table after {how} is still held"
    finally:
        env.close()


def test_a_replaced_arrow_tables_memory_is_back_at_once() -> None:
    with cb.connect() as env:
        gc.collect()
        before = pa.total_allocated_bytes()
        env.register_arrow("t", pa.table({"v": pa.array(range(1_000_000), pa.int64())}))
        assert env.sql("SELECT COUNT(*) AS n FROM t").to_pylist() == [{"n": 1_000_000}]
        assert pa.total_allocated_bytes() - before >= 7_000_000
        env.register_arrow("t", pa.table({"v": [1]}), replace=True)
        gc.collect()
        assert pa.total_allocated_bytes() - before < 1_000_000


def test_a_statement_that_reaches_a_released_source_fails_as_on_a_dropped_table() -> None:
    from calcite_bridge.sources._glue import SourceProxy

    with cb.connect():  # the JVM's proxy class is made once the JVM runs
        proxy = SourceProxy("gone", _Source(pa.table({"v": [1]})))
        proxy.release()
        assert proxy.source is None
        answer = json.loads(proxy.exportSchema(0))
        assert answer["error"]["kind"] == "SOURCE"
        assert "Table 'gone' was replaced or dropped" in answer["error"]["message"]


def test_pythons_collector_runs_no_collection_of_the_jvm() -> None:
    import _jpype

    with cb.connect() as env:
        env.register_arrow("t", pa.table({"v": [1, 2]}))
        assert env.sql("SELECT SUM(v) AS s FROM t").to_pylist() == [{"s": 3}]
        assert _jpype._collect not in gc.callbacks
        before = _jvm_collections()
        kept = []
        for _ in range(20):  # 80 MB from malloc, collected by Python as it grows
            kept.append(np.ones(500_000))
            gc.collect()
        del kept
        gc.collect()
        # The JVM's own young collections may come from other threads' work: none here did,
        # and JPype's hook would have run a full one at every 10 MB.
        assert _jvm_collections() - before <= 1


def test_a_source_another_database_reads_is_kept_until_its_database_is_dropped() -> None:
    with cb.connect() as env:
        env.execute("CREATE DATABASE db1")
        env.execute("USE db1")
        first = _Source(pa.table({"v": pa.array([1, 2], pa.int64())}))
        env.register_source("t", first)
        env.execute("USE default_database")
        second = _Source(pa.table({"v": pa.array([10], pa.int64())}))
        env.register_source("t", second)  # the same name in another database
        env.register_source("t", _Source(pa.table({"v": pa.array([5], pa.int64())})), replace=True)
        held_first, held_second = weakref.ref(first), weakref.ref(second)
        del first, second
        env.execute("CREATE TABLE other (a INT)")
        env.execute("DROP TABLE other")
        gc.collect()
        assert held_first() is not None  # db1's t still reads it
        assert held_second() is None  # replaced
        assert env.sql("SELECT SUM(v) AS s FROM db1.t").to_pylist() == [{"s": 3}]
        assert env.sql("SELECT SUM(v) AS s FROM t").to_pylist() == [{"s": 5}]
        env.execute("DROP DATABASE db1 CASCADE")
        gc.collect()
        assert held_first() is None
