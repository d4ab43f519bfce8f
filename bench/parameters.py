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
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
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


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb
    import pyarrow as pa

    import calcite_bridge as cb

    runs = 50 if quick else 200
    table = pa.table({"id": pa.array(range(N), pa.int64()), "v": [i * 0.5 for i in range(N)]})
    env = started_env()
    env.register_arrow("t", table)
    con = duckdb.connect()
    con.register("t", table)
    keys = itertools.count(1)
    # 300 distinct statements first, as an application has run before it gets here
    for i in range(WARMUP_STATEMENTS):
        env.sql(OURS, [i, i]).fetchall()

    def duck() -> None:
        k = next(keys) % (N - 20)
        con.execute(OURS, [k, k]).fetchall()

    for backend in BACKENDS:
        try:
            env.sql(OURS, [1, 1], backend=backend).fetchall()
        except cb.UnsupportedError as e:
            yield refused(f"parameters_new_value[{backend}]", e)
            continue

        def new_value(b: str = backend) -> None:
            k = next(keys) % (N - 20)
            rows = env.sql(OURS, [k, k], backend=b).fetchall()
            assert len(rows) == 11

        def cached(b: str = backend) -> None:
            env.sql(FIXED, backend=b).fetchall()

        # in turn, so that the load of the machine weighs on the three alike
        ours_s, same_plan_s, peer_s = timed_in_turn((new_value, cached, duck), runs, 10, False)
        ours, same_plan, peer = in_ms(ours_s), in_ms(same_plan_s), in_ms(peer_s)
        overhead = ours["median_ms"] - same_plan["median_ms"]
        yield record(
            f"parameters_new_value[{backend}]",
            {
                **ours,
                "cached_plan_median_ms": same_plan["median_ms"],
                "overhead_ms": round(overhead, 3),
                "plan": _plan_of(env.explain(OURS, [5000, 5000], backend=backend)),
                "cached_plan": _plan_of(env.explain(FIXED, backend=backend)),
            },
            {**peer, "peer": duck_version() + " prepared statement, a new value each run"},
            time_ratio(ours["median_ms"], peer["median_ms"]),
            "ms",
            "overhead of a new value over the cached plan under 0.5 ms",
            overhead < 0.5,
            f"after {WARMUP_STATEMENTS} statements; {N} rows; each run a new value; the three "
            f"timed in turn; load average {os.getloadavg()[0]:.1f}",
        )


def _plan_of(explained: str) -> str:
    """The operators of a plan, outermost first: ``DuckDB / scan_0: BridgeTableScan``."""
    return " / ".join(line.strip().split("(")[0] for line in explained.splitlines())
