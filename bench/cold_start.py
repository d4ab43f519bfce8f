"""Cold start: a new process, from its launch to the first validated query and the first result.

Three figures, each a median of fresh processes, DuckDB's the same way in the same run:

- ``cold_start``: ``python -c`` that imports the package, connects and validates ``SELECT 1``;
  the parent times from the launch to the child's "ready" line, so interpreter start, imports,
  JVM start and the first statement count, the child's exit (JVM shutdown) does not;
- ``cold_start_first_result``: the same to the first query result (``sql(...).fetchall()``);
- ``cold_start_first_data``: the same to the first results over the user's data: a table of
  100,000 rows built from numpy arrays, registered, a selection the source filters, then an
  aggregate (DuckDB registers the same table and runs the same two queries);
- ``cold_start_cli``: ``calcite-bridge query "SELECT 1 AS x"`` from its launch to its exit, in
  its own process (``CALCITE_BRIDGE_DAEMON=0``);
- ``cold_start_cli_daemon`` and ``cold_start_cli_daemon_explain``: the same query, and
  ``calcite-bridge explain`` of a join, served by the daemon of the place, started and warmed
  before the timing and stopped after it (DuckDB's one-line query and EXPLAIN of the same join).

Beside the wall times, ``cpu_median_ms``: the CPU time of the whole child, every thread, to its
exit, which a loaded machine inflates far less than the wall time.

The children run on the interpreter that runs this (``.venv/bin/python`` for the repository; the
``python`` of a fresh venv with the wheel installed measures what a user gets). The Java and the
start-up cache are whatever that install chooses (``CALCITE_BRIDGE_JAVA``, ``bench/run.py
--java``); the notes say which. Each child also reports where its time went.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _common import duck_version, pyflink_note, record, time_ratio

VALIDATE = """
import json, time
t0 = time.perf_counter()
import calcite_bridge as cb
t1 = time.perf_counter()
env = cb.connect()
t2 = time.perf_counter()
env.validate("SELECT 1")
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_validate": t3 - t2}), flush=True)
"""

RESULT = """
import json, time
t0 = time.perf_counter()
import calcite_bridge as cb
t1 = time.perf_counter()
env = cb.connect()
t2 = time.perf_counter()
rows = env.sql("SELECT 1 AS x").fetchall()
t3 = time.perf_counter()
assert rows == [(1,)], rows
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_result": t3 - t2}), flush=True)
"""

DUCK_VALIDATE = """
import json, time
t0 = time.perf_counter()
import duckdb
t1 = time.perf_counter()
con = duckdb.connect()
t2 = time.perf_counter()
con.execute("PREPARE q AS SELECT 1")
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_validate": t3 - t2}), flush=True)
"""

DUCK_RESULT = """
import json, time
t0 = time.perf_counter()
import duckdb
t1 = time.perf_counter()
con = duckdb.connect()
t2 = time.perf_counter()
rows = con.execute("SELECT 1 AS x").fetchall()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_result": t3 - t2}), flush=True)
"""

# A user's first statements over their data: a table built from numpy arrays (one chunk),
# registered, then a selection with a filter (the source answers it), then an aggregate. The same
# script for DuckDB, with its connection and registration.
_DATA = """
import json, time
t0 = time.perf_counter()
import numpy as np
import pyarrow as pa
{imports}
table = pa.table({{"id": np.arange(100_000), "score": np.arange(100_000) * 0.5}})
t1 = time.perf_counter()
con = {connect}
t2 = time.perf_counter()
con.{register}("t", table)
t3 = time.perf_counter()
picked = con.sql("SELECT id, score FROM t WHERE id < 10").fetchall()
t4 = time.perf_counter()
total = con.sql("SELECT COUNT(*), SUM(score) FROM t WHERE id % 2 = 0").fetchall()
t5 = time.perf_counter()
assert len(picked) == 10 and total[0][0] == 50_000, (picked, total)
print(json.dumps({{"import and table": t1 - t0, "connect": t2 - t1, "register": t3 - t2,
                  "selection": t4 - t3, "aggregate": t5 - t4}}), flush=True)
