"""A parameterized statement executed with a new value each time, after warm-up, against the
same statement's cached plan and DuckDB's prepared statements in the same run.

The query is a point lookup with a range over a 100,000-row Arrow table (the filter reaches the
table's scan). ``new value`` runs ``env.sql(Q, [k])`` with a different ``k`` each time;
``cached plan`` runs one text again and again (the plan cache's cost of running the same plan);
the overhead of a new value is the difference, the two (and the peer) timed in turn so that a
change of the machine's load weighs on them alike. Each record names the operators of both plans
(``plan``, ``cached_plan``) as ``env.explain`` shows them. The target is an overhead under 0.5
ms. The plan of a text with parameters is kept per text and types of the values, and each run
binds its values into it: Calcite's DataContext on enumerable; on duckdb, DuckDB's prepared
statement over the Arrow table, registered once and filtered by DuckDB itself; on auto, the
bound range offered to the Arrow table's scan, whose own batches are the result when it takes
the whole filter, as for the literal text (README, "Parameters"). The peer is DuckDB's own
prepared statement over the same Arrow table, a new value each run.

``parameters_new_value_parquet`` runs the same range over a directory of Parquet files (a
``filesystem`` table, ids sorted across the files, small row groups). On enumerable the bound
range is offered to the files' scan at each run, which skips the files and row groups outside
it; on duckdb and auto DuckDB reads the files itself and its prepared statement applies the
range with each run's values, over a view of the files whose text is the same for every value.
The peer is DuckDB's prepared statement over ``read_parquet`` of the same files, a new value
each run.
"""

from __future__ import annotations

import itertools
import os
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
    timed_in_turn,
)

N = 100_000
OURS = "SELECT id, v FROM t WHERE id BETWEEN ? AND ? + 10"
FIXED = "SELECT id, v FROM t WHERE id BETWEEN 5000 AND 5000 + 10"
WARMUP_STATEMENTS = 300


PARQUET_FILES = 8
PARQUET_ROW_GROUP = 5_000


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq

    runs = 50 if quick else 200
    table = pa.table({"id": pa.array(range(N), pa.int64()), "v": [i * 0.5 for i in range(N)]})
    env = started_env()
    env.register_arrow("t", table)
    con = duckdb.connect()
    con.register("t", table)
    # 300 distinct statements first, as an application has run before it gets here
    for i in range(WARMUP_STATEMENTS):
        env.sql(OURS, [i, i]).fetchall()
    yield from _cases("parameters_new_value", env, con, OURS, FIXED, OURS, runs, "Arrow table")

    with tempfile.TemporaryDirectory() as tmp:
        per_file = N // PARQUET_FILES
        for f in range(PARQUET_FILES):
            part = table.slice(f * per_file, per_file)
            pq.write_table(part, Path(tmp, f"part-{f}.parquet"), row_group_size=PARQUET_ROW_GROUP)
        env.execute(
            "CREATE TABLE pt (id BIGINT, v DOUBLE) WITH ('connector' = 'filesystem', "
            f"'path' = '{tmp}', 'format' = 'parquet')"
        )
        files = f"read_parquet('{Path(tmp, '*.parquet')}')"
        yield from _cases(
            "parameters_new_value_parquet",
            env,
            con,
            OURS.replace("FROM t", "FROM pt"),
            FIXED.replace("FROM t", "FROM pt"),
            OURS.replace("FROM t", f"FROM {files}"),
            runs,
            f"{PARQUET_FILES} Parquet files of {PARQUET_ROW_GROUP}-row groups",
        )


def _cases(
    name: str,
    env: Any,
    con: Any,
    ours_sql: str,
    fixed_sql: str,
    peer_sql: str,
    runs: int,
    data: str,
) -> Iterator[dict[str, Any]]:
    """For each backend, a new value of ``ours_sql`` at each run against the cached plan of
    ``fixed_sql`` and DuckDB's prepared ``peer_sql`` with the same new value, timed in turn."""
    import calcite_bridge as cb

    keys = itertools.count(1)

    def duck() -> None:
        k = next(keys) % (N - 20)
        con.execute(peer_sql, [k, k]).fetchall()

    for backend in BACKENDS:
        try:
            env.sql(ours_sql, [1, 1], backend=backend).fetchall()
        except cb.UnsupportedError as e:
            yield refused(f"{name}[{backend}]", e)
            continue

        def new_value(b: str = backend) -> None:
            k = next(keys) % (N - 20)
            rows = env.sql(ours_sql, [k, k], backend=b).fetchall()
            assert len(rows) == 11

        def cached(b: str = backend) -> None:
            assert len(env.sql(fixed_sql, backend=b).fetchall()) == 11

        # in turn, so that the load of the machine weighs on the three alike
        ours_s, same_plan_s, peer_s = timed_in_turn((new_value, cached, duck), runs, 10, False)
        ours, same_plan, peer = in_ms(ours_s), in_ms(same_plan_s), in_ms(peer_s)
        overhead = ours["median_ms"] - same_plan["median_ms"]
        yield record(
            f"{name}[{backend}]",
            {
                **ours,
                "cached_plan_median_ms": same_plan["median_ms"],
                "overhead_ms": round(overhead, 3),
                "plan": _plan_of(env.explain(ours_sql, [5000, 5000], backend=backend)),
                "cached_plan": _plan_of(env.explain(fixed_sql, backend=backend)),
            },
            {**peer, "peer": duck_version() + " prepared statement, a new value each run"},
            time_ratio(ours["median_ms"], peer["median_ms"]),
            "ms",
            "overhead of a new value over the cached plan under 0.5 ms",
            overhead < 0.5,
            f"after {WARMUP_STATEMENTS} statements; {N} rows ({data}); each run a new value; the "
            f"three timed in turn; load average {os.getloadavg()[0]:.1f}",
        )


def _plan_of(explained: str) -> str:
    """The operators of a plan, outermost first: ``DuckDB / scan_0: BridgeTableScan``."""
    return " / ".join(line.strip().split("(")[0] for line in explained.splitlines())
