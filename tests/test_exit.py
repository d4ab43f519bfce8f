"""A script that still holds results when it ends exits 0 and quietly, on both transports: the
results' buffers stay in the JVM's memory while the program runs (no copy), and the ones still
held when the JVM stops are let go without Arrow Java's "Failed to release" warning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "helpers" / "holding_results.py"
ROOT = Path(__file__).parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )


def test_a_script_holding_results_exits_quietly(
    transport: str, request: pytest.FixtureRequest
) -> None:
    args: tuple[str, ...] = ()
    if transport == "py4j":
        address = request.getfixturevalue("gateway_address")
        args = (address, request.getfixturevalue("gateway_token"))
    for _ in range(2):
        done = _run(*args)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["ok", "3", "200000", "3"]
        assert done.stderr == ""