"""
DATA = _DATA.format(
    imports="import calcite_bridge as cb", connect="cb.connect()", register="register_arrow"
)
DUCK_DATA = _DATA.format(imports="import duckdb", connect="duckdb.connect()", register="register")

# DuckDB's peer of the CLI: its Python package's one-line query, to the exit.
DUCK_CLI = "import duckdb; print(duckdb.sql('SELECT 1 AS x').fetchall())"
JOIN = (
    "SELECT a.s, SUM(b.y) AS total FROM (VALUES (1, 'a'), (2, 'b')) AS a(x, s) "
    "JOIN (VALUES (1, 2.5), (2, 0.5)) AS b(x, y) ON a.x = b.x WHERE b.y > 1 GROUP BY a.s"
)
DUCK_EXPLAIN = f"import duckdb; print(duckdb.sql({'EXPLAIN ' + JOIN!r}).fetchall())"

SETUP = """
import json
from calcite_bridge._transport import jvm
env_java = jvm.find_jvm()
import calcite_bridge as cb
cb.connect()
print(json.dumps({"java": jvm.java_version(env_java), "jvm": str(env_java),
                  "cache": jvm.cache_mode()}))
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
print(json.dumps({"import": t1 - t0, "connect": t2 - t1, "first_validate": t3 - t2}), flush=True)
"""

# Issue 35's targets, on this machine.
TARGETS_MS: dict[str, float | None] = {
    "cold_start": 400.0,
    "cold_start_first_result": 500.0,
    "cold_start_cli": 600.0,
    # No target in the issue: a first result over a user's data (the library's target is 500 ms
    # for SELECT 1), reported against DuckDB's.
    "cold_start_first_data": None,
    "cold_start_cli_daemon": 600.0,
    "cold_start_cli_daemon_explain": 600.0,
}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _launch(
    command: list[str], to_exit: bool, env: dict[str, str] | None = None
) -> tuple[float, dict[str, float], float]:
    """The wall time to the child's line (or its exit), its phases, and the CPU time the whole
    child used (every thread, to its exit): on a loaded machine the CPU time moves far less
    than the wall time."""
    cpu = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    wall = time.perf_counter() - t0
    proc.stdout.read()
    code = proc.wait()
    if to_exit:
        wall = time.perf_counter() - t0
    if code != 0 or not line:
        raise RuntimeError(f"cold-start child {command[:3]} failed (exit {code})")
    try:
        phases = json.loads(line)
    except ValueError:
        phases = {}
    return wall, phases, _children_cpu() - cpu


def _measure(
    command: list[str], repeat: int, to_exit: bool = False, env: dict[str, str] | None = None
) -> dict[str, Any]:
    _launch(command, to_exit, env)  # warm-up: the files are in the page cache afterwards
    runs = [_launch(command, to_exit, env) for _ in range(repeat)]
    walls = [w for w, _, _ in runs]
    out: dict[str, Any] = {
        "median_ms": round(statistics.median(walls) * 1e3, 1),
        "min_ms": round(min(walls) * 1e3, 1),
        "max_ms": round(max(walls) * 1e3, 1),
        "cpu_median_ms": round(statistics.median(c for _, _, c in runs) * 1e3, 1),
        "runs": repeat,
    }
    if runs[0][1]:
        out["phases_median_ms"] = {
            k: round(statistics.median(p[k] for _, p, _ in runs) * 1e3, 1) for k in runs[0][1]
        }
    return out


def _record(name: str, ours: dict[str, Any], peer: dict[str, Any], notes: str) -> dict[str, Any]:
    target = TARGETS_MS[name]
    return record(
        name,
        ours,
        peer,
        time_ratio(ours["median_ms"], peer["median_ms"]),
        "ms",
        None if target is None else f"<= {target:.0f} ms",
        None if target is None else ours["median_ms"] <= target,
        notes,
    )


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "calcite-bridge"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "calcite_bridge"]


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    repeat = 3 if quick else 7
    py = [sys.executable, "-c"]
    # The first start of an install writes its start-up cache in the background: wait for it,
    # so that every measured start has it, as every start after a user's first does.
    for _ in range(240):
        done = subprocess.run([*py, SETUP], capture_output=True, text=True, check=True)
        setup = json.loads(done.stdout.splitlines()[-1])
        if "being written" not in setup["cache"]:
            break
        time.sleep(5)
    where = (
        f"Java {setup['java']} ({setup['jvm']}), start-up cache {setup['cache']}; "
        f"Python {sys.executable}; load average {os.getloadavg()[0]:.1f}"
    )
    cases = [
        (
            "cold_start",
            [*py, VALIDATE],
            [*py, DUCK_VALIDATE],
            False,
            "to the first validated query",
        ),
        (
            "cold_start_first_result",
            [*py, RESULT],
            [*py, DUCK_RESULT],
            False,
            "to the first result",
        ),
        (
            "cold_start_first_data",
            [*py, DATA],
            [*py, DUCK_DATA],
            False,
            "to the first two results over a numpy-built table it registered",
        ),
        (
            "cold_start_cli",
            [*_cli(), "query", "SELECT 1 AS x"],
            [*py, DUCK_CLI],
            True,
            'from launching `calcite-bridge query "SELECT 1 AS x"` to its exit',
        ),
    ]
    flink = pyflink_note()
    own_process = {**os.environ, "CALCITE_BRIDGE_DAEMON": "0"}
    for name, ours_cmd, peer_cmd, to_exit, what in cases:
        ours = _measure(ours_cmd, repeat, to_exit, own_process)
        peer = {"name": duck_version(), **_measure(peer_cmd, repeat, to_exit)}
        notes = [f"wall time of a new process {what}; phases are measured inside the child", where]
        if name == "cold_start" and flink is None:
            try:
                pf = _measure([*py, PYFLINK], repeat)
                notes.append(f"PyFlink: median {pf['median_ms']} ms")
            except Exception as e:  # a broken PyFlink install must not stop the suite
                notes.append(f"PyFlink failed: {e}")
        yield _record(name, ours, peer, "; ".join(notes))
    yield from _daemon_cases(repeat, where)


@contextmanager
def _daemon(env: dict[str, str]) -> Iterator[None]:
    """A daemon for this place in a directory of its own, answering, for the length of the
    block; stopped after it."""
    from calcite_bridge._daemon import place

    proc = subprocess.Popen(
        [*_cli(), "daemon"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 300
        while place.ask(place.STATUS, env, os.getcwd()) is None:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the daemon did not start")
            time.sleep(0.2)
        yield
    finally:
        place.ask(place.STOP, env, os.getcwd())
        try:
            proc.wait(timeout=120)
        finally:
            proc.kill()


def _daemon_cases(repeat: int, where: str) -> Iterator[dict[str, Any]]:
    py = [sys.executable, "-c"]
    cases = [
        (
            "cold_start_cli_daemon",
            [*_cli(), "query", "SELECT 1 AS x"],
            [*py, DUCK_CLI],
            'from launching `calcite-bridge query "SELECT 1 AS x"` to its exit',
        ),
        (
            "cold_start_cli_daemon_explain",
            [*_cli(), "explain", JOIN],
            [*py, DUCK_EXPLAIN],
            "from launching `calcite-bridge explain` of a join to its exit",
        ),
    ]
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "CALCITE_BRIDGE_DAEMON": "1", "CALCITE_BRIDGE_DAEMON_DIR": folder}
        with _daemon(env):
            for name, ours_cmd, peer_cmd, what in cases:
                for _ in range(5):  # the daemon's JIT meets this command's code
                    subprocess.run(ours_cmd, env=env, capture_output=True, check=True)
                ours = _measure(ours_cmd, repeat, True, env)
                peer = {"name": duck_version(), **_measure(peer_cmd, repeat, True)}
                notes = (
                    f"wall time of a new process {what}, served by a warm daemon; "
                    f"{where}; load average {os.getloadavg()[0]:.1f} after these runs"
                )
                yield _record(name, ours, peer, notes)
