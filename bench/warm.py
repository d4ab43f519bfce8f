"""Warm planning and a small query: validate, explain and execute once the JVM is warm.

The query joins two registered Python sources with a nested filter (`u.user.age < 30`) that
the users source accepts, so explain covers validation, pushdown and Volcano planning.
DuckDB's peers over the same Arrow tables: PREPARE (parse, bind, optimize), EXPLAIN, and
running the small query to an Arrow table.
"""

from __future__ import annotations

from collections.abc import Iterator
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

    flink = pyflink_note() or "PyFlink installed but not measured here."
    common = f"{n} users, {3 * n} orders; median of {repeat} after {warmup} warm-up runs. {flink}"

    if not quick:
        # First, in the same fresh process: the figures after only 100 statements, the warm
        # state a short script or a notebook reaches.
        for name, fn in (
            ("warm_validate_after_100", lambda: env.validate(JOIN)),
            ("warm_explain_after_100", lambda: env.explain(JOIN)),
            ("warm_execute_after_100", lambda: env.sql(SMALL).to_arrow_table()),
        ):
            early = in_ms(timed(fn, 200, 100, collect=False))
            yield record(
                name,
                early,
                None,
                None,
                "ms",
                None,
                None,
                f"median of 200 after 100 warm-up runs, in a new process; {n} users",
            )

    ours = in_ms(timed(lambda: env.validate(JOIN), repeat, warmup, collect=False))
    peer = in_ms(
        timed(lambda: con.execute("PREPARE q AS " + DUCK_JOIN), repeat, warmup, collect=False)
    )
    yield record(
        "warm_validate",
        ours,
        {"name": f"{duck_version()} PREPARE", **peer},
        time_ratio(ours["median_ms"], peer["median_ms"]),
        "ms",
        "< 1 ms",
        ours["median_ms"] < 1.0,
        f"validate of the join query. {common}",
    )

    ours = in_ms(timed(lambda: env.explain(JOIN), repeat, warmup, collect=False))
    peer = in_ms(
        timed(lambda: con.execute("EXPLAIN " + DUCK_JOIN).fetchall(), repeat, warmup, collect=False)
    )
    yield record(
        "warm_explain",
        ours,
        {"name": f"{duck_version()} EXPLAIN", **peer},
        time_ratio(ours["median_ms"], peer["median_ms"]),
        "ms",
        "< 3 ms",
        ours["median_ms"] < 3.0,
        f"explain of the join with the nested filter pushed into the scan "
        f"({'pushed' if pushed else 'NOT pushed'}). {common}",
    )

    ours = in_ms(timed(lambda: env.sql(SMALL).to_arrow_table(), repeat, warmup, collect=False))
    peer = in_ms(
        timed(lambda: as_table(con.sql(DUCK_SMALL).arrow()), repeat, warmup, collect=False)
    )
    rows = env.sql(SMALL).to_arrow_table().num_rows
    yield record(
        "warm_execute",
        ours,
        {"name": f"{duck_version()} .arrow()", **peer},
        time_ratio(ours["median_ms"], peer["median_ms"]),
        "ms",
        None,
        None,
        f"small query to an Arrow table ({rows} rows) over the users source. {common}",
    )
