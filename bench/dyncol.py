"""COLUMN_GET over 200 k and 1 M dynamic-columns blobs on Calcite's engine and on DuckDB.

The blobs (``COLUMN_CREATE('n', id * 3, 'name', 'row', 'price', id + 0.25)``) are made once by
calcite-bridge and registered as an Arrow table. The query sums one COLUMN_GET per row, so the
figures measure the function, not the result's transfer. On ``duckdb`` the function is a DuckDB
Arrow function computed in the JVM one batch (2 048 rows) at a time; on ``enumerable`` it is
generated code. DuckDB has no dynamic columns of its own: there is no peer figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
from _common import in_ms, record, started_env, timed

GET = "SELECT SUM(COLUMN_GET(b, 'n' AS INT)) AS s FROM blobs_{}"
BACKENDS = ("enumerable", "duckdb")


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    env = started_env()
    sizes = [("200k", 200_000)] if quick else [("200k", 200_000), ("1m", 1_000_000)]
    for label, n in sizes:
        env.register_arrow(f"ids_{label}", pa.table({"id": pa.array(range(n), pa.int64())}))
        made = env.sql(
            "SELECT COLUMN_CREATE('n', id * 3, 'name', 'row', 'price', id + 0.25) AS b"
            f" FROM ids_{label}",
            backend="duckdb",
        ).to_arrow_table()
        env.register_arrow(f"blobs_{label}", made)
        sql = GET.format(label)
        expected = 3 * n * (n - 1) // 2
        repeat = 5
        for backend in BACKENDS:
            total = env.sql(sql, backend=backend).to_pylist()[0]["s"]
            assert total == expected, (backend, total, expected)
            ours = in_ms(
                timed(lambda q=sql, b=backend: env.sql(q, backend=b).to_pylist(), repeat, 1)
            )
            yield record(
                f"column_get_{label}[{backend}]",
                ours,
                None,
                None,
                "ms",
                None,
                None,
                f"SUM(COLUMN_GET(b, 'n' AS INT)) over {n} blobs; "
                f"median of {repeat} after 1 warm-up",
            )
