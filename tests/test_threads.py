"""Queries from several Python threads at once, on one Environment and on separate ones."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa
import pytest

import calcite_bridge as cb

N = 2000
DATA = pa.table(
    {"k": pa.array([i % 7 for i in range(N)], pa.int64()), "v": pa.array(range(N), pa.int64())}
)


def expected_sum(k: int) -> int:
    return sum(v for v in range(N) if v % 7 == k)


def test_query_from_a_non_main_thread(env: cb.Environment) -> None:
    env.register_arrow("t", DATA)
    out: dict[str, object] = {}

    def work() -> None:
        try:
            out["rows"] = env.sql("SELECT k, SUM(v) FROM t WHERE k = 3 GROUP BY k").fetchall()
        except BaseException as e:  # reported below, in the main thread
            out["error"] = e

    th = threading.Thread(target=work)
    th.start()
    th.join()
    assert "error" not in out, out.get("error")
    assert out["rows"] == [(3, expected_sum(3))]


def test_six_threads_share_one_environment(env: cb.Environment) -> None:
    env.register_arrow("t", DATA)
    barrier = threading.Barrier(6)

    def work(k: int) -> list[tuple[object, ...]]:
        barrier.wait()
        results = []
        for _ in range(5):
            results.append(
                env.sql(
                    f"SELECT k, SUM(v) AS s, COUNT(*) AS n FROM t WHERE k = {k} GROUP BY k"
                ).fetchone()
            )
            # Compiled with a different plan each time too.
            results.append(env.sql(f"SELECT COUNT(*) FROM t WHERE v < {k * 100 + 1}").fetchone())
        return results

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(work, range(6)))
    for k, results in enumerate(answers):
        count_k = sum(1 for v in range(N) if v % 7 == k)
        assert results[0::2] == [(k, expected_sum(k), count_k)] * 5
        assert results[1::2] == [(k * 100 + 1,)] * 5


def test_six_threads_with_their_own_environments(
    connect: Callable[..., cb.Environment],
) -> None:
    barrier = threading.Barrier(6)

    def work(k: int) -> tuple[list[tuple[object, ...]], list[str]]:
        env = connect()
        try:
            # The same table name in every environment, with different contents.
            env.execute("CREATE TABLE t (a BIGINT, tag STRING) WITH ('connector' = 'memory')")
            barrier.wait()
            env.execute(f"INSERT INTO t VALUES ({k}, 'env{k}'), ({k * 10}, 'env{k}')")
            env.register_arrow("d", DATA)
            rows = env.sql("SELECT SUM(a), MIN(tag) FROM t").fetchall()
            rows += env.sql(f"SELECT SUM(v) FROM d WHERE k = {k}").fetchall()
            return rows, env.tables()
        finally:
            env.close()

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(work, range(6)))
    for k, (rows, tables) in enumerate(answers):
        assert rows == [(k * 11, f"env{k}"), (expected_sum(k),)]
        assert tables == ["d", "t"]


def test_threads_inserting_into_one_table(env: cb.Environment) -> None:
    env.execute("CREATE TABLE t (thread INT, i INT) WITH ('connector' = 'memory')")

    def work(k: int) -> None:
        for i in range(10):
            env.execute(f"INSERT INTO t VALUES ({k}, {i}), ({k}, {i + 100})")

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(work, range(6)))
    rows = env.sql("SELECT thread, COUNT(*), COUNT(DISTINCT i) FROM t GROUP BY thread").fetchall()
    assert sorted(rows) == [(k, 20, 20) for k in range(6)]
    total = env.sql("SELECT COUNT(*) FROM t").fetchone()
    assert total == (120,)


@pytest.mark.jpype_only(reason="counts the threads attached to the JVM inside this process")
def test_short_lived_threads_detach_from_the_jvm(env: cb.Environment) -> None:
    import gc

    import jpype

    java_thread = jpype.JClass("java.lang.Thread")

    def attached() -> int:
        """Java threads the JVM made for attached native threads ("Thread-N")."""
        names = [str(t.getName()) for t in java_thread.getAllStackTraces().keySet()]
        return sum(1 for n in names if n.startswith("Thread-"))

    before = attached()

    threads = [
        threading.Thread(target=env.validate, args=("SELECT 1",), name=f"short-lived-{i}")
        for i in range(20)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    gc.collect()
    assert attached() <= before
