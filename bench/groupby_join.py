"""GROUP BY and JOIN on 1 M rows on each execution backend, against DuckDB alone.

Every engine reads the same Arrow tables (register_arrow / DuckDB's register). The queries
aggregate to a small result so that the figures measure execution, not result transfer. Each
query runs on ``enumerable`` (Calcite's engine), ``duckdb`` (the plan translated to DuckDB SQL,
planning included) and ``auto``; the records are named ``group_by[duckdb]`` and so on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from _common import backend_records, duck_table, started_env

GROUP_BY = "SELECT k, COUNT(*) AS c, SUM(v) AS s, AVG(v) AS a FROM fact GROUP BY k"
JOIN = "SELECT COUNT(*) AS c, SUM(f.v * d.w) AS s FROM fact f JOIN dim d ON f.cid = d.cid"


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
        yield from backend_records(env, lambda q: con.sql(q).arrow(), name, sql, what, repeat)
