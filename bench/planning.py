"""Planning cost per statement early in a process: validate and explain of a new text each time,
after 30 + 300 statements (the state a notebook or a CLI session reaches), beside DuckDB's
PREPARE and EXPLAIN of the same texts in the same run.

The query is bench/warm.py's join of two registered Python sources with a nested filter the
users source accepts (`u.user.age < 30`), so explain covers validation, pushdown, the heuristic
passes, the cost-based pass and the translation for the backend. Each text adds a conjunct with
a constant of its own, so the plan cache never answers. The targets are issue 35's: 0.3 ms for a
validate and 1 ms for an explain.
"""

from __future__ import annotations

import itertools
import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from _common import duck_version, in_ms, record, started_env, time_ratio, timed
from warm import DUCK_JOIN, JOIN, distinct, join_tables

WARMUP = (30, 300)
"""Statements run before measuring: a first few, then a session's worth."""


def timed_with_thread_cpu(
    fn: Callable[[str], Any], texts: Iterator[int], count: int
) -> dict[str, Any]:
    """:func:`timed` of ``fn`` over ``count`` new texts, in ms, with the median CPU time of this
    (Python's) thread a statement: what Python and its crossings into the JVM cost, whatever
    the JVM's other threads do."""
    walls, cpus = [], []
    for _ in range(count):
        sql = distinct(JOIN, next(texts))
        cpu, wall = time.thread_time(), time.perf_counter()
        fn(sql)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
    ours = in_ms(
        {
            "median_s": statistics.median(walls),
            "min_s": min(walls),
            "max_s": max(walls),
            "runs": count,
        }
    )
    ours["python_thread_cpu_ms"] = round(statistics.median(cpus) * 1e3, 3)
    return ours


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    from calcite_bridge.sources import ArrowTableSource

    n = 10_000
    count = 100 if quick else 300
    users, orders = join_tables(n)
    env = started_env()
    env.register_source("users", ArrowTableSource(users))
    env.register_source("orders", ArrowTableSource(orders))
    pushed = "filter=[<(user.age, 30)]" in env.explain(JOIN)
    con = duckdb.connect()
    con.register("users", users)
    con.register("orders", orders)
    texts = itertools.count(1)
    for _ in range(sum(WARMUP)):
        env.validate(distinct(JOIN, next(texts)))
        env.explain(distinct(JOIN, next(texts)))

    operations = (
        ("validate", env.validate, lambda sql: con.execute("PREPARE q AS " + sql), "PREPARE", 0.3),
        (
            "explain",
            env.explain,
            lambda sql: con.execute("EXPLAIN " + sql).fetchall(),
            "EXPLAIN",
            1.0,
        ),
    )
    for op, ours_fn, peer_fn, peer_name, target in operations:
        ours = timed_with_thread_cpu(ours_fn, texts, count)
        peer = in_ms(
            timed(lambda f=peer_fn: f(distinct(DUCK_JOIN, next(texts))), count, 0, collect=False)
        )
        load = os.getloadavg()[0]
        yield record(
            f"planning_{op}_after_330",
            ours,
            {"name": f"{duck_version()} {peer_name}", **peer},
            time_ratio(ours["median_ms"], peer["median_ms"]),
            "ms",
            f"< {target:g} ms",
            ours["median_ms"] < target,
            f"{op} of the join, a new text each run ("
            f"{'pushed' if pushed else 'NOT pushed'} filter), the {count} statements after "
            f"{WARMUP[0]} + {WARMUP[1]} in a new process; load average {load:.1f}",
        )
