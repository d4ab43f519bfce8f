"""Filters with constant expressions over a Parquet table, against DuckDB's read_parquet.

`ts > TIMESTAMP '2024-12-31 00:00:00' - INTERVAL '7' DAY` is how users write "the last week".
Its constant is computed while planning, so the filesystem source receives a literal and reads
only the row groups whose statistics can match. The file holds 2 M rows sorted by `ts`, in row
groups of 50,000. Also measured: planning such a statement, a new one each time (the plan cache
is keyed by the SQL text), against DuckDB's EXPLAIN.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import (
    BACKENDS,
    duck_version,
    in_ms,
    record,
    refused,
    started_env,
    time_ratio,
    timed,
)

OURS = (
    "SELECT COUNT(*) AS c, SUM(v) AS s FROM ev"
    " WHERE ts > TIMESTAMP '2024-12-31 00:00:00' - INTERVAL '7' DAY"
)
DUCK = (
    "SELECT COUNT(*) AS c, SUM(v) AS s FROM read_parquet('{f}')"
    " WHERE ts > TIMESTAMP '2024-12-31 00:00:00' - INTERVAL '7' DAY"
)


def _plan_sql(k: int) -> str:
    return f"SELECT id, v FROM ev WHERE ts > TIMESTAMP '2024-12-31 00:00:00' - INTERVAL '{k}' DAY"


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq

    import calcite_bridge as cb

    n = 500_000 if quick else 2_000_000
    work = Path(tempfile.mkdtemp(prefix="cb-bench-const-"))
    try:
        year_ms = 366 * 86_400_000
        start = 1_704_067_200_000  # 2024-01-01 00:00:00 UTC
        ts = pa.array([start + i * year_ms // n for i in range(n)], pa.timestamp("ms"))
        table = pa.table(
            {"id": pa.array(range(n), pa.int64()), "ts": ts, "v": [i % 97 * 0.5 for i in range(n)]}
        )
        (work / "ev").mkdir()
        f = work / "ev" / "part-0.parquet"
        pq.write_table(table, f, row_group_size=50_000)
        env = started_env()
        env.execute(
            "CREATE TABLE ev (id BIGINT, ts TIMESTAMP(3), v DOUBLE) WITH"
            f" ('connector' = 'filesystem', 'path' = '{work / 'ev'}', 'format' = 'parquet')"
        )
        con = duckdb.connect()
        duck_sql = DUCK.format(f=f)
        expected = con.execute(duck_sql).fetchall()
        peer = in_ms(timed(lambda: con.execute(duck_sql).fetchall(), 5, 1))
        for backend in BACKENDS:
            try:
                got = env.sql(OURS, backend=backend).fetchall()
            except cb.UnsupportedError as e:
                yield refused(f"constant_filter_scan[{backend}]", e)
                continue
            assert [tuple(r) for r in got] == [tuple(r) for r in expected], (backend, got, expected)
            ours = in_ms(timed(lambda b=backend: env.sql(OURS, backend=b).fetchall(), 5, 1))
            yield record(
                f"constant_filter_scan[{backend}]",
                ours,
                {"name": duck_version() + " read_parquet", **peer},
                time_ratio(ours["median_ms"], peer["median_ms"]),
                "ms",
                None,
                None,
                f"COUNT and SUM of the last week of {n:,} rows sorted by ts (about 2%), the"
                " filter's bound written as TIMESTAMP - INTERVAL; median of 5 after 1 warm-up",
            )
        counter = itertools.count(1)
        peer_plan = in_ms(
            timed(
                lambda: con.execute(
                    "EXPLAIN "
                    + _plan_sql(next(counter)).replace("FROM ev", f"FROM read_parquet('{f}')")
                ).fetchall(),
                50,
                5,
                collect=False,
            )
        )
        counter = itertools.count(1)
        ours_plan = in_ms(
            timed(
                lambda: env.explain(_plan_sql(next(counter)), backend="enumerable"),
                50,
                5,
                collect=False,
            )
        )
        yield record(
            "constant_filter_plan",
            ours_plan,
            {"name": duck_version() + " EXPLAIN", **peer_plan},
            time_ratio(ours_plan["median_ms"], peer_plan["median_ms"]),
            "ms",
            None,
            None,
            "EXPLAIN (enumerable) of a filter on TIMESTAMP - INTERVAL, a new statement each time;"
            " median of 50 after 5 warm-ups",
        )
        env.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    import json

    for rec in run():
        print(json.dumps(rec))
