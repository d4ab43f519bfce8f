"""The crash and internal-error fuzzer of tests/fuzz/crash.py, with fixed seeds and a fixed number
of statements, so every run of the suite makes the same statements (``make fuzz-errors`` runs
longer). Each batch runs in a child process: a crash or a hang is seen, not suffered."""

from __future__ import annotations

import sys

import pytest
from tests.fuzz import crash

SEEDS = (11, 22, 33)
STATEMENTS = 300


@pytest.mark.parametrize("seed", SEEDS)
def test_no_crash_and_no_internal_error(seed: int) -> None:
    report = crash.run_batches(seed, statements=STATEMENTS, out=sys.stdout)
    assert report.statements == STATEMENTS, report.line()
    assert not report.crashes and not report.hangs, report.line()
    shown = "\n\n".join(
        f"{f['kind']}: {f['message']}\n  {f['minimal']}" for f in report.findings.values()
    )
    assert not report.findings, report.line() + "\n\n" + shown
    # The statements must reach the planner and the engine, not only the parser.
    assert report.verdicts["ok"] >= STATEMENTS // 50, report.line()


def test_the_oracle_tells_internal_errors_from_typed_ones() -> None:
    import calcite_bridge as cb

    env = cb.connect()
    try:
        env.execute("CREATE TABLE t (i INT) WITH ('connector' = 'memory')")
        assert crash.judge(env, "SELECT i FROM t", "auto").verdict == "ok"
        typed = crash.judge(env, "SELECT nosuch FROM t", "auto")
        assert (typed.verdict, typed.kind) == ("typed", "SqlValidationError")
    finally:
        env.close()
    assert crash.LEAKS.search("java.lang.IllegalStateException: x")
    assert crash.LEAKS.search("Unable to implement EnumerableCalc(expr#0..1=[{inputs}])")
    assert not crash.LEAKS.search("Column 'x' not found in any table")


def test_a_crash_is_detected_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALCITE_BRIDGE_FUZZ_CRASH_ON", "SELECT")
    report = crash.run_batches(5, statements=3)
    assert report.crashes, report.line()
    assert "CREATE TABLE t" in report.crashes[0]
