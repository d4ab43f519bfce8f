"""The harness's report: printed at the end of the run, and written to the file named by
``CALCITE_BRIDGE_DIFFERENTIAL_REPORT`` (``make differential-report`` writes docs/backends.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.differential.harness import COLLECTOR
from tests.differential.report import markdown, summary


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not COLLECTOR.outcomes:
        return
    terminalreporter.section("differential harness: backends against the reference")
    for line in summary(COLLECTOR):
        terminalreporter.write_line(line)
    target = os.environ.get("CALCITE_BRIDGE_DIFFERENTIAL_REPORT")
    if target:
        Path(target).write_text(markdown(COLLECTOR), encoding="utf-8")
        terminalreporter.write_line(f"written to {target}")
