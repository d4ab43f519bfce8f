"""Memory over 10,000 small queries in a row: RSS and what makes it up, at every 1,000th.

The queries cycle through a few small statements (queries with results, validate and
explain) over a registered Arrow table and a Python source, and drop every result. At each
checkpoint Python and the JVM collect garbage, then the benchmark reads RSS from
/proc/self/status, Python's allocated blocks, and the JVM's heap, metaspace and JIT code cache.

"Flat" means nothing grows steadily over 10,000 statements once 5,000 have filled the caches
and let the JIT and the native allocators settle (a 40,000-statement run showed RSS still
rising by about 2 MB per 1,000 statements up to 5,000, then by under 0.3 MB): over the 10,000,
Python's allocated blocks grow by under 0.1 per statement, the JVM heap after a collection and
its metaspace by under 5 % (or 2 MB) each, and RSS, less the JIT code cache, by under 5 % and
under 32 MB. The code cache is left out because it is bounded
(``-XX:ReservedCodeCacheSize``) and grows only while the JIT compiles more of the planner.
No Java ``long`` crosses into Python per statement: JPype 1.7.1 leaks the Python int of each
one it passes to Python (jpype-project/jpype#1379), so sources get their scan's C struct as a
Java object.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Iterator
from typing import Any

from _common import duck_table, record, rss_kb, started_env

MAX_GROWTH_FRACTION = 0.05
MAX_GROWTH_MB = 32.0
MAX_BLOCKS_PER_STATEMENT = 0.1
# The heap and metaspace are small (metaspace is ~9 MB with the class-data-sharing archive, which
# holds the classes a first query loads), so their bound is at least this much.
MIN_BOUND_MB = 2.0


def _jvm_mb() -> dict[str, float]:
    """Heap used after a full collection, metaspace and code cache, in MB."""
    import jpype

    factory = jpype.JClass("java.lang.management.ManagementFactory")
    jpype.JClass("java.lang.System").gc()
    mb = 1024.0 * 1024.0
    out = {"heap": factory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / mb}
    out["metaspace"] = out["code_cache"] = 0.0
    for pool in factory.getMemoryPoolMXBeans():
        name = str(pool.getName())
        if name == "Metaspace":
            out["metaspace"] += pool.getUsage().getUsed() / mb
        elif name.startswith("CodeHeap"):
            out["code_cache"] += pool.getUsage().getUsed() / mb
    return out


def _sample() -> dict[str, float]:
    gc.collect()
    jvm = _jvm_mb()
    return {
        "rss": rss_kb() / 1024,
        "py_blocks": float(sys.getallocatedblocks()),
        **jvm,
    }


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    from calcite_bridge.sources import ArrowTableSource

    total = 2_000 if quick else 10_000
    checkpoint = 1_000 if not quick else 500
    warmup = 1_000 if quick else 5_000
    env = started_env()
    env.register_arrow("small", duck_table("SELECT range::BIGINT AS id FROM range(1000)"))
    env.register_source(
        "users",
        ArrowTableSource(
            duck_table(
                "SELECT range::BIGINT AS id, struct_pack(name := 'n' || range, "
                'age := (range % 90)::INTEGER) AS "user" FROM range(1000)'
            )
        ),
    )
    queries = [("sql", f"SELECT id FROM small WHERE id < {k}") for k in (10, 20, 30, 40)] + [
        ("sql", "SELECT id, `user`.name AS name FROM users WHERE `user`.age < 3"),
        ("sql", "SELECT COUNT(*) AS c FROM small"),
        ("validate", "SELECT u.id FROM users u JOIN small s ON u.id = s.id"),
        ("explain", "SELECT id FROM users WHERE `user`.age < 30"),
    ]

    def one(i: int) -> None:
        kind, sql = queries[i % len(queries)]
        if kind == "sql":
            env.sql(sql).to_arrow_table()
        elif kind == "validate":
            env.validate(sql)
        else:
            env.explain(sql)

    start = _sample()
    for i in range(warmup):
        one(i)
    samples = [_sample()]
    t0 = time.perf_counter()
    for i in range(total):
        one(i)
        if (i + 1) % checkpoint == 0:
            samples.append(_sample())
    elapsed = time.perf_counter() - t0

    warm, end = samples[0], samples[-1]

    def growth(key: str) -> float:
        return end[key] - warm[key]

    native = growth("rss") - growth("code_cache")
    met = (
        growth("py_blocks") < MAX_BLOCKS_PER_STATEMENT * total
        and growth("heap") < max(MAX_GROWTH_FRACTION * warm["heap"], MIN_BOUND_MB)
        and growth("metaspace") < max(MAX_GROWTH_FRACTION * warm["metaspace"], MIN_BOUND_MB)
        and native < min(MAX_GROWTH_MB, MAX_GROWTH_FRACTION * warm["rss"])
    )

    def series(key: str) -> list[float]:
        return [round(s[key], 1) for s in samples]

    ours = {
        "rss_start_mb": round(start["rss"], 1),
        f"rss_after_{warmup}_warmup_mb": round(warm["rss"], 1),
        "rss_end_mb": round(end["rss"], 1),
        "growth_mb": round(growth("rss"), 1),
        "growth_less_code_cache_mb": round(native, 1),
        f"rss_every_{checkpoint}_mb": series("rss"),
        "jvm_heap_after_gc_mb": series("heap"),
        "jvm_metaspace_mb": series("metaspace"),
        "jvm_code_cache_mb": series("code_cache"),
        "python_blocks": [int(s["py_blocks"]) for s in samples],
        "queries": total,
        "mean_ms_per_query": round(elapsed / total * 1e3, 3),
    }
    yield record(
        "memory_10k_queries",
        ours,
        None,
        None,
        "MB",
        f"flat over {total} statements after {warmup}: Python blocks < 1 per statement, "
        "JVM heap and metaspace < 5% (or 2 MB), RSS less the JIT code cache < 5% and < 32 MB",
        met,
        f"{total} statements, after {warmup} warm-up ones, cycling through {len(queries)} "
        "small ones (sql, validate, explain); RSS of the whole process (JVM included); "
        "every checkpoint collects garbage in Python and the JVM first",
    )
