"""Internal errors the crash fuzzer found (tests/fuzz/crash.py): each case of
fixtures/internal_errors.sql raises its typed error, with its position where the input is at
fault, or gives its rows. No message names a Java class. Also: an empty statement, INTERVAL
results against DuckDB, and a source's own error message on every backend."""

from __future__ import annotations

import datetime
import decimal
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
    if backend == "auto" and error == "UnsupportedError":
        # auto runs on DuckDB what Calcite's engine cannot: rows or any typed error is right.
        try:
            tables.sql(case.sql, backend=run).fetchall()
        except cb.Error as e:
            assert type(e) is not cb.Error, str(e)
            assert not LEAKS.search(str(e).splitlines()[0]), str(e)
        return
    with pytest.raises(cb.Error) as raised:
        tables.sql(case.sql, backend=run).fetchall()
    e = raised.value
    assert type(e) is getattr(cb, error), f"{case.where}: {type(e).__name__}: {e}"
    assert re.search(case.get("match") or "", str(e)), str(e)
    assert not LEAKS.search(str(e).splitlines()[0]), str(e)
    column = case.get("column")
    if column is not None:
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


# Issue 30: INSERT checks its columns' types as Flink does, with the position of the query's
# column (a ClassCastException of a String to a List or a Map while the rows were written).
@pytest.mark.parametrize(
    ("columns", "bad", "sink"),
    [
        ("i, b, d, m, s, bo, dt, ts, tl, s, mp, r, bt", "s, mp", "arr"),
        ("i, b, d, m, s, bo, dt, ts, tl, arr, s, r, bt", "s, r", "mp"),
        ("i, b, d, m, s, s, dt, ts, tl, arr, mp, r, bt", "s, dt", "bo"),
        ("i, b, d, m, s, bo, dt, ts, tl, arr, mp, s, bt", "s, bt", "r"),
        ("i, b, d, m, arr, bo, dt, ts, tl, arr, mp, r, bt", "arr, bo", "s"),
    ],
)
def test_insert_of_incompatible_column_types_is_refused_with_its_position(
    tables: cb.Environment, columns: str, bad: str, sink: str
) -> None:
    sql = f"INSERT INTO e SELECT {columns} FROM t"
    with pytest.raises(cb.SqlValidationError) as info:
        tables.execute(sql)
    e = info.value
    assert f"incompatible types for sink column '{sink}'" in str(e), str(e)
    assert (e.line, e.column) == (1, sql.index(f" {bad}") + 2), str(e)
    assert tables.sql("SELECT COUNT(*) FROM e").fetchall() == [(0,)]


def test_insert_of_compatible_column_types_still_runs() -> None:
    with cb.connect() as env:
        env.execute(
            "CREATE TABLE src (i INT, a ARRAY<INT>, r ROW<x INT>) WITH ('connector' = 'memory')"
        )
        env.execute("INSERT INTO src VALUES (1, ARRAY[1, 2], ROW(3))")
        env.execute(
            "CREATE TABLE dst (b BIGINT, a ARRAY<BIGINT>, r ROW<x BIGINT>, d DOUBLE)"
            " WITH ('connector' = 'memory')"
        )
        env.execute("INSERT INTO dst SELECT i, a, r, i FROM src")
        assert env.sql("SELECT b, a, r.x, d FROM dst").fetchall() == [(1, [1, 2], 3, 1.0)]


# Issue 30: INSERT INTO t VALUES (ROW(1, 'x')) into a table of one ROW column was read as two
# columns (Calcite's grammar takes the parenthesised ROW as the row itself).
@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_insert_of_a_parenthesized_row_into_one_row_column(backend: str) -> None:
    with cb.connect(config={"execution.backend": backend}) as env:
        env.execute("CREATE TABLE rt (r ROW<a INT, b STRING>) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO rt VALUES (ROW(1, 'x')), (ROW(CAST(NULL AS INT), 'y'))")
        env.execute("INSERT INTO rt VALUES ROW(ROW(2, 'z'))")
        assert env.sql("SELECT r.a, r.b FROM rt").fetchall() == [(1, "x"), (None, "y"), (2, "z")]
        env.execute("CREATE TABLE two (a INT, b STRING) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO two VALUES ROW(3, 'w')")
        assert env.sql("SELECT a, b FROM two").fetchall() == [(3, "w")]


