"""Internal errors the crash fuzzer found (tests/fuzz/crash.py): each case of
fixtures/internal_errors.sql raises its typed error, with its position where the input is at
fault, or gives its rows. No message names a Java class. Also: an empty statement, INTERVAL
results against DuckDB, and a source's own error message on every backend."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pytest
from tests.fuzz.crash import LEAKS, TABLES
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb

CASES = load_cases("internal_errors.sql", keys={"rows", "error", "match", "column"})
BACKENDS = ("enumerable", "auto")


@pytest.fixture(scope="module")
def tables() -> Iterator[cb.Environment]:
    env = cb.connect()
    for statement in TABLES.strip().split(";\n"):
        env.execute(statement)
    yield env
    env.close()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_typed_error_or_right_answer(tables: cb.Environment, case: SqlCase, backend: str) -> None:
    run = None if backend == "auto" else backend
    error = case.get("error")
    if error is None:
        rows = tables.sql(case.sql, backend=run).fetchall()
        assert rows == eval(case.get("rows") or "None"), case.where
        return
    with pytest.raises(cb.Error) as raised:
        tables.sql(case.sql, backend=run).fetchall()
    e = raised.value
    if backend == "auto" and error == "UnsupportedError":
        # auto runs on DuckDB what Calcite's engine cannot: any typed answer is right there.
        assert type(e) is not cb.Error, str(e)
    else:
        assert type(e) is getattr(cb, error), f"{case.where}: {type(e).__name__}: {e}"
        assert re.search(case.get("match") or "", str(e)), str(e)
    assert not LEAKS.search(str(e).splitlines()[0]), str(e)
    column = case.get("column")
    if column is not None and type(e) is getattr(cb, error):
        assert (e.line, e.column) == (1, int(column)), str(e)


def test_every_case_states_its_answer() -> None:
    for case in CASES:
        assert case.has("rows") != case.has("error"), case.where


@pytest.mark.parametrize("sql", ["", "   ", "\n"])
def test_an_empty_statement_is_a_parse_error(env: cb.Environment, sql: str) -> None:
    with pytest.raises(cb.SqlParseError, match="The statement is empty"):
        env.execute(sql)


@pytest.mark.parametrize(
    "expr",
    [
        "INTERVAL '1' DAY",
        "INTERVAL '3' HOUR",
        "INTERVAL '90' MINUTE",
        "INTERVAL '2' SECOND",
        "INTERVAL '2' MONTH",
        "INTERVAL '1' YEAR",
        "INTERVAL '14' MONTH",
        "CAST(NULL AS INTERVAL DAY)",
    ],
)
def test_interval_results_match_duckdb(env: cb.Environment, expr: str) -> None:
    ours = env.sql(f"SELECT {expr} AS v").to_arrow_table()
    theirs = duckdb.sql(f"SELECT {expr} AS v").arrow()
    if hasattr(theirs, "read_all"):
        theirs = theirs.read_all()
    got = ours.column("v").to_pylist()[0]
    want = theirs.column("v").to_pylist()[0]
    kind = ours.schema.field("v").type
    if want is None:
        assert got is None
    elif pa.types.is_duration(kind):
        # DuckDB's INTERVAL is months, days and nanoseconds; a day-time one is an exact length.
        assert got == datetime.timedelta(days=want.days, microseconds=want.nanoseconds // 1000)
        assert want.months == 0
    else:
        assert pa.types.is_interval(kind), kind
        assert (got.months, got.days, got.nanoseconds) == (want.months, 0, 0)


class _Failing:
    """A source that fails where ``mode`` says, with its own message."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def schema(self) -> pa.Schema:
        return pa.schema([("i", pa.int64())])

    def scan(self, request: object) -> pa.RecordBatchReader:
        if self.mode == "scan":
            raise ValueError("no such partition 7")

        def batches() -> Iterator[pa.RecordBatch]:
            if self.mode == "first":
                raise KeyError("missing key zz")
            yield pa.record_batch([pa.array([1, 2, 3], pa.int64())], names=["i"])
            raise RuntimeError("disk on fire")

        return pa.RecordBatchReader.from_batches(self.schema(), batches())


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "auto"])
@pytest.mark.parametrize(
    ("mode", "text"),
    [
        ("scan", "ValueError: no such partition 7"),
        ("first", "KeyError: 'missing key zz'"),
        ("later", "RuntimeError: disk on fire"),
    ],
)
@pytest.mark.parametrize(
    "sql",
    ["SELECT * FROM s", "SELECT i + 1 AS j FROM s", "SELECT COUNT(*) AS n FROM s WHERE i > 1"],
)
def test_a_sources_own_message_reaches_the_user(
    backend: str, mode: str, text: str, sql: str
) -> None:
    env = cb.connect()  # in this process: the duckdb backend runs here
    try:
        env.register_source("s", _Failing(mode))
        with pytest.raises(cb.SourceError) as info:
            env.sql(sql, backend=None if backend == "auto" else backend).fetchall()
    finally:
        env.close()
    message = str(info.value)
    assert text in message and "'s'" in message, message
    assert not LEAKS.search(message.splitlines()[0]), message
