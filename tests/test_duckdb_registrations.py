"""A source's Arrow table stays registered in DuckDB between statements of a thread (so a
repeated query pays no registration), and that never shows stale rows or keeps memory alive:
the tables of a thread's cursor are let go when a table is registered or dropped, when the
environment closes, when a statement fails, and when a later statement reads other scans."""

from __future__ import annotations

import gc
import threading
import time

import pyarrow as pa
import pytest

import calcite_bridge as cb

SUM = "SELECT SUM(v) AS s, COUNT(*) AS n FROM t"


def _table(values: list[int | None]) -> pa.Table:
    return pa.table({"k": pa.array(range(len(values)), pa.int64()), "v": pa.array(values)})


def test_a_repeated_query_reads_the_table_registered_last() -> None:
    with cb.connect(backend="duckdb") as env:
        env.register_arrow("t", _table([1, 2, None]))
        assert env.sql(SUM).to_pylist() == [{"s": 3, "n": 3}]
        assert env.sql(SUM).to_pylist() == [{"s": 3, "n": 3}]
        env.register_arrow("t", _table([10, None]), replace=True)
        assert env.sql(SUM).to_pylist() == [{"s": 10, "n": 2}]


def test_tables_and_column_choices_alternate_without_mixing() -> None:
    with cb.connect(backend="duckdb") as env:
        env.register_arrow("a", _table([1, 2]))
        env.register_arrow("b", _table([100, None, 300]))
        for _ in range(3):
            assert env.sql("SELECT SUM(v) AS s FROM a").to_pylist() == [{"s": 3}]
            assert env.sql("SELECT SUM(v) AS s FROM b").to_pylist() == [{"s": 400}]
            assert env.sql("SELECT SUM(k) AS s FROM b").to_pylist() == [{"s": 3}]
            rows = env.sql(
                "SELECT a.v AS x, b.v AS y FROM a JOIN b ON a.k = b.k ORDER BY x"
            ).to_pylist()
            assert rows == [{"x": 1, "y": 100}, {"x": 2, "y": None}]
            assert env.sql("SELECT v FROM a ORDER BY v DESC LIMIT 1").to_pylist() == [{"v": 2}]


def test_two_environments_with_a_table_of_the_same_name() -> None:
    with cb.connect(backend="duckdb") as one, cb.connect(backend="duckdb") as two:
        one.register_arrow("t", _table([1]))
        two.register_arrow("t", _table([5, 6]))
        for _ in range(2):
            assert one.sql(SUM).to_pylist() == [{"s": 1, "n": 1}]
            assert two.sql(SUM).to_pylist() == [{"s": 11, "n": 2}]


def test_a_failed_statement_leaves_the_next_one_right() -> None:
    with cb.connect(backend="duckdb") as env:
        env.register_arrow("t", _table([1, 0]))
        assert env.sql(SUM).to_pylist() == [{"s": 1, "n": 2}]
        with pytest.raises(cb.ExecutionError, match="Division by zero"):
            env.sql("SELECT SUM(10 / v) AS s FROM t").to_pylist()
        assert env.sql(SUM).to_pylist() == [{"s": 1, "n": 2}]


@pytest.mark.parametrize("how", ["replace", "drop", "close"])
def test_the_kept_registration_does_not_hold_a_dropped_tables_memory(how: str) -> None:
    env = cb.connect(backend="duckdb")
    # Earlier tests' buffers may still be waiting for a collection: let them go first, so the
    # baseline does not fall while this test runs.
    _collect()
    before = pa.total_allocated_bytes()
    try:
        big = pa.table({"v": pa.array(range(2_000_000), pa.int64())})  # 16 MB from the pool
        env.register_arrow("t", big)
        del big
        assert env.sql("SELECT COUNT(*) AS n FROM t").to_pylist() == [{"n": 2_000_000}]
        assert pa.total_allocated_bytes() - before >= 15_000_000
        if how == "replace":
            env.register_arrow("t", _table([1]), replace=True)
        elif how == "drop":
            env.execute("DROP TABLE t")
        if how == "close":
            env.close()
        assert _allocated_after_collecting(before) < 1_000_000
    finally:
        env.close()


def _collect() -> None:
    import jpype

    jpype.java.lang.System.gc()
    time.sleep(0.2)  # the JVM lets go of the proxies in its reference queue
    gc.collect()


def _allocated_after_collecting(before: int) -> int:
    """The bytes allocated since ``before`` once both garbage collectors have run: the JVM holds
    a Python source until its proxy is collected and its reference queue is processed, which a
    loaded machine may take a while to do, so this collects again (for at most 60 s) until the
    memory is back."""

    deadline = time.monotonic() + 60
    while True:
        _collect()
        allocated = pa.total_allocated_bytes() - before
        if allocated < 1_000_000 or time.monotonic() > deadline:
            return allocated


def test_threads_keep_their_own_registrations() -> None:
    with cb.connect(backend="duckdb") as env:
        env.register_arrow("a", _table([1, 2]))
        env.register_arrow("b", _table([7, None, 9]))
        failures: list[object] = []

        def work(name: str, expected: int) -> None:
            try:
                for _ in range(20):
                    got = env.sql(f"SELECT SUM(v) AS s FROM {name}").to_pylist()
                    assert got == [{"s": expected}], got
            except BaseException as e:
                failures.append(e)

        threads = [threading.Thread(target=work, args=a) for a in [("a", 3), ("b", 16)] * 2]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
