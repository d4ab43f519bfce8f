"""Runs a query that would take minutes, for tests/test_interrupt.py to stop with SIGINT.

Usage: interrupted_query.py BACKEND ROWS. Prints ``started`` once the statement runs, then how
it ended, the CPU time the process used in the 2 s after, and a query run afterwards."""

from __future__ import annotations

import sys
import time

import pyarrow as pa

import calcite_bridge as cb

backend, rows = sys.argv[1], int(sys.argv[2])
env = cb.connect(backend=backend)
env.register_arrow("big", pa.table({"x": pa.array(range(rows), pa.int64())}))
env.sql("SELECT COUNT(*) AS n FROM big").to_pylist()  # the JVM and DuckDB started
print("started", flush=True)
try:
    env.sql("SELECT a.x, b.x AS y FROM big a, big b WHERE a.x + b.x < 0").to_arrow_table()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
except cb.Error as e:
    print(f"error {type(e).__name__}: {e}", flush=True)
cpu = time.process_time()
time.sleep(2)
print(f"cpu {time.process_time() - cpu:.2f}", flush=True)
print(env.sql("SELECT COUNT(*) AS n FROM big").to_pylist(), flush=True)
