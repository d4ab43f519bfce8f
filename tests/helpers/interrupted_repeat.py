"""Runs a query into its timeout, then again, for tests/test_interrupt.py to stop the second run
with SIGINT: the second run reuses the first's cached plan.

Usage: interrupted_repeat.py BACKEND TABLE, TABLE ``arrow`` or ``memory``. Prints ``started``
once the second run starts, then how it ended, the CPU time the process used in the 2 s after,
and a query run afterwards."""

from __future__ import annotations

import sys

import pyarrow as pa
from interrupt_report import run_and_report

import calcite_bridge as cb

backend, table = sys.argv[1], sys.argv[2]
env = cb.connect(backend=backend)
env.register_arrow("big", pa.table({"x": pa.array(range(30_000), pa.int64())}))
if table == "memory":
    env.execute("CREATE TABLE m (x BIGINT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO m SELECT x FROM big")
name = "m" if table == "memory" else "big"
if backend == "spark":  # Spark's session starts (seconds, once) before the runs
    env.sql("SELECT COUNT(*) AS n FROM big").to_pylist()
QUERY = f"SELECT COUNT(*) AS c FROM {name} a, {name} b, {name} c WHERE a.x + b.x + c.x > -5"
try:
    env.sql(QUERY, timeout=1).to_pylist()
    sys.exit("the first run returned its rows")
except cb.TimeoutError:
    pass
print("started", flush=True)
run_and_report(env, lambda: env.sql(QUERY).to_pylist())
