"""A three-table join with GROUP BY over Parquet files (a TPC-H-like shape), on each backend.

`lineitem` (1 M rows), `orders` (250 k) and `customer` (25 k) are Parquet files written by
DuckDB; calcite-bridge reads them through the `filesystem` connector, which takes the filter on
`orders`, and DuckDB alone reads the same files with `read_parquet`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import backend_records, started_env

OURS = (
    "SELECT c.nation, COUNT(*) AS n, SUM(l.price * (1 - l.discount)) AS revenue "
    "FROM lineitem l JOIN orders o ON l.okey = o.okey JOIN customer c ON o.ckey = c.ckey "
    "WHERE o.odate >= DATE '1995-01-01' GROUP BY c.nation"
)


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb

    n = 200_000 if quick else 1_000_000
    repeat = 3 if quick else 5
    tmp = Path(tempfile.mkdtemp(prefix="cb-bench-tpch-"))
    try:
        con = duckdb.connect()
        tables = {
            "customer": f"SELECT range::BIGINT AS ckey, 'nation' || (range % 25) AS nation "
            f"FROM range({n // 40})",
            "orders": f"SELECT range::BIGINT AS okey, (hash(range) % {n // 40})::BIGINT AS ckey, "
            f"DATE '1992-01-01' + (range % 2500)::INTEGER AS odate FROM range({n // 4})",
            "lineitem": f"SELECT range::BIGINT AS id, (hash(range) % {n // 4})::BIGINT AS okey, "
            f"random() * 1000 AS price, random() / 10 AS discount FROM range({n})",
        }
        env = started_env()
        for name, select in tables.items():
            folder = tmp / name
            folder.mkdir()
            con.execute(f"COPY ({select}) TO '{folder / 'part-0.parquet'}' (FORMAT parquet)")
            schema = {
                "customer": "ckey BIGINT, nation STRING",
                "orders": "okey BIGINT, ckey BIGINT, odate DATE",
                "lineitem": "id BIGINT, okey BIGINT, price DOUBLE, discount DOUBLE",
            }[name]
            env.execute(
                f"CREATE TABLE {name} ({schema}) WITH ('connector' = 'filesystem', "
                f"'path' = '{folder}', 'format' = 'parquet')"
            )
            con.execute(
                f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{folder}/part-0.parquet')"
            )
        what = f"{n} x {n // 4} x {n // 40} rows from Parquet, 2 joins, GROUP BY 25 nations"
        yield from backend_records(
            env, lambda q: con.sql(q).arrow(), "tpch_like_join", OURS, what, repeat
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
