"""SQLite's sqllogictest files, run on every execution backend (tests/logic/).

Each file in ``tests/logic/manifest.tsv`` runs in a new Environment per backend. A record that
fails must be listed in ``tests/logic/expected.tsv`` with its reason, and a listed record that
passes fails the test too, so the list only ever shrinks by someone removing a line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.logic import expectations, runner

FILES = Path(__file__).parent / "logic" / "files"
CASES = expectations.manifest()


@pytest.mark.parametrize(
    ("name", "backend"), [(c.name, b) for c in CASES for b in c.backends], ids=str
)
def test_sqllogictest_file(name: str, backend: str) -> None:
    known = expectations.known(name, backend)
    report = runner.run_file(FILES / name, backend, name, skip_lines=known.not_run)
    failed = {f.line: f for f in report.failures}
    unexpected = [str(failed[line]) for line in sorted(set(failed) - known.fails)]
    fixed = sorted(known.fails - set(failed))
    assert not unexpected, f"{report.summary()}\nnew failures:\n" + "\n".join(unexpected)
    assert not fixed, (
        f"{report.summary()}\nlisted in tests/logic/expected.tsv but now passing "
        f"(remove them from the list): lines {fixed}"
    )
    assert report.counts["passed"] > 0, report.summary()


def test_translations() -> None:
    assert runner.translate("CREATE TABLE t1(a INTEGER, b TEXT, c VARCHAR(10), d REAL)") == (
        "CREATE TABLE t1 (a INTEGER, b STRING, c STRING, d DOUBLE) WITH ('connector' = 'memory')"
    )
    assert runner.translate("CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 FLOAT)") == (
        "CREATE TABLE tab0 (pk INTEGER, col0 DOUBLE) WITH ('connector' = 'memory')"
    )
    assert runner.translate("CREATE UNIQUE INDEX idx ON t1(a)") is None
    assert runner.translate("SELECT a FROM t1") == "SELECT a FROM t1"
