"""``calcite_bridge.dbapi``, the PEP 249 module: the public-domain DB-API 2.0 compliance suite
(Stuart Bishop's ``dbapi20.py``, from the ``dbapi-compliance`` package) with only its documented
override points used, then what it does not cover: errors that are both PEP 249's and
calcite-bridge's with their position, type objects, Arrow fetches, executemany, pandas."""

from __future__ import annotations

import datetime as dt
import decimal
import warnings
from typing import Any, ClassVar

import pyarrow as pa
import pytest

import calcite_bridge as cb
from calcite_bridge import dbapi

dbapi20 = pytest.importorskip("dbapi20", reason="the dev extra: pip install dbapi-compliance")

MEMORY = " WITH ('connector' = 'memory')"


class TestDatabaseAPI20(dbapi20.DatabaseAPI20Test):  # type: ignore[misc]
    """The compliance suite. Overrides: the DDL (a table needs its connector) and the two tests
    the suite says a driver must write itself."""

    driver = dbapi
    connect_args = ()
    connect_kw_args: ClassVar[dict[str, Any]] = {}
    ddl1 = dbapi20.DatabaseAPI20Test.ddl1 + MEMORY
    ddl2 = dbapi20.DatabaseAPI20Test.ddl2 + MEMORY

    def test_nextset(self) -> None:
        # No statement returns more than one result set: the optional nextset() is absent.
        con = self._connect()
        try:
            self.assertFalse(hasattr(con.cursor(), "nextset"))
        finally:
            con.close()

    def test_setoutputsize(self) -> None:
        # Results come whole, as Arrow: setoutputsize changes nothing a fetch returns.
        con = self._connect()
        try:
            cur = con.cursor()
            self.executeDDL1(cur)
            cur.execute(f"insert into {self.table_prefix}booze values ('Victoria Bitter')")
            cur.setoutputsize(3, 0)
            cur.execute(f"select name from {self.table_prefix}booze")
            self.assertEqual(cur.fetchall(), [("Victoria Bitter",)])
        finally:
            con.close()


@pytest.fixture
def con() -> Any:
    with dbapi.connect() as connection:
        cur = connection.cursor()
        cur.execute(
            "CREATE TABLE t (i INT, s STRING, d DATE, m DECIMAL(5, 2), b BYTES, x DOUBLE)" + MEMORY
        )
        cur.executemany(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)",
            [
                (1, "a", dt.date(2024, 1, 1), decimal.Decimal("1.50"), b"\x01", 0.5),
                (2, "it's", None, decimal.Decimal("2.25"), None, None),
                (3, None, dt.date(2024, 3, 1), None, b"", 3.0),
            ],
        )
        yield connection


def test_executemany_sums_its_rowcount(con: Any) -> None:
    cur = con.cursor()
    cur.executemany("INSERT INTO t (i, s) VALUES (?, ?)", [(4, "d"), (5, "e")])
    assert cur.rowcount == 2
    assert cur.description is None
    cur.execute("SELECT COUNT(*) FROM t")
    assert cur.fetchone() == (5,)


def test_description_has_the_type_objects(con: Any) -> None:
    cur = con.execute("SELECT i, s, d, m, b, x FROM t")
    codes = [d[1] for d in cur.description]
    assert codes == ["INT", "STRING", "DATE", "DECIMAL", "BYTES", "DOUBLE"]
    assert [
        dbapi.NUMBER,
        dbapi.STRING,
        dbapi.DATETIME,
        dbapi.NUMBER,
        dbapi.BINARY,
        dbapi.NUMBER,
    ] == codes
    assert dbapi.STRING != "INT" and dbapi.ROWID != "INT"
    assert cur.description[3][4:] == (5, 2, True)
    assert all(len(d) == 7 for d in cur.description)


def test_a_query_with_parameters(con: Any) -> None:
    cur = con.cursor()
    cur.execute("SELECT i, s FROM t WHERE i > ? AND s = ?", (1, "it's"))
    assert cur.fetchall() == [(2, "it's")]
    cur.execute("SELECT i FROM t WHERE d = ?", [dbapi.Date(2024, 3, 1)])
    assert list(cur) == [(3,)]


def test_errors_are_pep_249s_and_calcite_bridges_with_their_position(con: Any) -> None:
    cur = con.cursor()
    with pytest.raises(dbapi.ProgrammingError) as info:
        cur.execute("SELECT i FROM t WHERE i = ? AND s = ?", (1,))
    assert isinstance(info.value, cb.SqlValidationError)
    assert isinstance(info.value, con.DatabaseError)
    assert (info.value.line, info.value.column) == (1, 37)
    assert "2 parameters" in str(info.value)
    with pytest.raises(dbapi.ProgrammingError) as parse:
        cur.execute("SELEC 1")
    assert isinstance(parse.value, cb.SqlParseError)
    with pytest.raises(dbapi.ProgrammingError):
        cur.execute("SELECT * FROM missing")
    with pytest.raises(dbapi.DataError) as data:
        cur.execute("SELECT i / 0 FROM t").fetchall()
    assert isinstance(data.value, cb.ExecutionError)
    with pytest.raises(dbapi.ProgrammingError, match="qmark"):
        cur.execute("SELECT i FROM t WHERE i = ?", {"i": 1})
    with pytest.raises(dbapi.NotSupportedError, match="no transactions"):
        con.rollback()


def test_fetch_arrow_table_and_record_batch_take_the_rows_not_fetched(con: Any) -> None:
    cur = con.execute("SELECT i FROM t ORDER BY i")
    assert cur.fetchone() == (1,)
    table = cur.fetch_arrow_table()
    assert isinstance(table, pa.Table)
    assert table.column("i").to_pylist() == [2, 3]
    reader = con.execute("SELECT i, s FROM t ORDER BY i").fetch_record_batch(2)
    assert isinstance(reader, pa.RecordBatchReader)
    batches = list(reader)
    assert [b.num_rows for b in batches] == [2, 1]
    assert pa.Table.from_batches(batches).column("s").to_pylist() == ["a", "it's", None]


