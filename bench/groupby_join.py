"""GROUP BY and JOIN on 1 M rows on each execution backend, against DuckDB alone.

Every engine reads the same Arrow tables (register_arrow / DuckDB's register). The queries
aggregate to a small result so that the figures measure execution, not result transfer. Each
query runs on ``enumerable`` (Calcite's engine), ``duckdb`` (the plan translated to DuckDB SQL,
planning included) and ``auto``; the records are named ``group_by[duckdb]`` and so on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from _common import (
    as_table,
    duck_table,
    duck_version,
    in_ms,
    record,
    started_env,
    time_ratio,
    timed,
)

GROUP_BY = "SELECT k, COUNT(*) AS c, SUM(v) AS s, AVG(v) AS a FROM fact GROUP BY k"
JOIN = "SELECT COUNT(*) AS c, SUM(f.v * d.w) AS s FROM fact f JOIN dim d ON f.cid = d.cid"
BACKENDS = ("enumerable", "duckdb", "auto")


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    n = 200_000 if quick else 1_000_000
    n_dim = n // 10
    repeat = 3 if quick else 5
    fact = duck_table(
        f"SELECT range::BIGINT AS id, (range % 1000)::BIGINT AS k, "
        f"(hash(range) % {n_dim})::BIGINT AS cid, random() AS v FROM range({n})"
    )
    dim = duck_table(f"SELECT range::BIGINT AS cid, random() AS w FROM range({n_dim})")
    env = started_env()
    env.register_arrow("fact", fact)
    env.register_arrow("dim", dim)
    con = duckdb.connect()
    con.register("fact", fact)
    con.register("dim", dim)

    cases = [
        ("group_by", GROUP_BY, f"{n} rows into 1000 groups (COUNT, SUM, AVG)"),
        ("join", JOIN, f"{n} x {n_dim} rows, equi-join on BIGINT, aggregated to one row"),
    ]
    for name, sql, what in cases:
        peer_rows = as_table(con.sql(sql).arrow()).num_rows
        peer = in_ms(timed(lambda q=sql: as_table(con.sql(q).arrow()), repeat, 1))
        for backend in BACKENDS:
            ours_rows = env.sql(sql, backend=backend).to_arrow_table().num_rows
            assert ours_rows == peer_rows, (name, backend, ours_rows, peer_rows)
            plan = " / ".join(
                line.strip().split("(")[0]
                for line in env.explain(sql, backend=backend).splitlines()
            )
            ours = in_ms(
                timed(lambda q=sql, b=backend: env.sql(q, backend=b).to_arrow_table(), repeat, 1)
            )
            yield record(
                f"{name}[{backend}]",
                ours,
                {"name": duck_version(), **peer},
                time_ratio(ours["median_ms"], peer["median_ms"]),
                "ms",
                "within 1.5x of DuckDB alone" if backend != "enumerable" else None,
                ours["median_ms"] <= 1.5 * peer["median_ms"] if backend != "enumerable" else None,
                f"{what}; our plan: {plan}; median of {repeat} after 1 warm-up",
            )
