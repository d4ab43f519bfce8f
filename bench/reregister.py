"""Tables rebuilt and re-registered in a loop, as a notebook does: each round builds a table of
200,000 rows from numpy arrays, registers it under the same name (replacing the last one) and
runs an aggregate with a filter over it, then builds a list of Python objects, as the user's own
code between statements does.

Two shapes: the table as numpy gives it (one chunk) and cut into batches of 10,000 rows (many
chunks). DuckDB's peer registers the same tables (``con.register``, which replaces) and runs the
same query, in the same process, the two loops alternating. Reported: the wall time of a whole
loop (median of the loops), the JVM's garbage collections during our loops (count and time, from
its collector beans) and the growth of the process's RSS over all the loops.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from _common import duck_version, record, rss_kb, started_env, time_ratio

ROWS = 200_000
QUERY = "SELECT tag, COUNT(*) AS n, AVG(score) AS mean FROM t WHERE id % 3 = 0 GROUP BY tag"


def _table(seed: int, chunk: int | None) -> Any:
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    table = pa.table(
        {
            "id": np.arange(ROWS),
            "score": rng.random(ROWS),
            "tag": rng.integers(0, 100, ROWS),
        }
    )
    if chunk is not None:
        table = pa.Table.from_batches(table.to_batches(max_chunksize=chunk))
    return table


def _jvm_collections() -> tuple[int, int]:
    """The JVM's collections so far: their count and their time in milliseconds."""
    import jpype

    beans = jpype.JClass("java.lang.management.ManagementFactory").getGarbageCollectorMXBeans()
    return (
        sum(int(b.getCollectionCount()) for b in beans),
        sum(int(b.getCollectionTime()) for b in beans),
    )


def _loop(
    register: Callable[[Any], None], query: Callable[[], Any], rounds: int, chunk: int | None
) -> float:
    t0 = time.perf_counter()
    for i in range(rounds):
        register(_table(i, chunk))
        rows = query()
        assert len(rows) == 100, len(rows)
        _ = [(j, str(j)) for j in range(20_000)]  # the user's own objects between statements
    return time.perf_counter() - t0


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    rounds, loops = (10, 2) if quick else (40, 3)
    env = started_env()
    con = duckdb.connect()
    for shape, chunk in (("one_chunk", None), ("many_chunks", 10_000)):
        ours: list[float] = []
        peer: list[float] = []
        gc.collect()
        rss0 = rss_kb()
        collections0 = _jvm_collections()
        for _ in range(loops):
            ours.append(
                _loop(
                    lambda t: env.register_arrow("t", t, replace=True),
                    lambda: env.sql(QUERY).fetchall(),
                    rounds,
                    chunk,
                )
            )
            peer.append(
                _loop(
                    lambda t: con.register("t", t), lambda: con.sql(QUERY).fetchall(), rounds, chunk
                )
            )
        collections1 = _jvm_collections()
        gc.collect()
        grown = (rss_kb() - rss0) / 1024
        median = statistics.median(ours)
        peer_median = statistics.median(peer)
        yield record(
            f"reregister_{shape}",
            {
                "loop_median_ms": round(median * 1e3, 1),
                "loops": loops,
                "rounds_per_loop": rounds,
                "jvm_collections": collections1[0] - collections0[0],
                "jvm_collection_ms": collections1[1] - collections0[1],
                "rss_growth_mb_both": round(grown, 1),
            },
            {"loop_median_ms": round(peer_median * 1e3, 1), "engine": duck_version()},
            time_ratio(median, peer_median),
            "ms",
            None,
            None,
            f"{rounds} rounds of a {ROWS:,}-row table built from numpy "
            f"({shape.replace('_', ' ')}), registered under one name and queried; the RSS growth "
            "covers both engines' loops",
        )
    env.close()
    con.close()
