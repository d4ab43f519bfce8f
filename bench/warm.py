"""Warm planning and a small query: validate, explain and execute in a short session and a long one.

The query joins two registered Python sources with a nested filter (`u.user.age < 30`) that
the users source accepts, so explain covers validation, pushdown and Volcano planning.
DuckDB's peers over the same Arrow tables: PREPARE (parse, bind, optimize), EXPLAIN, and
running the small query to an Arrow table.

One session runs statement after statement, each a new SQL text (the same query with another
constant in a filter that keeps every row), so each is parsed, validated, optimized and
translated: the plan cache misses. Each round runs one validate, one explain and one execute,
as a notebook or the CLI interleaves them, and DuckDB's peers beside them. `_after_30` figures
are the medians of rounds 30 to 330 in the new process, the warm state a short session
reaches; the plain figures those of rounds 3,000 to 3,300, once the JIT has compiled the
planner. The `_cached` figures repeat one text of the same form, which the plan cache answers
after its first run (a run still opens its scans).

The Java and the start-up cache (on Java 25 an AOT cache that carries the JIT's profiles) are
whatever the install chooses; `bench/run.py --java bundled` runs on the jdk extra's.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from _common import (
    as_table,
    duck_table,
    duck_version,
    in_ms,
    pyflink_note,
    record,
    started_env,
    time_ratio,
    timed,
)

JOIN = (
    "SELECT u.id, u.`user`.name, o.amount FROM users u JOIN orders o ON u.id = o.uid "
    "WHERE u.`user`.age < 30"
)
DUCK_JOIN = (
    'SELECT u.id, u."user".name, o.amount FROM users u JOIN orders o ON u.id = o.uid '
    'WHERE u."user".age < 30'
)
SMALL = "SELECT id, `user`.name AS name FROM users WHERE `user`.age < 30 AND id < 100"
DUCK_SMALL = 'SELECT id, "user".name AS name FROM users WHERE "user".age < 30 AND id < 100'


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    from calcite_bridge.sources import ArrowTableSource

    n = n_users = 10_000
    users, orders = join_tables(n)
    env = started_env()
    env.register_source("users", ArrowTableSource(users))
    env.register_source("orders", ArrowTableSource(orders))
    plan = env.explain(JOIN)
    pushed = "filter=[<(user.age, 30)]" in plan

    con = duckdb.connect()
    con.register("users", users)
    con.register("orders", orders)
    rows = env.sql(SMALL).to_arrow_table().num_rows
    assert rows == env.sql(distinct(SMALL, 0)).to_arrow_table().num_rows

    flink = pyflink_note() or "PyFlink installed but not measured here."
    from calcite_bridge._transport import jvm

    java = f"Java {jvm.java_version(jvm.find_jvm())}, start-up cache {jvm.cache_mode()}"
    texts = itertools.count(1)

    # (name, our call, DuckDB's peer call, peer name, what is measured, targets in ms after 30
    # rounds and after 3,000)
    operations: list[
        tuple[str, Callable[[str], Any], Callable[[str], Any], str, str, tuple[float, float] | None]
    ]
    operations = [
        (
            "validate",
            env.validate,
            lambda sql: con.execute("PREPARE q AS " + sql),
            "PREPARE",
            "validate of the join query",
            (0.3, 1.0),
        ),
        (
            "explain",
            env.explain,
            lambda sql: con.execute("EXPLAIN " + sql).fetchall(),
            "EXPLAIN",
            "explain of the join with the nested filter pushed into the scan "
            f"({'pushed' if pushed else 'NOT pushed'})",
            (1.0, 3.0),
        ),
        (
            "execute",
            lambda sql: env.sql(sql).to_arrow_table(),
            lambda sql: as_table(con.sql(sql).arrow()),
            ".arrow()",
            f"small query to an Arrow table ({rows} rows) over the users source",
            None,
        ),
    ]
    queries = {"validate": JOIN, "explain": JOIN, "execute": SMALL}
    peers = {JOIN: DUCK_JOIN, SMALL: DUCK_SMALL}
    short, steady, count = (30, 1_000, 100) if quick else (30, 3_000, 300)
    windows = {"_after_30": range(short, short + count), "": range(steady, steady + count)}
    samples: dict[tuple[str, str, str], list[float]] = {}
    for i in range(steady + count):
        window = next((w for w, r in windows.items() if i in r), None)
        for op, ours_fn, peer_fn, _, _, _ in operations:
            n = next(texts)
            for side, fn, sql in (
                ("ours", ours_fn, queries[op]),
                ("peer", peer_fn, peers[queries[op]]),
            ):
                text = distinct(sql, n)
                t0 = time.perf_counter()
                fn(text)
                took = time.perf_counter() - t0
                if window is not None:
                    samples.setdefault((op, window, side), []).append(took)

    def stats(times: list[float]) -> dict[str, Any]:
        return in_ms(
            {
                "median_s": statistics.median(times),
                "min_s": min(times),
                "max_s": max(times),
                "runs": len(times),
            }
        )

    for suffix, rounds in windows.items():
        for op, _, _, peer_name, what, targets in operations:
            ours, peer = stats(samples[(op, suffix, "ours")]), stats(samples[(op, suffix, "peer")])
            target = None if targets is None else targets[0 if suffix else 1]
            met = None if target is None else ours["median_ms"] <= target
            yield record(
                f"warm_{op}{suffix}",
                ours,
                {"name": f"{duck_version()} {peer_name}", **peer},
                time_ratio(ours["median_ms"], peer["median_ms"]),
                "ms",
                None if target is None else f"<= {target:g} ms",
                met,
                f"{what}; a new text each run: parsed, validated, optimized and translated. "
                f"{n_users} users, {3 * n_users} orders; median of rounds {rounds.start} to "
                f"{rounds.stop} of a new process (a validate, an explain and an execute each). "
                f"{java}. {flink}",
            )
    for op, ours_fn, peer_fn, peer_name, what, _ in operations:
        sql = queries[op]
        ours_text, peer_text = distinct(sql, 0), distinct(peers[sql], 0)
        ours = in_ms(timed(calling(ours_fn, lambda t=ours_text: t), count, 10, collect=False))
        peer = in_ms(timed(calling(peer_fn, lambda t=peer_text: t), count, 10, collect=False))
        yield record(
            f"warm_{op}_cached",
            ours,
            {"name": f"{duck_version()} {peer_name}", **peer},
            time_ratio(ours["median_ms"], peer["median_ms"]),
            "ms",
            None,
            None,
            f"{what}; one text repeated: the plan cache answers. Median of {count} after the "
            f"session above. {java}. {flink}",
        )


def calling(fn: Callable[[str], Any], text: Callable[[], str]) -> Callable[[], Any]:
    """Calls ``fn`` on the next text."""
    return lambda: fn(text())


def join_tables(n: int) -> tuple[Any, Any]:
    """The users (``id``, ``user`` a ROW of name and age) and orders (three per user) of
    :data:`JOIN`, as Arrow tables DuckDB made."""
    users = duck_table(
        f"SELECT range::BIGINT AS id, struct_pack(name := 'name' || range, "
        f'age := (range % 90)::INTEGER) AS "user" FROM range({n})'
    )
    orders = duck_table(
        f"SELECT range::BIGINT AS oid, (range % {n})::BIGINT AS uid, random() AS amount "
        f"FROM range({3 * n})"
    )
    return users, orders


def distinct(sql: str, i: int) -> str:
    """``sql`` with one more conjunct that every row passes, a constant of its own in it."""
    return f"{sql} AND {'u.' if ' u ' in sql else ''}id >= -{i}"