def test_fetchmany_follows_arraysize(con: Any) -> None:
    cur = con.execute("SELECT i FROM t ORDER BY i")
    assert cur.fetchmany() == [(1,)]
    cur.arraysize = 5
    assert cur.fetchmany() == [(2,), (3,)]
    assert cur.fetchmany() == []


def test_a_connection_over_an_existing_environment_leaves_it_open() -> None:
    env = cb.connect()
    try:
        env.execute("CREATE TABLE e (i INT)" + MEMORY)
        with dbapi.connect(env) as con:
            con.execute("INSERT INTO e VALUES (?)", (7,))
        assert env.sql("SELECT i FROM e").fetchall() == [(7,)]
    finally:
        env.close()


def test_a_closed_cursor_or_connection_refuses_work(con: Any) -> None:
    cur = con.cursor()
    cur.close()
    with pytest.raises(dbapi.ProgrammingError, match="cursor is closed"):
        cur.execute("SELECT 1")
    other = dbapi.connect()
    other.close()
    with pytest.raises(dbapi.ProgrammingError, match="connection is closed"):
        other.cursor()


def test_the_constructors() -> None:
    assert dbapi.Date(2024, 1, 2) == dt.date(2024, 1, 2)
    assert dbapi.Time(1, 2, 3) == dt.time(1, 2, 3)
    assert dbapi.Timestamp(2024, 1, 2, 3, 4, 5) == dt.datetime(2024, 1, 2, 3, 4, 5)
    assert dbapi.TimestampFromTicks(0) == dt.datetime.fromtimestamp(0)
    assert dbapi.Binary(bytearray(b"ab")) == b"ab"


def test_pandas_read_sql_with_params(con: Any) -> None:
    pd = pytest.importorskip("pandas")
    with warnings.catch_warnings():
        # pandas names SQLAlchemy and sqlite3 as the connections it tests; a DB-API one works
        warnings.simplefilter("ignore", UserWarning)
        frame = pd.read_sql("SELECT i, s FROM t WHERE i >= ? ORDER BY i", con, params=(2,))
    assert list(frame.columns) == ["i", "s"]
    assert frame["i"].tolist() == [2, 3]
    assert frame["s"].tolist()[0] == "it's"


def test_executemany_of_an_insert_is_one_statement_of_every_row(con: Any) -> None:
    cur = con.cursor()
    rows = [(10 + i, f"r{i}'", None, decimal.Decimal(i), bytes([i]), i / 2) for i in range(200)]
    cur.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", rows)
    assert cur.rowcount == 200
    cur.execute("SELECT i, s, m, b, x FROM t WHERE i >= 10 ORDER BY i")
    assert cur.fetchall() == [(r[0], r[1], r[3], r[4], r[5]) for r in rows]
    # one statement: a value that fails leaves the table as it was (an INSERT is atomic)
    with pytest.raises(dbapi.ProgrammingError) as info:
        cur.executemany("INSERT INTO t (i, s) VALUES (?, ?)", [(1000, "ok"), (1001, object())])
    assert (info.value.line, info.value.column) == (1, 33)
    cur.execute("SELECT COUNT(*) FROM t WHERE i >= 1000")
    assert cur.fetchone() == (0,)


def test_executemany_of_another_statement_runs_it_once_per_row(con: Any) -> None:
    cur = con.cursor()
    cur.executemany(
        "INSERT INTO t (i, s) SELECT ?, ? FROM (VALUES (1)) AS v(x)", [(7, "a"), (8, "b")]
    )
    assert cur.rowcount == 2
    cur.executemany("DELETE FROM t WHERE i = ?", [(7,), (8,), (9,)])
    cur.execute("SELECT COUNT(*) FROM t WHERE i IN (7, 8)")
    assert cur.fetchone() == (0,)


def test_a_query_whose_column_is_named_as_a_count_returns_its_rows(con: Any) -> None:
    cur = con.execute("SELECT i AS rows_inserted FROM t ORDER BY i")
    assert [d[0] for d in cur.description] == ["rows_inserted"]
    assert cur.rowcount == -1
    assert cur.fetchall() == [(1,), (2,), (3,)]
    cur.execute("SELECT COUNT(*) AS rows_deleted FROM t WHERE s IS NULL")
    assert cur.fetchall() == [(1,)]


def test_explain_and_show_create_table_return_their_text(con: Any) -> None:
    cur = con.execute("EXPLAIN SELECT i FROM t WHERE i > ?", (1,))
    assert [d[:2] for d in cur.description] == [("result", "STRING")]
    (plan,) = cur.fetchone()
    assert "== Optimized Physical Plan ==" in plan
    assert cur.fetchone() is None
    cur.execute("SHOW CREATE TABLE t")
    assert cur.fetchall()[0][0].startswith("CREATE TABLE `default_catalog`.`default_database`.`t`")
    cur.execute("SET 'execution.backend' = 'auto'")  # "OK" alone: no rows
    assert cur.description is None and cur.rowcount == -1


def test_a_statement_set_counts_the_rows_of_every_insert(con: Any) -> None:
    cur = con.cursor()
    cur.execute("CREATE TABLE u (i INT)" + MEMORY)
    cur.execute(
        "EXECUTE STATEMENT SET BEGIN INSERT INTO t (i) VALUES (7), (8);"
        " INSERT INTO u VALUES (9); END"
    )
    assert cur.rowcount == 3
    assert cur.description is None
