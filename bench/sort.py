"""ORDER BY over 1 M rows through the Enumerable engine, against DuckDB.

Both engines read the same one-chunk Arrow table (register_arrow / DuckDB's register): a BIGINT
id and a DOUBLE amount drawn at random. ``order_by_limit`` is a top-N (three rows out);
``order_by_full`` sorts and returns every row, so its figures include the result's transfer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from _common import (
    as_table,
    backend_records,
    duck_table,
    started_env,
)

TOP_N = "SELECT id, amount FROM t ORDER BY amount DESC LIMIT 3"
FULL = "SELECT id, amount FROM t ORDER BY amount DESC"


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    n = 200_000 if quick else 1_000_000
    repeat = 3 if quick else 5
    table = duck_table(
        f"SELECT range::BIGINT AS id, random() AS amount FROM range({n})"
    ).combine_chunks()
    env = started_env()
    env.register_arrow("t", table)
    con = duckdb.connect()
    con.register("t", table)

    cases = [
        ("order_by_limit", TOP_N, f"{n} rows, ORDER BY a DOUBLE DESC LIMIT 3"),
        ("order_by_full", FULL, f"{n} rows, ORDER BY a DOUBLE DESC, every row returned"),
    ]
    for name, sql, what in cases:
        ours_out = env.sql(sql).to_arrow_table()
        peer_out = as_table(con.sql(sql).arrow())
        assert ours_out.num_rows == peer_out.num_rows, (name, ours_out.num_rows)
        assert ours_out.column("amount").equals(peer_out.column("amount")), name
        del ours_out, peer_out
        yield from backend_records(env, lambda q: con.sql(q).arrow(), name, sql, what, repeat)
