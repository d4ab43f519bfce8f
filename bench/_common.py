"""Shared helpers: timing, JSON records, RSS, test data built with DuckDB."""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa


def timed(
    fn: Callable[[], Any], repeat: int, warmup: int = 1, collect: bool = True
) -> dict[str, Any]:
    """Median, min and max seconds of ``repeat`` runs of ``fn`` after ``warmup`` runs.

    ``collect`` runs Python's garbage collector before each run (for big results);
    micro-benchmarks turn it off, since a full collection costs more than the call.
    """
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        if collect:
            gc.collect()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return {
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "runs": repeat,
    }


def timed_in_turn(
    fns: Sequence[Callable[[], Any]], repeat: int, warmup: int = 1, collect: bool = True
) -> list[dict[str, Any]]:
    """As :func:`timed`, for each of ``fns`` run in turn (one run of each, ``repeat`` times,
    after ``warmup`` runs of each), so that a change of the machine's load weighs on all alike.

    Each round starts one function further on, so each follows each of the others equally often:
    a run right after DuckDB's query was measured 0.3-0.35 ms slower than the same run after our
    own (DuckDB's threads and the caches it leaves), which a fixed order charged to one function
    alone."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times: list[list[float]] = [[] for _ in fns]
    count = len(fns)
    for round_ in range(repeat):
        for step in range(count):
            i = (round_ + step) % count
            if collect:
                gc.collect()
            t0 = time.perf_counter()
            fns[i]()
            times[i].append(time.perf_counter() - t0)
    return [
        {"median_s": statistics.median(t), "min_s": min(t), "max_s": max(t), "runs": repeat}
        for t in times
    ]


def in_ms(t: dict[str, Any]) -> dict[str, Any]:
    """The same timing in milliseconds, rounded for reading."""
    return {
        "median_ms": round(t["median_s"] * 1e3, 3),
        "min_ms": round(t["min_s"] * 1e3, 3),
        "max_ms": round(t["max_s"] * 1e3, 3),
        "runs": t["runs"],
    }


def record(
    benchmark: str,
    ours: dict[str, Any],
    peer: dict[str, Any] | None,
    ratio: float | None,
    unit: str,
    target: str | None,
    met: bool | None,
    notes: str = "",
) -> dict[str, Any]:
    return {
        "benchmark": benchmark,
        "ours": ours,
        "peer": peer,
        "ratio": None if ratio is None else round(ratio, 3),
        "unit": unit,
        "target": target,
        "met": met,
        "notes": notes,
    }


def refused(benchmark: str, error: Exception) -> dict[str, Any]:
    """The record of a benchmark a backend refused to run: its message, no timing."""
    return record(
        benchmark,
        {"refused": str(error)[:200]},
        None,
        None,
        "ms",
        None,
        None,
        "refused by the backend",
    )


def emit(rec: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(rec) + "\n")
    sys.stdout.flush()


def rss_kb() -> int:
    """Resident set size of this process, from /proc/self/status (VmRSS, in kB)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("VmRSS not found in /proc/self/status")


def duck_table(sql: str) -> pa.Table:
    """The result of a DuckDB query as a pyarrow.Table (test data is generated this way)."""
    import duckdb

    return as_table(duckdb.sql(sql).arrow())


def as_table(data: Any) -> pa.Table:
    """DuckDB's ``.arrow()`` is a Table in 1.x and a RecordBatchReader in 2.x."""
    return data.read_all() if isinstance(data, pa.RecordBatchReader) else data


def duck_version() -> str:
    import duckdb

    return f"duckdb {duckdb.__version__}"


def pyflink_note() -> str | None:
    """``None`` when PyFlink imports, else the message that says it was skipped."""
    try:
        import pyflink  # noqa: F401
    except ImportError:
        return "PyFlink not installed (import pyflink failed); PyFlink peer skipped."
    return None


def started_env() -> Any:
    """A connected Environment with the JVM up and the first query behind it."""
    import calcite_bridge as cb

    env = cb.connect()
    env.validate("SELECT 1")
    return env


def time_ratio(ours_s: float, peer_s: float) -> float:
    """Our time over the peer's: above 1 means we are slower."""
    return ours_s / peer_s if peer_s > 0 else float("inf")


BACKENDS = ("enumerable", "duckdb", "auto")
"""The execution backends every query benchmark runs on."""


def backend_records(
    env: Any, peer: Callable[[str], Any], name: str, sql: str, what: str, repeat: int
) -> Any:
    """One record per execution backend for ``sql``, against ``peer(sql)`` (DuckDB alone on the
    same data) timed once; every backend must return as many rows as the peer."""
    peer_rows = as_table(peer(sql)).num_rows
    peer_t = in_ms(timed(lambda: as_table(peer(sql)), repeat, 1))
    for backend in BACKENDS:
        rows = env.sql(sql, backend=backend).to_arrow_table().num_rows
        assert rows == peer_rows, (name, backend, rows, peer_rows)
        plan = " / ".join(
            line.strip().split("(")[0] for line in env.explain(sql, backend=backend).splitlines()
        )
        ours = in_ms(timed(lambda b=backend: env.sql(sql, backend=b).to_arrow_table(), repeat, 1))
        gated = backend != "enumerable"
        yield record(
            f"{name}[{backend}]",
            ours,
            {"name": duck_version(), **peer_t},
            time_ratio(ours["median_ms"], peer_t["median_ms"]),
            "ms",
            "within 1.5x of DuckDB alone, planning included" if gated else None,
            ours["median_ms"] <= 1.5 * peer_t["median_ms"] if gated else None,
            f"{what}; our plan: {plan}; median of {repeat} after 1 warm-up",
        )
