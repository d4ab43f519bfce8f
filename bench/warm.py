"""Warm planning and a small query: validate, explain and execute once the JVM is warm.

The query joins two registered Python sources with a nested filter (`u.user.age < 30`) that
the users source accepts, so explain covers validation, pushdown and Volcano planning.
DuckDB's peers over the same Arrow tables: PREPARE (parse, bind, optimize), EXPLAIN, and
running the small query to an Arrow table.

Each figure comes twice. `warm_validate`, `warm_explain` and `warm_execute` run a new SQL text
every time (the same query with another constant in a filter that keeps every row), so each
statement is parsed, validated, optimized and translated: the plan cache misses. The `_cached`
figures repeat one text of the same form, which the plan cache answers after its first run (a
run still opens its scans). The DuckDB peer runs the same texts in the same process.
`_after_100` figures are taken in the fresh process after 100 statements; the others after
1,500.
"""

from __future__ import annotations

import itertools
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

    n = 10_000
    # The JIT compiles the planner over the first thousand or so statements; "warm" means after.
    repeat, warmup = (200, 100) if quick else (500, 1500)
    users = duck_table(
        f"SELECT range::BIGINT AS id, struct_pack(name := 'name' || range, "
        f'age := (range % 90)::INTEGER) AS "user" FROM range({n})'
    )
    orders = duck_table(
        f"SELECT range::BIGINT AS oid, (range % {n})::BIGINT AS uid, random() AS amount "
        f"FROM range({3 * n})"
    )
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
    texts = itertools.count(1)

    def varied(sql: str) -> Callable[[], str]:
        """A new text of ``sql`` at each call: the cache never saw it."""
        return lambda: distinct(sql, next(texts))

    def same(sql: str) -> Callable[[], str]:
        """The same text at each call, with the conjunct the new texts add: the same work."""
        text = distinct(sql, 0)
        return lambda: text

    # (name, our call, DuckDB's peer call, peer name, what is measured, target in ms)
    operations: list[tuple[str, Callable[[str], Any], Callable[[str], Any], str, str, float | None]]
    operations = [
        (
            "validate",
            env.validate,
            lambda sql: con.execute("PREPARE q AS " + sql),
            "PREPARE",
            "validate of the join query",
            1.0,
        ),
        (
            "explain",
            env.explain,
            lambda sql: con.execute("EXPLAIN " + sql).fetchall(),
            "EXPLAIN",
            "explain of the join with the nested filter pushed into the scan "
            f"({'pushed' if pushed else 'NOT pushed'})",
            3.0,
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
    phases = [(200, 100, "_after_100")] if not quick else []
    phases.append((repeat, warmup, ""))
    for count, warm, suffix in phases:
        # The first phase runs in the fresh process: the figures after only 100 statements,
        # the warm state a short script or a notebook reaches.
        for op, ours_fn, peer_fn, peer_name, what, target in operations:
            sql = queries[op]
            for cached, text in ((False, varied), (True, same)):
                ours_text, peer_text = text(sql), text(peers[sql])
                ours = in_ms(timed(calling(ours_fn, ours_text), count, warm, collect=False))
                peer = in_ms(timed(calling(peer_fn, peer_text), count, warm, collect=False))
                name = f"warm_{op}{'_cached' if cached else ''}{suffix}"
                path = (
                    "one text repeated: the plan cache answers"
                    if cached
                    else "a new text each run: parsed, validated, optimized and translated"
                )
                met = None if cached or suffix or target is None else ours["median_ms"] < target
                yield record(
                    name,
                    ours,
                    {"name": f"{duck_version()} {peer_name}", **peer},
                    time_ratio(ours["median_ms"], peer["median_ms"]),
                    "ms",
                    None if met is None else f"< {target:g} ms",
                    met,
                    f"{what}; {path}. {n} users, {3 * n} orders; median of {count} after "
                    f"{warm} warm-up runs{' in a new process' if suffix else ''}. {flink}",
                )


def calling(fn: Callable[[str], Any], text: Callable[[], str]) -> Callable[[], Any]:
    """Calls ``fn`` on the next text."""
    return lambda: fn(text())


def distinct(sql: str, i: int) -> str:
    """``sql`` with one more conjunct that every row passes, a constant of its own in it."""
    return f"{sql} AND {'u.' if ' u ' in sql else ''}id >= -{i}"