# A sink column takes what Flink casts to it implicitly (LogicalTypeCasts): wider numbers, a
# string into a string, a TIMESTAMP into a DATE; a DOUBLE went into an INT as 3 for 3.5, and an INT
# into a STRING as its digits. Each case: the INSERT, then the refused column (or the values).
SCALAR_INSERTS = [
    ("INSERT INTO sk (b) SELECT d FROM src", "b"),
    ("INSERT INTO sk (b) VALUES (2.5)", "b"),
    ("INSERT INTO sk (b) VALUES (1), (2.5)", "b"),
    ("INSERT INTO sk (b) SELECT i + CAST(1 AS BIGINT) FROM src", "b"),
    ("INSERT INTO sk (a) SELECT i FROM src", "a"),
    ("INSERT INTO sk (a) VALUES (5)", "a"),
    ("INSERT INTO sk (b) SELECT s FROM src", "b"),
    ("INSERT INTO sk (f) SELECT d FROM src", "f"),
    ("INSERT INTO sk (dt) SELECT s FROM src", "dt"),
    ("INSERT INTO sk (ts) SELECT dt FROM src", "ts"),
    ("INSERT INTO sk (a, b) VALUES ('x', CAST(NULL AS DOUBLE))", "b"),
    ("INSERT INTO sk (bi) SELECT i FROM src", [(3,), (None,)]),
    ("INSERT INTO sk (c) SELECT i FROM src", [(3.0,), (None,)]),
    ("INSERT INTO sk (m) SELECT d FROM src", [(decimal.Decimal("3.50"),), (None,)]),
    ("INSERT INTO sk (f) VALUES (1.5)", [(1.5,)]),
    ("INSERT INTO sk (a) SELECT ch FROM src", [("ab ",), (None,)]),
    ("INSERT INTO sk (ch) SELECT s FROM src", [("7  ",), (None,)]),
    ("INSERT INTO sk (dt) SELECT ts FROM src", [(datetime.date(2024, 1, 2),), (None,)]),
    ("INSERT INTO sk (b) VALUES (CAST(NULL AS INT))", [(None,)]),
    ("INSERT INTO sk (b) VALUES (NULL)", [(None,)]),
]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
@pytest.mark.parametrize(("sql", "outcome"), SCALAR_INSERTS, ids=[c[0] for c in SCALAR_INSERTS])
def test_insert_takes_the_column_types_flink_casts_implicitly(
    sql: str, outcome: str | list[tuple[object, ...]], backend: str
) -> None:
    with cb.connect(config={"execution.backend": backend}) as env:
        env.execute(
            "CREATE TABLE src (i INT, d DOUBLE, s STRING, ch CHAR(3), dt DATE, ts TIMESTAMP(3))"
            " WITH ('connector' = 'memory')"
        )
        env.execute(
            "INSERT INTO src VALUES (3, 3.5E0, '7', 'ab', DATE '2024-01-02',"
            " TIMESTAMP '2024-01-02 03:04:05.123'),"
            " (NULL, NULL, NULL, NULL, NULL, NULL)"
        )
        env.execute(
            "CREATE TABLE sk (a STRING, b INT, bi BIGINT, c DOUBLE, f FLOAT, m DECIMAL(5, 2),"
            " ch CHAR(3), dt DATE, ts TIMESTAMP(3)) WITH ('connector' = 'memory')"
        )
        if isinstance(outcome, str):
            with pytest.raises(cb.SqlValidationError) as info:
                env.execute(sql)
            assert f"incompatible types for sink column '{outcome}'" in str(info.value)
            assert info.value.column is not None and info.value.column > 1, str(info.value)
            assert env.sql("SELECT COUNT(*) FROM sk").fetchall() == [(0,)]
        else:
            env.execute(sql)
            column = sql.split("(")[1].split(")", maxsplit=1)[0]
            assert env.sql(f"SELECT {column} FROM sk").fetchall() == outcome


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO e (i) SELECT ELEMENT(arr) FROM t",
        "INSERT INTO e (i, s) SELECT ELEMENT(arr), s FROM t WHERE i = 1",
    ],
)
def test_a_failure_of_the_rows_of_an_insert_is_an_execution_error(
    tables: cb.Environment, sql: str
) -> None:
    # As in a SELECT of the same rows; it was an internal error in an INSERT.
    with pytest.raises(cb.ExecutionError, match="ELEMENT: the array has more than one element"):
        tables.sql("SELECT ELEMENT(arr) FROM t").fetchall()
    with pytest.raises(cb.ExecutionError, match="ELEMENT: the array has more than one element"):
        tables.execute(sql)
    assert tables.sql("SELECT COUNT(*) FROM e").fetchall() == [(0,)]


def test_validate_of_element_of_an_untyped_null_is_typed(tables: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError, match="Cannot infer the type of ELEMENT") as info:
        tables.validate("SELECT ELEMENT(NULL) AS e FROM t ORDER BY NULL LIMIT 1")
    assert (info.value.line, info.value.column) == (1, 8)


@pytest.mark.parametrize("spec", ["os:system", "subprocess:Popen", "builtins:eval"])
def test_a_python_class_outside_the_allowed_modules_is_access_denied(spec: str) -> None:
    with cb.connect() as env:
        with pytest.raises(cb.AccessDeniedError, match=r"python\.allowed-modules"):
            env.execute(f"CREATE TABLE p (x INT) WITH ('connector' = 'python', 'class' = '{spec}')")
        assert "p" not in env.tables()


@pytest.mark.parametrize(
    ("sql", "column"),
    [
        ("SELECT 1 AS `a\x00b`", 15),
        ("SELECT i AS `x\x00` FROM t", 15),
        ("SELECT `\x00s` FROM t", 9),
    ],
)
def test_a_nul_in_an_identifier_is_a_parse_error(
    tables: cb.Environment, sql: str, column: int
) -> None:
    # It was cut at the NUL (a column named `a`).
    with pytest.raises(cb.SqlParseError, match="NUL character") as info:
        tables.sql(sql).fetchall()
    assert (info.value.line, info.value.column) == (1, column)


def test_a_nul_in_a_string_literal_is_kept(tables: cb.Environment) -> None:
    assert tables.sql("SELECT 'a\x00b' AS s").fetchall() == [("a\x00b",)]
