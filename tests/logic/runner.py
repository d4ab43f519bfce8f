"""Runs sqllogictest files against calcite-bridge on one execution backend.

The files are SQLite's; the SQL they hold is translated as little as possible, and each
translation is stated here (docs/testing.md lists them too):

- ``CREATE TABLE`` gets ``WITH ('connector' = 'memory')``; column types ``TEXT`` and
  ``VARCHAR(n)`` become ``STRING``, ``REAL`` and ``FLOAT`` become ``DOUBLE`` (SQLite's REAL is
  8 bytes), and ``PRIMARY KEY``/``UNIQUE`` constraints are dropped (they are not enforced and do
  not change answers);
- ``CREATE [UNIQUE] INDEX``, ``DROP INDEX`` and ``REINDEX`` are not run: there are no indexes,
  and the answers of the queries that follow cannot depend on them.

Every other statement and query runs as written.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tests.logic import slt

import calcite_bridge as cb

_INDEX = re.compile(r"^\s*(CREATE\s+(UNIQUE\s+)?INDEX|DROP\s+INDEX|REINDEX)\b", re.I)
_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\s+(.*?)\s*\((.*)\)\s*;?\s*$", re.I | re.S)
_TYPES = [
    (re.compile(r"\bTEXT\b", re.I), "STRING"),
    (re.compile(r"\bVARCHAR\s*\(\s*\d+\s*\)", re.I), "STRING"),
    (re.compile(r"\b(REAL|FLOAT)\b", re.I), "DOUBLE"),
    (re.compile(r"\s+PRIMARY\s+KEY\b", re.I), ""),
    (re.compile(r"\s+UNIQUE\b", re.I), ""),
]
_TABLE_CONSTRAINT = re.compile(r",\s*(PRIMARY\s+KEY|UNIQUE)\s*\([^)]*\)", re.I)


def translate(sql: str) -> str | None:
    """The statement to run for ``sql``, or None when it is not run (indexes)."""
    if _INDEX.match(sql):
        return None
    found = _CREATE_TABLE.match(sql)
    if found is None:
        return sql
    columns = _TABLE_CONSTRAINT.sub("", found[2])
    for pattern, replacement in _TYPES:
        columns = pattern.sub(replacement, columns)
    return f"CREATE TABLE {found[1]} ({columns}) WITH ('connector' = 'memory')"


@dataclass
class Failure:
    line: int
    sql: str
    detail: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.detail}\n    {self.sql.replace(chr(10), ' ')}"


@dataclass
class Report:
    """What happened to each record of one file on one backend."""

    path: str
    backend: str
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return f"{self.path} [{self.backend}]: {parts} ({self.seconds:.1f} s)"


_STATEMENT_START = re.compile(r"^\s*(SELECT|WITH|VALUES|\()", re.I)


def _is_query(sql: str) -> bool:
    return _STATEMENT_START.match(sql) is not None


def run_file(
    path: Path,
    backend: str,
    name: str | None = None,
    skip_lines: frozenset[int] = frozenset(),
) -> Report:
    """Runs every record of ``path`` in a new Environment on ``backend``.

    Lines in ``skip_lines`` are not run (queries known not to finish in reasonable time) and are
    counted as ``not run``. A query the backend refuses with ``cb.UnsupportedError`` counts as
    ``refused``; under ``auto`` nothing is refused, because such plans fall back.
    """
    report = Report(name or path.name, backend)
    started = time.perf_counter()
    env = cb.connect(backend=backend)
    threshold = 0
    labels: dict[str, str] = {}
    try:
        for record in slt.read(path):
            if isinstance(record, slt.Skipped):
                report.counts["skipped"] += 1
            elif isinstance(record, slt.HashThreshold):
                threshold = record.value
            elif isinstance(record, slt.Halt):
                break
            elif record.line in skip_lines:
                report.counts["not run"] += 1
            elif isinstance(record, slt.Statement):
                _statement(env, record, report)
            else:
                _query(env, record, threshold, report, labels)
    finally:
        env.close()
    report.seconds = time.perf_counter() - started
    return report


def _statement(env: cb.Environment, record: slt.Statement, report: Report) -> None:
    sql = translate(record.sql)
    if sql is None:
        report.counts["not run (index)"] += 1
        return
    try:
        if _is_query(sql):
            env.sql(sql).fetchall()
        else:
            env.execute(sql)
    except cb.Error as e:
        if record.expect_ok:
            _fail(report, record.line, sql, f"statement failed: {type(e).__name__}: {e}")
        else:
            report.counts["passed"] += 1
        return
    if record.expect_ok:
        report.counts["passed"] += 1
    else:
        _fail(report, record.line, sql, "statement succeeded where an error is expected")


def _query(
    env: cb.Environment, record: slt.Query, threshold: int, report: Report, labels: dict[str, str]
) -> None:
    try:
        rows = env.sql(record.sql).fetchall()
    except cb.UnsupportedError as e:
        if report.backend == "duckdb":
            report.counts["refused"] += 1
        else:
            _fail(report, record.line, record.sql, f"query failed: UnsupportedError: {e}")
        return
    except cb.Error as e:
        _fail(report, record.line, record.sql, f"query failed: {type(e).__name__}: {e}")
        return
    width = len(record.types)
    if rows and len(rows[0]) != width:
        _fail(report, record.line, record.sql, f"{len(rows[0])} columns, expected {width}")
        return
    values = [slt.format_value(v, record.types[i]) for row in rows for i, v in enumerate(row)]
    values = slt.arrange(values, width, record.sort)
    problem = _compare(record, values, threshold)
    if problem is None and record.label is not None:
        # Queries sharing a label must agree with each other as well as with the file.
        first = labels.setdefault(record.label, slt.digest(values))
        if first != slt.digest(values):
            problem = f"result differs from earlier queries labelled {record.label}"
    if problem is None:
        report.counts["passed"] += 1
    else:
        _fail(report, record.line, record.sql, problem)


def _compare(record: slt.Query, values: list[str], threshold: int) -> str | None:
    if record.expected_hash is not None:
        count, md5 = record.expected_hash
        got = slt.digest(values)
        if count == len(values) and md5 == got:
            return None
        return f"expected {count} values hashing to {md5}, got {len(values)} hashing to {got}"
    if list(record.expected) == values:
        return None
    shown = " ".join(values[:12]) + (" ..." if len(values) > 12 else "")
    want = " ".join(record.expected[:12]) + (" ..." if len(record.expected) > 12 else "")
    return f"expected [{want}] ({len(record.expected)} values), got [{shown}] ({len(values)})"


def _fail(report: Report, line: int, sql: str, detail: str) -> None:
    report.counts["failed"] += 1
    report.failures.append(Failure(line, sql, detail.splitlines()[0][:300]))


def main(argv: list[str]) -> int:
    """``python -m tests.logic.runner [--backend B] FILE...``: runs files and prints failures."""
    backend = "enumerable"
    if argv[:1] == ["--backend"]:
        backend, argv = argv[1], argv[2:]
    bad = 0
    for name in argv:
        report = run_file(Path(name), backend, name)
        print(report.summary(), flush=True)
        for failure in report.failures:
            print(f"  {failure}")
        bad += len(report.failures)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
