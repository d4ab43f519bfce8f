"""Runs a query that would take minutes, for tests/test_interrupt.py to stop with SIGINT.

Usage: interrupted_query.py BACKEND ROWS [foreign-wakeup]; BACKEND ``source`` runs a query whose
Python source computes on a JVM worker thread as the query is planned, ``scan`` one whose source's
scan computes on the main thread as Calcite's engine reads it; ``foreign-wakeup`` gives Python's
signal wakeup descriptor to the program first, as an asyncio event loop takes it, so no watcher
cancels the statement and Ctrl-C reaches it only as Python code that runs on the main thread.
Prints ``started`` once the JVM runs, ``running`` once the statement is computing (from inside
the source, or once the process has used a CPU-second on the statement, far more than planning a
two-table join takes), then how it ended, the CPU time the process used in the 2 s after, and a
query run afterwards.

The work takes minutes on any machine: 9 * 10^8 pairs on Calcite's engine for 30,000 rows
(about 5 * 10^6 pairs/s on the test machine), 10^12 on DuckDB for 10^6 rows, and the source
computes for a minute; so it is still running when the test sends SIGINT after ``running``."""

from __future__ import annotations

import signal
import socket
import sys
import threading
import time

import pyarrow as pa
from interrupt_report import run_and_report

import calcite_bridge as cb


class SlowSource:
    """A source whose ``apply_filters`` (run on a JVM worker thread as the query is planned)
    computes for a minute."""

    def schema(self) -> pa.Schema:
        return pa.schema([("x", pa.int64())])

    def apply_filters(self, filters: list[object]) -> list[object]:
        print("running", flush=True)
        end = time.monotonic() + 60
        n = 0
        while time.monotonic() < end:
            n += 1
        return filters

    def scan(self, request: object) -> pa.Table:
        return pa.table({"x": pa.array([1, 2, 3], pa.int64())})


class SlowScan:
    """A source whose ``scan`` (run on the main thread as Calcite's engine reads the rows)
    computes for a minute."""

    def schema(self) -> pa.Schema:
        return SlowSource().schema()

    def scan(self, request: object) -> pa.Table:
        SlowSource().apply_filters([])
        return SlowSource().scan(request)


backend, rows = sys.argv[1], int(sys.argv[2])
if sys.argv[3:] == ["foreign-wakeup"]:
    _wakeup = socket.socketpair()
    _wakeup[1].setblocking(False)
    signal.set_wakeup_fd(_wakeup[1].fileno())
# "explain" and "validate" plan a statement for many seconds (validate and explain wait for it
# in one call first, then in slices): a join of 60 tables (planning 60 tables takes at least 6
# CPU-s once the JIT is warm) and twelve OR chains of 10^4 terms ANDed (about 5 CPU-s in a new
# process; one chain took 1.8 s only while Calcite's parser was quadratic in the operators).
PLANNING = ("explain", "validate")
env = cb.connect(backend="enumerable" if backend in ("source", "scan", *PLANNING) else backend)
env.register_arrow("big", pa.table({"x": pa.array(range(rows), pa.int64())}))
env.register_source("slow", SlowScan() if backend == "scan" else SlowSource())
QUERY = (
    "SELECT x FROM slow WHERE x > 1"
    if backend == "source"
    else "SELECT a.x, b.x AS y FROM big a, big b WHERE a.x + b.x < 0"
)
if backend == "scan":  # the scan runs as the join's first rows are read
    QUERY = "SELECT a.x, b.x AS y FROM big a, slow b WHERE a.x + b.x < 0"
if backend == "explain":
    tables = ", ".join(f"big t{i}" for i in range(60))
    joins = " AND ".join(f"t{i}.x = t{i + 1}.x + {i}" for i in range(59))
    QUERY = f"SELECT COUNT(*) AS n FROM {tables} WHERE {joins}"
elif backend == "validate":
    chains = ("(" + " OR ".join(f"x = {i + j}" for i in range(10_000)) + ")" for j in range(12))
    QUERY = "SELECT x FROM big WHERE " + " AND ".join(chains)
env.sql("SELECT COUNT(*) AS n FROM big").to_pylist()  # the JVM and DuckDB started
print("started", flush=True)


def announce(before: float) -> None:
    """Prints ``running`` once the statement has used a CPU-second."""
    while time.process_time() - before < 1.0:
        time.sleep(0.05)
    print("running", flush=True)


if backend not in ("source", "scan"):
    threading.Thread(target=announce, args=(time.process_time(),), daemon=True).start()
if backend == "explain":
    run_and_report(env, lambda: env.explain(QUERY))
elif backend == "validate":
    run_and_report(env, lambda: env.validate(QUERY))
else:
    run_and_report(env, lambda: env.sql(QUERY).to_arrow_table())
