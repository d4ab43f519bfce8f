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


@pytest.mark.jpype_only(reason="counts the Python threads and JVM workers of this process")
def test_many_statements_leave_no_threads_behind(env: cb.Environment) -> None:
    # Issue 30: after 2,000 statements the process kept 18 Python threads (2 at the start).
    # Each Python thread that had run a statement came back in threading.enumerate() as a dummy
    # thread as it ended, and the worker pool started a new JVM thread for each of its first 64
    # statements, even one at a time.
    import gc

    import jpype

    def workers() -> list[str]:
        names = [
            str(t.getName()) for t in jpype.JClass("java.lang.Thread").getAllStackTraces().keySet()
        ]
        return [n for n in names if n.removeprefix("calcite-bridge-").isdigit()]

    env.register_arrow("t", DATA)
    env.sql("SELECT COUNT(*) FROM t").fetchall()
    before = {t.ident for t in threading.enumerate()}
    # The JVM is this test process's: workers of statements that ran before this test (in
    # other test files) live on until 30 s idle, and count here too.
    idle_before = workers()

    def work(i: int) -> None:
        for j in range(2):
            assert env.sql(f"SELECT SUM(v) + {i * 2 + j} FROM t WHERE k = 3").fetchall() == [
                (expected_sum(3) + i * 2 + j,)
            ]

    for batch in range(4):
        threads = [threading.Thread(target=work, args=(batch * 10 + i,)) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for i in range(100):  # one at a time: one worker answers them all
        assert env.sql(f"SELECT COUNT(*) + {i} FROM t", backend="enumerable").fetchall() == [
            (N + i,)
        ]
    gc.collect()
    left = [t.name for t in threading.enumerate() if t.ident not in before]
    assert left == [], left
    # 10 statements ran at once above; one at a time needs no more threads. (A worker counts as
    # busy until just after its caller has seen its result, so a statement submitted in that
    # moment may start one more: a few beyond the 10, not one per statement.)
    now = workers()
    assert len(set(now) - set(idle_before)) <= 14 and len(now) <= 14 + len(idle_before), (
        sorted(idle_before),
        sorted(now),
    )


def test_a_hundred_statements_at_once_on_calcites_engine_all_answer(
    connect: Callable[..., cb.Environment],
) -> None:
    # Issue 30: 100 statements at once on `enumerable` did not finish in 200 s. They share the
    # 64 workers and the cores; each must answer, and correctly.
    env = connect(config={"execution.backend": "enumerable"})
    env.register_arrow("t", DATA)

    def work(i: int) -> list[tuple[object, ...]]:
        return env.sql(
            f"SELECT k, SUM(v) + {i} AS s FROM t WHERE v >= 0 GROUP BY k ORDER BY k"
        ).fetchall()

    with ThreadPoolExecutor(100) as pool:
        results = list(pool.map(work, range(100)))
    for i, rows in enumerate(results):
        assert rows == [(k, expected_sum(k) + i) for k in range(7)]
