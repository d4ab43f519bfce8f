"""Memory over 10,000 small queries in a row: RSS at the start, after 1,000 and at the end.

The queries cycle through a few small statements (queries with results, validate and
explain) over a registered Arrow table and a Python source, and drop every result. RSS is read
from /proc/self/status after a garbage collection. "Flat" means the growth from query 1,000 to
the end (once caches and the JIT have settled) stays under 5 % and under 32 MB.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from typing import Any

from _common import duck_table, record, rss_kb, started_env

MAX_GROWTH_FRACTION = 0.05
MAX_GROWTH_KB = 32 * 1024


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    from calcite_bridge.sources import ArrowTableSource

    total = 2_000 if quick else 10_000
    checkpoint = 1_000 if not quick else 500
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

    gc.collect()
    start = rss_kb()
    t0 = time.perf_counter()
    for i in range(checkpoint):
        one(i)
    gc.collect()
    after_checkpoint = rss_kb()
    trace = [round(start / 1024, 1), round(after_checkpoint / 1024, 1)]
    for i in range(checkpoint, total):
        one(i)
        if (i + 1) % checkpoint == 0 and i + 1 < total:
            gc.collect()
            trace.append(round(rss_kb() / 1024, 1))
    elapsed = time.perf_counter() - t0
    gc.collect()
    end = rss_kb()

    growth = end - after_checkpoint
    met = growth < MAX_GROWTH_KB and growth < MAX_GROWTH_FRACTION * after_checkpoint
    ours = {
        "rss_start_mb": round(start / 1024, 1),
        f"rss_after_{checkpoint}_mb": round(after_checkpoint / 1024, 1),
        "rss_end_mb": round(end / 1024, 1),
        f"growth_{checkpoint}_to_end_mb": round(growth / 1024, 1),
        f"rss_every_{checkpoint}_mb": [*trace, round(end / 1024, 1)],
        "queries": total,
        "mean_ms_per_query": round(elapsed / total * 1e3, 3),
    }
    yield record(
        "memory_10k_queries",
        ours,
        None,
        None,
        "MB",
        f"flat: growth after query {checkpoint} < 5% and < 32 MB",
        met,
        f"{total} statements cycling through {len(queries)} small ones "
        "(sql, validate, explain); RSS of the whole process (JVM included)",
    )
