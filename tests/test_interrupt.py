"""Ctrl-C stops a running statement, on Calcite's engine (while Python reads its rows) and on
DuckDB, and the work ends: the process is idle afterwards and the environment still answers.

Each case runs tests/helpers/interrupted_query.py in a subprocess, sends it SIGINT once the child
says that a cross join that would take minutes is computing (or a Python source computes on a
JVM worker thread), and reads how it ended. No case waits a fixed time: the signal follows the
child's word, and the work is minutes long on any machine."""

from __future__ import annotations

import importlib.util
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HELPER = Path(__file__).parent / "helpers" / "interrupted_query.py"
# How long a child may stay silent before the case fails (instead of waiting forever: a child
# that never sees the SIGINT, or hangs starting, would hold the whole suite).
SILENCE = 180.0


def _line(child: subprocess.Popen[str], seconds: float = SILENCE) -> str:
    """The child's next line of output, or a failure with its error output after ``seconds``."""
    lines: queue.Queue[str] = queue.Queue()
    assert child.stdout is not None
    stdout = child.stdout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        child.kill()
        try:
            _, err = child.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            err = ""
        tail = (err or "")[-2000:]
        pytest.fail(f"the child said nothing for {seconds:.0f} s; its errors: {tail}")


def _interrupted(*args: str) -> tuple[list[str], float, str, int]:
    """Runs the helper with ``args`` and sends it SIGINT once its statement runs: the lines it
    printed from how the statement ended on, how long after the signal that came, its error
    output and its exit code."""
    child = subprocess.Popen(
        [sys.executable, str(HELPER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert _line(child).strip() == "started"
        running = _line(child)
        assert running.strip() == "running", running
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        ended = _line(child)
        latency = time.monotonic() - sent
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
        # Reaped and its pipes closed even when an assertion above failed: otherwise their
        # ResourceWarnings fail whichever test runs next on this worker.
        child.communicate()
    return [ended.rstrip("\n"), *out.splitlines()], latency, err, child.returncode


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize(
    ("backend", "rows"), [("enumerable", 30_000), ("duckdb", 1_000_000), ("source", 1_000)]
)
def test_ctrl_c_stops_the_statement_and_its_work(backend: str, rows: int) -> None:
    lines, _, err, returncode = _interrupted(backend, str(rows))
    assert lines[0] == "interrupted", (lines, err)
    cpu = float(lines[1].split()[1])
    assert cpu < 1.0, f"the process kept working after Ctrl-C: {cpu} CPU-s in 2 s"
    assert lines[2] == f"[{{'n': {rows}}}]"
    assert returncode == 0, err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_ctrl_c_raised_in_a_sources_scan_is_a_keyboard_interrupt() -> None:
    # With Python's wakeup descriptor taken by the program (as an asyncio loop takes it), no
    # watcher cancels the statement: Ctrl-C is raised in the Python code that the JVM runs on
    # the main thread, a source's scan as Calcite's engine reads the rows, and the JVM fails the
    # statement with it. The program sees KeyboardInterrupt, not the failure. (With the watcher,
    # the same happened when the signal came during such a scan, before the watcher ran.)
    lines, _, err, returncode = _interrupted("scan", "1000", "foreign-wakeup")
    assert lines[0] == "interrupted", (lines, err)
    cpu = float(lines[1].split()[1])
    assert cpu < 1.0, f"the process kept working after Ctrl-C: {cpu} CPU-s in 2 s"
    assert lines[2] == "[{'n': 1000}]"
    assert returncode == 0, err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize("statement", ["explain", "validate"])
def test_ctrl_c_stops_a_long_explain_or_validate(statement: str) -> None:
    # Both wait for their statement in one call for the first slice, then in slices: Ctrl-C in
    # either stops the wait within a second of the signal, and the environment still answers.
    lines, latency, err, returncode = _interrupted(statement, "10")
    assert lines[0] == "interrupted", (lines, err)
    assert latency < 3.0, f"KeyboardInterrupt came {latency:.2f} s after the signal"
    # The planner stops at its next rule; Calcite's parser checks no cancel flag (docs/limits.md),
    # and a Ctrl-C during the parse leaves it to end on its worker, so validate is not measured.
    if statement == "explain":
        cpu = float(lines[1].split()[1])
        assert cpu < 1.0, f"the process kept working after Ctrl-C: {cpu} CPU-s in 2 s"
    assert lines[2] == "[{'n': 10}]"
    assert returncode == 0, err


def test_the_process_exits_without_a_resource_warning() -> None:
    # The watcher that turns Ctrl-C into a cancel holds a socket pair for the process's life;
    # it is closed at exit, so a program run with warnings on (python -X dev, pytest) ends
    # quietly.
    program = (
        "import calcite_bridge as cb\n"
        "env = cb.connect()\n"
        "assert env.sql('SELECT 1 AS x').fetchall() == [(1,)]\n"
    )
    done = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error::ResourceWarning", "-c", program],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "ResourceWarning" not in done.stderr, done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize(
    ("backend", "table"),
    [
        ("enumerable", "arrow"),
        ("enumerable", "memory"),
        ("auto", "arrow"),
        ("duckdb", "memory"),
        pytest.param(
            "spark",
            "arrow",
            marks=pytest.mark.skipif(
                importlib.util.find_spec("pyspark") is None,
                reason="the spark extra: pip install '.[spark]'",
            ),
        ),
    ],
)
def test_ctrl_c_stops_a_statement_run_again_from_its_cached_plan(backend: str, table: str) -> None:
    # Issue 30: the second run of a statement reused its cached plan on the calling thread and
    # a SIGINT ten seconds in did nothing. The helper runs it once into a 1 s timeout, then
    # again without one.
    child = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).parent / "helpers" / "interrupted_repeat.py"),
            backend,
            table,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert _line(child).strip() == "started"
        time.sleep(2)  # the second run is running (a SIGINT before it would still stop the call)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        assert _line(child, 60).strip() == "interrupted"
        stopped = time.monotonic() - sent
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    # Within a second on an idle machine; the bound leaves room for one with both cores busy.
    assert stopped < 5, f"Ctrl-C took {stopped:.2f} s to stop the statement"
    lines = out.splitlines()
    cpu = float(lines[0].split()[1])
    assert cpu < 1.0, f"the process kept working after Ctrl-C: {cpu} CPU-s in 2 s"
    assert lines[1] == "[{'n': 30000}]"
    assert child.returncode == 0, err


