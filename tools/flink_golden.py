"""Flink's answers to the cases of tests/flink/cases/, and the compatibility page made from them.

``python tools/flink_golden.py flink`` runs in an environment with PyFlink (``pip install
apache-flink==2.3.0``, Java 17; never the project's own). It starts one batch-mode
TableEnvironment (parallelism 1, time zone UTC), runs every case in it and writes
``tests/flink/golden/<category>.tsv`` with each case's result type (from the resolved schema) and
rows as text, or the error Flink raised, and ``tests/flink/functions.tsv`` (``SHOW FUNCTIONS``).

``python tools/flink_golden.py docs`` needs neither PyFlink nor the project: it writes
``docs/flink-compatibility.md`` from the golden files and ``tests/flink/expected.tsv``.

``make golden-flink`` runs both. See tests/flink/oracle.py for the formats.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.flink import oracle

FLINK_VERSION = "2.3.0"

# Function names of SHOW FUNCTIONS kept in functions.tsv: names, not operator symbols.
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _flink_error(exc: BaseException) -> str:
    """The message of the innermost Java cause of a PyFlink error."""
    java = getattr(exc, "java_exception", None)
    if java is None:
        return oracle.render_error(f"{type(exc).__name__}: {exc}")
    cause: Any = java
    while cause.getCause() is not None and cause.getCause() is not cause:
        cause = cause.getCause()
    name = str(cause.getClass().getSimpleName())
    message = str(cause.getMessage() or "")
    return oracle.render_error(f"{name}: {message}")


def _row(row: Any) -> tuple[Any, ...]:
    return tuple(row[i] for i in range(len(row)))


CHUNK = 25


def _run(env: Any, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The column types and the rows of one query."""
    table = env.sql_query(sql)
    types = table._j_table.getResolvedSchema().getColumnDataTypes()
    names = [str(types.get(j).toString()) for j in range(types.size())]
    with table.execute().collect() as results:
        rows = [_row(r) for r in results]
    return names, rows


def run_flink() -> int:
    from pyflink.table import EnvironmentSettings, TableEnvironment

    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    config = env.get_config()
    config.set("parallelism.default", "1")
    config.set("table.local-time-zone", "UTC")

    names = sorted(
        {str(r[0]).upper() for r in env.execute_sql("SHOW FUNCTIONS").collect()}, key=str
    )
    oracle.FUNCTIONS.write_text(
        f"# Flink's built-in functions (SHOW FUNCTIONS, PyFlink {FLINK_VERSION}), written by\n"
        "# tools/flink_golden.py; operator symbols are left out.\n"
        + "".join(n + "\n" for n in names if _NAME.match(n))
    )

    cases = oracle.load_cases()
    answers: dict[str, tuple[str, str]] = {}
    # Constant expressions run as the columns of one query, a chunk at a time (a job takes a
    # second or two to start); a chunk that fails runs again as two halves, down to single cases.
    single = [c for c in cases if not c.expression]
    exprs = [c for c in cases if c.expression]
    pending = [exprs[i : i + CHUNK] for i in range(0, len(exprs), CHUNK)]
    while pending:
        chunk = pending.pop()
        if len(chunk) == 1:
            single.extend(chunk)
            continue
        sql = "SELECT " + ", ".join(c.sql[len("SELECT ") :] for c in chunk)
        try:
            types, rows = _run(env, sql)
        except Exception:
            half = len(chunk) // 2
            pending += [chunk[:half], chunk[half:]]
            continue
        for j, c in enumerate(chunk):
            answers[c.sql] = (types[j], oracle.render([(r[j],) for r in rows]))
    for i, case in enumerate(single, 1):
        try:
            types, rows = _run(env, case.sql)
            answers[case.sql] = (", ".join(types), oracle.render(rows))
        except Exception as exc:
            answers[case.sql] = ("", _flink_error(exc))
        print(f"[{i}/{len(single)}] {case.sql} -> {answers[case.sql]}", flush=True)
    by_category: dict[str, list[oracle.Golden]] = {}
    for case in cases:
        type_, result = answers[case.sql]
        by_category.setdefault(case.category, []).append(
            oracle.Golden(case.category, case.function, case.sql, type_, result)
        )
    for category, goldens in by_category.items():
        oracle.write_golden(category, goldens, FLINK_VERSION)
    return 0


def write_docs() -> int:
    text = oracle.render_docs(oracle.load_golden(), oracle.load_known(), oracle.load_functions())
    oracle.DOCS.write_text(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("what", choices=["flink", "docs"])
    args = parser.parse_args(argv)
    return run_flink() if args.what == "flink" else write_docs()


if __name__ == "__main__":
    sys.exit(main())
