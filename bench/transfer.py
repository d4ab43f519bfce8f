"""JVM-to-Python result transfer: `SELECT * FROM t` over a registered Arrow table, and the
shapes users have: a table built in one chunk (as `pa.table(numpy arrays)` and
`pa.Table.from_pandas` build them) or in many, read with `*`, one column, or reordered columns.

Throughput is the result's Arrow size (`pyarrow.Table.nbytes`) over the median wall time of
`env.sql(...).to_arrow_table()`. DuckDB's peer is `.arrow()` of the same query over the same
Arrow table registered in DuckDB.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

from _common import as_table, duck_table, duck_version, record, started_env, timed

TARGET_GBPS = 1.0
SHAPES = ("many_chunks", "one_chunk")
COLUMN_LISTS = {"star": "*", "one_column": "a", "reordered": "y, a"}


def _gbps(nbytes: int, seconds: float) -> float:
    return round(nbytes / seconds / 1e9, 3)


def _measure(
    env: Any, con: Any, name: str, table: Any, repeat: int, columns: str = "*"
) -> tuple[dict, dict]:
    if name not in env.tables():
        env.register_arrow(name, table)
        con.register(name, table)
    sql = f"SELECT {columns} FROM {name}"
    probe = env.sql(sql).to_arrow_table()
    nbytes, rows = probe.nbytes, probe.num_rows
    assert rows == table.num_rows, (rows, table.num_rows)
    del probe
    gc.collect()
    ours_t = timed(lambda: env.sql(sql).to_arrow_table(), repeat, warmup=3)
    peer_t = timed(lambda: as_table(con.sql(sql).arrow()), repeat, warmup=1)
    peer_bytes = as_table(con.sql(sql).arrow()).nbytes
    ours = {
        "gb_per_s": _gbps(nbytes, ours_t["median_s"]),
        "median_ms": round(ours_t["median_s"] * 1e3, 1),
        "min_ms": round(ours_t["min_s"] * 1e3, 1),
        "runs": repeat,
        "rows": rows,
        "result_mb": round(nbytes / 1e6, 1),
    }
    peer = {
        "name": f"{duck_version()} .arrow()",
        "gb_per_s": _gbps(peer_bytes, peer_t["median_s"]),
        "median_ms": round(peer_t["median_s"] * 1e3, 1),
        "min_ms": round(peer_t["min_s"] * 1e3, 1),
        "runs": repeat,
        "result_mb": round(peer_bytes / 1e6, 1),
    }
    return ours, peer


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    n_num = 1_000_000 if quick else 10_000_000
    n_nested = 500_000 if quick else 2_000_000
    repeat = 3 if quick else 5
    env = started_env()
    con = duckdb.connect()

    numeric = duck_table(
        f"SELECT range::BIGINT AS a, (range * 7 % 1000)::BIGINT AS b, random() AS x, "
        f"random() * 100 AS y FROM range({n_num})"
    )
    ours, peer = _measure(env, con, "num", numeric, repeat)
    yield record(
        "transfer_numeric",
        ours,
        peer,
        peer["gb_per_s"] / ours["gb_per_s"],
        "GB/s",
        f"> {TARGET_GBPS} GB/s",
        ours["gb_per_s"] > TARGET_GBPS,
        f"{n_num} rows x 2 BIGINT + 2 DOUBLE; median of {repeat} after 1 warm-up; "
        "ratio = our time / peer's time (peer GB/s over ours)",
    )
    chunked = dict(zip(SHAPES, (numeric, numeric.combine_chunks()), strict=True))
    for shape, table in chunked.items():
        name = f"num_{shape}"
        for label, columns in COLUMN_LISTS.items():
            ours, peer = _measure(env, con, name, table, repeat, columns)
            yield record(
                f"transfer_{shape}_{label}",
                ours,
                peer,
                peer["gb_per_s"] / ours["gb_per_s"],
                "GB/s",
                f"> {TARGET_GBPS} GB/s",
                ours["gb_per_s"] > TARGET_GBPS,
                f"SELECT {columns} of {n_num} rows x 2 BIGINT + 2 DOUBLE in "
                f"{len(table.to_batches())} chunk(s); median of {repeat} after 3 warm-ups",
            )
        env.execute(f"DROP TABLE {name}")
    del numeric, chunked, table
    env.execute("DROP TABLE num")
    gc.collect()

    nested = duck_table(
        f"SELECT range::BIGINT AS id, 'customer-' || range AS s, "
        f"struct_pack(name := 'name' || (range % 1000), age := (range % 90)::INTEGER, "
        f"city := 'city' || (range % 50)) AS \"user\" FROM range({n_nested})"
    )
    ours, peer = _measure(env, con, "nested", nested, repeat)
    yield record(
        "transfer_nested",
        ours,
        peer,
        peer["gb_per_s"] / ours["gb_per_s"],
        "GB/s",
        None,
        None,
        f"{n_nested} rows: BIGINT, STRING, ROW<name STRING, age INT, city STRING>; "
        f"median of {repeat} after 1 warm-up; ratio = our time / peer's time",
    )
