"""Planning many-table joins: a chain of N ten-row tables joined on equalities, as in
sqllogictest's select5, planned (EXPLAIN) on each backend against DuckDB's EXPLAIN.

From six joins on, the Enumerable plan orders the joins by a heuristic rather than by
exhaustive search; the ``duckdb`` and ``auto`` backends take the plan before join ordering.

Every EXPLAIN plans a statement of its own (the constant in ``j0.a = k`` changes each time):
the plan cache is keyed by the SQL text, and a repeated statement would measure it instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from _common import BACKENDS, in_ms, record, started_env, time_ratio, timed

SIZES = (8, 20, 47)


def _chain(n: int, k: int) -> str:
    tables = ", ".join(f"j{i}" for i in range(n))
    joins = " AND ".join(f"j{i}.b = j{i + 1}.a" for i in range(n - 1))
    columns = ", ".join(f"j{i}.x" for i in range(n))
    return f"SELECT {columns} FROM {tables} WHERE {joins} AND j0.a = {k}"


def _distinct(n: int, explain: Callable[[str], object]) -> Callable[[], object]:
    """A call that EXPLAINs a chain of ``n`` tables never planned before in this process."""
    counter = itertools.count(1000 * n)
    return lambda: explain(_chain(n, next(counter)))


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb
    import pyarrow as pa

    sizes = SIZES[:2] if quick else SIZES
    env = started_env()
    con = duckdb.connect()
    rows = pa.table(
        {
            "a": list(range(10)),
            "b": [(i * 7) % 10 for i in range(10)],
            "x": [f"row {i}" for i in range(10)],
        }
    )
    for i in range(max(sizes)):
        env.register_arrow(f"j{i}", rows)
        con.register(f"j{i}", rows)
    for n in sizes:
        repeat = 3 if n > 20 else 7
        peer = in_ms(
            timed(_distinct(n, lambda q: con.execute("EXPLAIN " + q).fetchall()), repeat, 1)
        )
        for backend in BACKENDS:
            ours = in_ms(
                timed(_distinct(n, lambda q, b=backend: env.explain(q, backend=b)), repeat, 1)
            )
            yield record(
                f"plan_join_{n}_tables[{backend}]",
                ours,
                {"name": "DuckDB EXPLAIN", **peer},
                time_ratio(ours["median_ms"], peer["median_ms"]),
                "ms",
                "under 1 s for 20 tables" if n == 20 else None,
                ours["median_ms"] < 1000 if n == 20 else None,
                f"EXPLAIN of a {n}-table equi-join chain, a new statement each time; "
                f"median of {repeat} after 1 warm-up",
            )