_STARTING_SPARK = """
import pyarrow as pa
import calcite_bridge as cb
env = cb.connect(backend="spark")
env.register_arrow("big", pa.table({"x": pa.array(range(10), pa.int64())}))
env.sql("SELECT COUNT(*) AS n FROM big", backend="enumerable").to_pylist()
print("started", flush=True)
try:
    env.sql("SELECT COUNT(*) AS n FROM big").to_pylist()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.skipif(
    importlib.util.find_spec("pyspark") is None, reason="the spark extra: pip install '.[spark]'"
)
def test_ctrl_c_while_spark_starts_leaves_no_process_behind() -> None:
    # The first statement on Spark starts Spark's JVM (seconds). A Ctrl-C then was raised inside
    # pyspark's launch, which left that JVM running after the process ended, holding its output
    # open. Spark now starts on a thread of its own: the statement stops, the start goes on, and
    # the process ends with nothing left behind (communicate() returns once no process holds
    # the child's output).
    child = subprocess.Popen(
        [sys.executable, "-c", _STARTING_SPARK],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert _line(child).strip() == "started"
        time.sleep(2)  # Spark's JVM is starting: it takes longer than this on any machine
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        assert _line(child, 60).strip() == "interrupted"
        stopped = time.monotonic() - sent
        child.communicate(timeout=120)
    finally:
        child.kill()
    assert stopped < 5, f"Ctrl-C took {stopped:.2f} s to stop the statement"
    assert child.returncode == 0
