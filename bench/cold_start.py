"""Cold start: a new Python process, from its launch to the first validated query.

The parent times from launching the child to the child's "ready" line, so interpreter start,
imports, JVM start and the first query all count; the child's exit (JVM shutdown) does not.
The child also reports when its imports and its connect() finished, to show where time goes.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

from _common import duck_version, pyflink_note, record, time_ratio

OURS = """
import json, time
t0 = time.perf_counter()
import calcite_bridge as cb
t1 = time.perf_counter()
env = cb.connect()
t2 = time.perf_counter()
env.validate("SELECT 1")
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_query": t3 - t2}), flush=True)
"""

DUCKDB = """
import json, time
t0 = time.perf_counter()
import duckdb
t1 = time.perf_counter()
con = duckdb.connect()
t2 = time.perf_counter()
con.execute("SELECT 1").fetchall()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_query": t3 - t2}), flush=True)
"""

PYFLINK = """
import json, time
t0 = time.perf_counter()
from pyflink.table import EnvironmentSettings, TableEnvironment
t1 = time.perf_counter()
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t2 = time.perf_counter()
t_env.sql_query("SELECT 1").get_schema()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_query": t3 - t2}), flush=True)
"""

TARGET_S = 1.0


def _launch(code: str) -> tuple[float, dict[str, float]]:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    wall = time.perf_counter() - t0
    proc.stdout.read()
    if proc.wait() != 0 or not line:
        raise RuntimeError(f"cold-start child failed (exit {proc.returncode})")
    return wall, json.loads(line)


def _measure(code: str, repeat: int) -> dict[str, Any]:
    _launch(code)  # warm-up: the files are in the page cache afterwards, as for a user
    runs = [_launch(code) for _ in range(repeat)]
    walls = [w for w, _ in runs]
    phases = {k: round(statistics.median(p[k] for _, p in runs) * 1e3, 1) for k in runs[0][1]}
    return {
        "median_ms": round(statistics.median(walls) * 1e3, 1),
        "min_ms": round(min(walls) * 1e3, 1),
        "max_ms": round(max(walls) * 1e3, 1),
        "runs": repeat,
        "phases_median_ms": phases,
    }


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    repeat = 3 if quick else 5
    ours = _measure(OURS, repeat)
    peer = {"name": duck_version(), **_measure(DUCKDB, repeat)}
    notes = [
        "wall time from launching `python -c` to the first validated query; "
        "phases are measured inside the child (interpreter start is the remainder)"
    ]
    skipped = pyflink_note()
    if skipped:
        notes.append(skipped)
    else:
        try:
            pf = _measure(PYFLINK, repeat)
            notes.append(f"PyFlink: median {pf['median_ms']} ms, phases {pf['phases_median_ms']}")
        except Exception as e:  # a broken PyFlink install must not stop the suite
            notes.append(f"PyFlink failed: {e}")
    yield record(
        "cold_start",
        ours,
        peer,
        time_ratio(ours["median_ms"], peer["median_ms"]),
        "ms",
        f"< {TARGET_S * 1e3:.0f} ms",
        ours["median_ms"] < TARGET_S * 1e3,
        "; ".join(notes),
    )
