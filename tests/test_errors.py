"""SQL errors: the right type, the position of the problem, and an Environment that still works."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pytest
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb


@pytest.fixture
def t_env(env: cb.Environment) -> cb.Environment:
    env.execute("CREATE TABLE t (id INT NOT NULL, name STRING) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')")
    return env


def still_works(env: cb.Environment) -> None:
    assert env.sql("SELECT id FROM t ORDER BY id").fetchall() == [(1,), (2,)]


def test_syntax_error_position_and_caret(t_env: cb.Environment) -> None:
    sql = "SELECT id FRM t"
    with pytest.raises(cb.SqlParseError) as info:
        t_env.sql(sql)
    e = info.value
    assert isinstance(e, cb.Error)
    assert (e.line, e.column) == (1, 15)  # the unexpected token "t"
    assert e.sql == sql
    text = str(e)
    assert "line 1, column 15" in text
    assert text.splitlines()[-2:] == ["1 | SELECT id FRM t", "  |               ^"]
    still_works(t_env)


def test_syntax_error_on_a_later_line(t_env: cb.Environment) -> None:
    sql = "SELECT id,\n  name\nFROM t\nWHERE id >> 1"
    with pytest.raises(cb.SqlParseError) as info:
        t_env.sql(sql)
    e = info.value
    assert (e.line, e.column) == (4, 10)
    lines = str(e).splitlines()
    assert lines[-2] == "4 | WHERE id >> 1"
    assert lines[-1].index("^") == lines[-2].index(">")
    still_works(t_env)


def test_unknown_column_position(t_env: cb.Environment) -> None:
    sql = "SELECT id\nFROM t\nWHERE  nmae = 'a'"
    with pytest.raises(cb.SqlValidationError) as info:
        t_env.sql(sql)
    e = info.value
    assert "nmae" in e.message
    assert (e.line, e.column, e.end_line, e.end_column) == (3, 8, 3, 11)
    assert str(e).splitlines()[-1] == "  |        ^^^^"
    still_works(t_env)


@pytest.mark.parametrize(
    ("sql", "where"),
    [
        ("INSERT INTO t SELECT id, nme FROM t", (1, 26, 1, 28)),
        ("INSERT INTO t\nSELECT id, name\nFROM t WHERE zz > 1", (3, 14, 3, 15)),
        ("INSERT INTO t SELECT * FROM t WHERE nme = 'a'", (1, 37, 1, 39)),
        ("INSERT INTO t (id, name)\n  SELECT id, nme FROM t", (2, 14, 2, 16)),
    ],
)
def test_an_unknown_column_in_an_inserts_query_is_where_it_is_written(
    t_env: cb.Environment, sql: str, where: tuple[int, int, int, int]
) -> None:
    # The INSERT's query was checked on a copy read again from its unparsed text, and its errors
    # pointed into that text (line 1, column 8 for any column of the SELECT list).
    with pytest.raises(cb.SqlValidationError) as info:
        t_env.execute(sql)
    e = info.value
    assert (e.line, e.column, e.end_line, e.end_column) == where, str(e)
    still_works(t_env)


def test_unknown_column_in_select_list(t_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError) as info:
        t_env.sql("SELECT id, nme FROM t")
    assert (info.value.line, info.value.column, info.value.end_column) == (1, 12, 14)
    assert "nme" in str(info.value)


def test_unknown_nested_field(env: cb.Environment) -> None:
    env.execute("CREATE TABLE n (addr ROW<city STRING>) WITH ('connector' = 'memory')")
    with pytest.raises(cb.SqlValidationError, match="zip"):
        env.sql("SELECT addr.zip FROM n")


def test_unknown_table_is_named(t_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError) as info:
        t_env.sql("SELECT *\n  FROM t JOIN nosuch ON true")
    e = info.value
    assert "nosuch" in e.message
    assert (e.line, e.column, e.end_column) == (2, 15, 20)
    still_works(t_env)


def test_validate_and_explain_raise_the_same_errors(t_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError, match="nosuch"):
        t_env.validate("SELECT * FROM nosuch")
    with pytest.raises(cb.SqlParseError):
        t_env.explain("SELECT FROM WHERE")
    still_works(t_env)


def test_unknown_type_name(t_env: cb.Environment) -> None:
    with pytest.raises((cb.SqlParseError, cb.SqlValidationError)) as info:
        t_env.execute("CREATE TABLE u (a INTEGR) WITH ('connector' = 'memory')")
    assert "INTEGR" in str(info.value)
    assert info.value.column == 19
    assert "u" not in t_env.tables()
    still_works(t_env)


def test_duplicate_column(t_env: cb.Environment) -> None:
    with pytest.raises((cb.SqlParseError, cb.SqlValidationError)) as info:
        t_env.execute("CREATE TABLE u (a INT, b STRING, a STRING) WITH ('connector' = 'memory')")
    message = str(info.value)
    assert "Duplicate" in message and "'a'" in message
    assert "u" not in t_env.tables()
    still_works(t_env)


def test_unknown_connector(t_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError, match="nosuch") as info:
        t_env.execute("CREATE TABLE u (a INT) WITH ('connector' = 'nosuch')")
    assert "memory" in str(info.value)  # names what is available
    assert "u" not in t_env.tables()


def test_sql_rejects_statements_that_are_not_queries(t_env: cb.Environment) -> None:
    for statement in (
        "INSERT INTO t VALUES (3, 'c')",
        "CREATE TABLE u (a INT) WITH ('connector' = 'memory')",
        "DROP TABLE t",
    ):
        with pytest.raises(cb.SqlValidationError, match="execute"):
            t_env.sql(statement)
    # Nothing ran.
    assert "u" not in t_env.tables()
    still_works(t_env)


def test_create_existing_table(t_env: cb.Environment) -> None:
    with pytest.raises(cb.CatalogError, match="'t'"):
        t_env.execute("CREATE TABLE t (x INT) WITH ('connector' = 'memory')")
    with pytest.raises(cb.CatalogError, match="'t'"):
        t_env.execute("CREATE VIEW t AS SELECT 1 AS x")
    assert [c.name for c in t_env.describe("t")] == ["id", "name"]
    still_works(t_env)


def test_describe_unknown_table(t_env: cb.Environment) -> None:
    with pytest.raises(cb.CatalogError, match="nosuch"):
        t_env.describe("nosuch")


def test_type_mismatch(t_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError):
        t_env.sql("SELECT id FROM t WHERE name > ARRAY[1]")
    still_works(t_env)


def test_runtime_error_while_reading_rows(t_env: cb.Environment) -> None:
    t_env.execute("CREATE TABLE s (x STRING) WITH ('connector' = 'memory')")
    t_env.execute("INSERT INTO s VALUES ('1'), ('oops'), ('3')")
    with pytest.raises(cb.ExecutionError, match="oops") as info:
        t_env.sql("SELECT CAST(x AS INT) FROM s").fetchall()
    assert "\tat " not in str(info.value)  # no Java stack trace in the message
    still_works(t_env)


def test_division_by_zero_is_an_error(t_env: cb.Environment) -> None:
    with pytest.raises(cb.ExecutionError, match="zero"):
        t_env.sql("SELECT id / (id - 1) FROM t").fetchall()
    still_works(t_env)


def test_constant_division_by_zero_names_the_problem(t_env: cb.Environment) -> None:
    with pytest.raises(cb.ExecutionError, match="zero"):
        t_env.sql("SELECT 1 / 0").fetchall()


def test_many_errors_in_a_row(t_env: cb.Environment) -> None:
    for _ in range(20):
        with pytest.raises(cb.SqlParseError):
            t_env.sql("SELEC 1")
        with pytest.raises(cb.SqlValidationError):
            t_env.sql("SELECT nope FROM t")
    still_works(t_env)


# A failure while the rows stream (after the statement started and batches came back) is typed
# like any other: the JVM carries its kind across the Arrow stream, on both transports.

BIG = 200_000


def _read_all(result: cb.Result) -> int:
    """Reads ``result`` batch by batch; returns how many rows came before the failure."""
    seen = 0
    for batch in result.to_arrow_reader():
        seen += batch.num_rows
    return seen


def test_division_by_zero_while_rows_stream(env: cb.Environment) -> None:
    # The zero comes last: earlier batches are read before the failure.
    env.register_arrow("big", pa.table({"i": pa.array(range(BIG, -1, -1), pa.int32())}))
    with pytest.raises(cb.ExecutionError) as info:
        # Over a gateway, a failure within the first chunk of rows is raised by sql() itself.
        _read_all(env.sql("SELECT 10 / i AS q FROM big"))
    e = info.value
    assert type(e) is cb.ExecutionError
    assert e.message == "The query failed while it ran: Division by zero"
    assert "java" not in str(e).lower() and "Exception" not in str(e)
    assert env.sql("SELECT COUNT(*) AS n FROM big").fetchall() == [(BIG + 1,)]


class _FailsAfterFirstBatch:
    """A source whose reader yields one batch, then raises."""

    def schema(self) -> pa.Schema:
        return pa.schema([("i", pa.int64())])

    def scan(self, request: object) -> pa.RecordBatchReader:
        def batches() -> Iterator[pa.RecordBatch]:
            yield pa.record_batch([pa.array([1, 2, 3], pa.int64())], names=["i"])
            raise RuntimeError("disk on fire")

        return pa.RecordBatchReader.from_batches(self.schema(), batches())


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM flaky",  # the source's own batches come back
        "SELECT i + 1 AS j FROM flaky",  # rows run through the JVM's engine
        "SELECT COUNT(*) AS n FROM flaky",  # an aggregate over the source's batches
    ],
)
def test_a_source_that_raises_after_its_first_batch(env: cb.Environment, sql: str) -> None:
    env.register_source("flaky", _FailsAfterFirstBatch())
    with pytest.raises(cb.SourceError) as info:
        _read_all(env.sql(sql))
    e = info.value
    assert isinstance(e, cb.ExecutionError)  # a source failing is the statement failing
    assert e.message == "Source 'flaky' failed while it was read: RuntimeError: disk on fire"
    assert "java" not in str(e).lower() and "Exception" not in str(e)
    assert e.source_traceback is not None and "disk on fire" in e.source_traceback
    assert env.sql("SELECT 1 AS a").fetchall() == [(1,)]


def test_a_stream_failure_without_a_carried_error_is_an_execution_error() -> None:
    e = cb.errors.from_stream_failure(OSError("the stream broke"), "SELECT 1")
    assert type(e) is cb.ExecutionError
    assert e.message == "The query failed while it ran: the stream broke"


def test_a_carried_error_keeps_its_kind_and_position() -> None:
    marker = cb.errors.STREAM_FAILURE_MARKER
    text = (
        "[errno 5] "
        + marker
        + '{"kind": "VALIDATION", "message": "bad", "line": 1, "column": 8, "end_line": 1,'
        + ' "end_column": 10, "detail": ""}. Detail: more text'
    )
    e = cb.errors.from_stream_failure(OSError(text), "SELECT nme FROM t")
    assert type(e) is cb.SqlValidationError
    assert (e.message, e.line, e.column, e.end_column) == ("bad", 1, 8, 10)


@pytest.mark.parametrize("case", load_cases("parse_errors.sql"), ids=lambda c: c.name)
def test_parse_errors_say_what_to_do(env: cb.Environment, case: SqlCase) -> None:
    with pytest.raises(cb.SqlParseError) as info:
        env.execute(case.sql)
    assert info.value.message == case.get("message")
    assert "<" not in info.value.message.replace("<EOF>", "")  # no internal token names
    line, column = (int(n) for n in case.split("at"))
    assert (info.value.line, info.value.column) == (line, column)


@pytest.mark.parametrize(
    "sql, where",
    [
        ("SELECT 1,\n  CAST(1 AS DOUBLE) / 0 AS q", (2, 3)),
        ("SELECT CAST(1 AS DECIMAL(5, 2)) / 0", (1, 8)),
        ("SELECT x FROM (VALUES (1)) AS t(x) WHERE x > 1 / 0.0", (1, 46)),
    ],
)
def test_a_constant_division_by_zero_fails_at_its_position(
    t_env: cb.Environment, sql: str, where: tuple[int, int]
) -> None:
    # Computed while planning, as Flink does, and pointed at in the SQL like any other error.
    with pytest.raises(cb.ExecutionError, match="Division by zero") as info:
        t_env.sql(sql).fetchall()
    assert (info.value.line, info.value.column) == where
    still_works(t_env)
