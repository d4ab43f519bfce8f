"""Nested-filter Parquet scan through the filesystem connector against DuckDB's read_parquet.

The file holds 2 M rows sorted by `user.age` in small row groups, so a filter on the nested
field can skip most row groups from their statistics. Both engines read the same file.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
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

TARGET_RATIO = 1.5

OURS_COUNT = "SELECT COUNT(*) AS c FROM users WHERE `user`.age < 30"
OURS_SELECT = "SELECT id, `user`.name AS name, score FROM users WHERE `user`.age < 30"
DUCK_COUNT = "SELECT COUNT(*) AS c FROM read_parquet('{f}') WHERE \"user\".age < 30"
DUCK_SELECT = (
    'SELECT id, "user".name AS name, score FROM read_parquet(\'{f}\') WHERE "user".age < 30'
)


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb
    import pyarrow.parquet as pq

    n = 500_000 if quick else 2_000_000
    row_group = 20_000
    # (repeat, warm-up runs, collect garbage before each run) per benchmark. The count is a
    # short statement, measured like the warm group: hundreds of warm-up runs let the JIT
    # compile the planner, and no collection runs between statements (in JPype it also nudges
    # the JVM). The select returns 666 k rows: fewer runs, garbage collected before each.
    runs = {
        "parquet_nested_count": (31, 30, False) if quick else (101, 300, False),
        "parquet_nested_select": (7, 3, True) if quick else (21, 20, True),
    }
    tmp = Path(tempfile.mkdtemp(prefix="cb-bench-parquet-"))
    try:
        data = duck_table(
            f"SELECT id, struct_pack(name := 'name' || id, age := age) AS \"user\", score "
            f"FROM (SELECT range::BIGINT AS id, (hash(range) % 90)::INTEGER AS age, "
            f"random() AS score FROM range({n})) ORDER BY age, id"
        )
        path = tmp / "users"
        path.mkdir()
        file = path / "part-0.parquet"
        pq.write_table(data, file, row_group_size=row_group)
        groups = pq.ParquetFile(file).metadata.num_row_groups
        del data

        env = started_env()
        env.execute(
            "CREATE TABLE users (id BIGINT, `user` ROW<name STRING, age INT>, score DOUBLE) "
            f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')"
        )
        con = duckdb.connect()
        pushed = "filter=[<(user.age, 30)]" in env.explain(OURS_COUNT)
        plans = {
            "parquet_nested_count": env.explain(OURS_COUNT).splitlines()[0].split("(")[0],
            "parquet_nested_select": env.explain(OURS_SELECT).splitlines()[0].split("(")[0],
        }

        cases = [
            ("parquet_nested_count", OURS_COUNT, DUCK_COUNT.format(f=file)),
            ("parquet_nested_select", OURS_SELECT, DUCK_SELECT.format(f=file)),
        ]
        for name, ours_sql, duck_sql in cases:
            ours_rows = env.sql(ours_sql).to_arrow_table()
            peer_rows = as_table(con.sql(duck_sql).arrow())
            assert ours_rows.num_rows == peer_rows.num_rows, (name, ours_rows, peer_rows)
            if name == "parquet_nested_count":
                assert ours_rows.column(0)[0].as_py() == peer_rows.column(0)[0].as_py()
            rows = ours_rows.num_rows
            plan = f"plan root {plans[name]}"
            del ours_rows, peer_rows
            repeat, warmup, collect = runs[name]
            ours = in_ms(
                timed(lambda q=ours_sql: env.sql(q).to_arrow_table(), repeat, warmup, collect)
            )
            peer = in_ms(
                timed(lambda q=duck_sql: as_table(con.sql(q).arrow()), repeat, warmup, collect)
            )
            ratio = time_ratio(ours["median_ms"], peer["median_ms"])
            yield record(
                name,
                ours,
                {"name": f"{duck_version()} read_parquet", **peer},
                ratio,
                "ms",
                f"<= {TARGET_RATIO}x DuckDB",
                ratio <= TARGET_RATIO,
                f"{n} rows sorted by user.age in {groups} row groups of {row_group}; "
                f"{rows} result rows; filter {'pushed into' if pushed else 'NOT pushed into'} "
                f"the scan; {plan}; median of {repeat} after {warmup} warm-up runs",
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
