"""Wrong results and errors found by differential testing (issue 13): each case of
fixtures/correctness.sql, on every backend, against its right answer (DuckDB's, the standard one).

A case gives its ``rows`` (compared as a multiset, numbers as floats, NULL as None) or the typed
``error`` it raises; ``refused: duckdb`` marks a query the DuckDB translation does not cover, which
the duckdb backend refuses and auto runs on Calcite's engine (``refused: enumerable``: one Calcite's
engine cannot run, which auto runs on DuckDB).

On the spark backend (``local[1]``, the process's one Spark session), each case gives the same
answer or is refused (``cb.UnsupportedError``): Spark's translation covers less than DuckDB's, and
a refusal is the one outcome besides the right answer that a query may have there.
"""

from __future__ import annotations

import decimal
import re
from collections.abc import Iterator

import pytest
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb

CASES = load_cases("correctness.sql", keys={"rows", "error", "match", "refused"})
BACKENDS = ("enumerable", "duckdb", "auto")

# The tables of the cases; the INSERT into dd is E3's statement (a DECIMAL literal and a NULL
# into a DOUBLE column), and the INSERT into nr writes a NULL field of a ROW next to an ARRAY
# (it failed with a NullPointerException) and a ROW of NULL fields (a row, not a NULL, as in
# Flink); cases read both back.
CORRECTNESS_TABLES = """
CREATE TABLE ts (a INT, b INT) WITH ('connector' = 'memory');
INSERT INTO ts VALUES (1, 1), (2, 5);
CREATE TABLE tb (b BIGINT, d STRING) WITH ('connector' = 'memory');
INSERT INTO tb VALUES (3, '7'), (CAST(NULL AS BIGINT), '8');
CREATE TABLE l (a INT) WITH ('connector' = 'memory');
INSERT INTO l VALUES (4);
CREATE TABLE r (a INT) WITH ('connector' = 'memory');
INSERT INTO r VALUES (5), (5);
CREATE TABLE z (c DOUBLE) WITH ('connector' = 'memory');
INSERT INTO z VALUES (0.0);
CREATE TABLE zn (c DOUBLE) WITH ('connector' = 'memory');
INSERT INTO zn VALUES (CAST(NULL AS DOUBLE));
CREATE TABLE zi (a INT) WITH ('connector' = 'memory');
INSERT INTO zi VALUES (0);
CREATE TABLE t0 (a INT, d DOUBLE) WITH ('connector' = 'memory');
INSERT INTO t0 VALUES (1, 1.0);
CREATE TABLE t1 (a INT, b INT, f DATE, bb BIGINT) WITH ('connector' = 'memory');
INSERT INTO t1 VALUES (1, 5, DATE '2020-01-01', 5000000000);
CREATE TABLE s (a INT) WITH ('connector' = 'memory');
INSERT INTO s VALUES (CAST(NULL AS INT));
CREATE TABLE o (a INT) WITH ('connector' = 'memory');
INSERT INTO o VALUES (53);
CREATE TABLE ov (i INT, b BIGINT, s SMALLINT) WITH ('connector' = 'memory');
INSERT INTO ov VALUES (2147483647, 9223372036854775807, CAST(32767 AS SMALLINT)),
    (1, 1, CAST(1 AS SMALLINT)), (CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT));
CREATE TABLE dd (x DOUBLE) WITH ('connector' = 'memory');
INSERT INTO dd VALUES (1.5), (NULL);
CREATE TABLE j0 (a INT, d STRING) WITH ('connector' = 'memory');
INSERT INTO j0 VALUES (1, '1'), (2, CAST(NULL AS STRING));
CREATE TABLE j1 (a INT, d STRING) WITH ('connector' = 'memory');
INSERT INTO j1 VALUES (1, 'x'), (3, 'y');
CREATE TABLE nr (id INT, r ROW<a INT, xs ARRAY<INT>>) WITH ('connector' = 'memory');
INSERT INTO nr VALUES (1, ROW(NULL, ARRAY[1, 2])), (2, ROW(3, ARRAY[4])),
    (3, ROW(CAST(NULL AS INT), CAST(NULL AS ARRAY<INT>)));
CREATE TABLE pn (b BIGINT, c DOUBLE, e BOOLEAN) WITH ('connector' = 'memory');
INSERT INTO pn VALUES (1, 2.0, TRUE), (CAST(NULL AS BIGINT), 3.0, FALSE);
CREATE TABLE fa (d DATE, i INT) WITH ('connector' = 'memory');
INSERT INTO fa VALUES (CAST(NULL AS DATE), 0);
CREATE TABLE fb (b BOOLEAN) WITH ('connector' = 'memory');
INSERT INTO fb VALUES (CAST(NULL AS BOOLEAN));
CREATE TABLE fe (a INT) WITH ('connector' = 'memory');
CREATE TABLE th (x DOUBLE, y DOUBLE, t TIMESTAMP(3)) WITH ('connector' = 'memory');
INSERT INTO th VALUES (2.0, 1.0, TIMESTAMP '2024-01-01 10:00:00'),
    (1.0, 1.0, TIMESTAMP '2024-01-01 10:00:00'),
    (CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE), CAST(NULL AS TIMESTAMP(3)));
CREATE TABLE ni0 (b BIGINT, e BOOLEAN) WITH ('connector' = 'memory');
INSERT INTO ni0 VALUES (5, FALSE);
CREATE TABLE ni1 (c DOUBLE) WITH ('connector' = 'memory');
INSERT INTO ni1 VALUES (CAST(NULL AS DOUBLE)), (1.0E0), (5.0E0);
CREATE TABLE nn (b BIGINT) WITH ('connector' = 'memory');
INSERT INTO nn VALUES (5), (CAST(NULL AS BIGINT));
CREATE TABLE rc (x INT, r ROW<a INT, b STRING>) WITH ('connector' = 'memory');
INSERT INTO rc VALUES (1, ROW(1, 'a')), (-1, ROW(2, 'b'));
CREATE VIEW rcn AS SELECT CAST(NULL AS ROW<a INT, b STRING>) AS n, x FROM rc
"""


@pytest.fixture(scope="module")
def tables() -> Iterator[cb.Environment]:
    env = cb.connect()
    for statement in CORRECTNESS_TABLES.strip().split(";\n"):
        env.execute(statement)
    yield env
    env.close()


def _norm(value: object) -> object:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        return float(value)
    return value


def _rows(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    return sorted((tuple(_norm(v) for v in row) for row in rows), key=repr)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_right_answer_or_a_refusal_on_spark(tables: cb.Environment, case: SqlCase) -> None:
    error = case.get("error")
    try:
        if error is not None:
            # The error's class; its message is Spark's own ("overflow" for "out of range").
            with pytest.raises((getattr(cb, error), cb.UnsupportedError)):
                tables.sql(case.sql, backend="spark").fetchall()
            return
        got = tables.sql(case.sql, backend="spark").fetchall()
    except cb.UnsupportedError as refused:
        assert "spark backend cannot run" in str(refused), str(refused)
        return
    assert _rows(got) == _rows(case.literal("rows")), case.where


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_right_answer_on_every_backend(tables: cb.Environment, case: SqlCase, backend: str) -> None:
    run = None if backend == "auto" else backend
    if backend in case.split("refused"):
        with pytest.raises(cb.UnsupportedError, match="cannot run"):
            tables.sql(case.sql, backend=run).fetchall()
        return
    error = case.get("error")
    if error is not None:
        kind = getattr(cb, error)
        with pytest.raises(kind) as raised:
            tables.sql(case.sql, backend=run).fetchall()
        assert re.search(case.get("match") or "", str(raised.value)), str(raised.value)
        return
    got = tables.sql(case.sql, backend=run).fetchall()
    assert _rows(got) == _rows(case.literal("rows")), case.where


def test_every_case_states_its_answer() -> None:
    for case in CASES:
        assert case.has("rows") != case.has("error"), case.where
        assert case.has("match") == case.has("error"), case.where


def test_insert_of_decimal_and_null_into_double_is_typed() -> None:
    env = cb.connect()
    try:
        env.execute("CREATE TABLE dd2 (x DOUBLE, y INT) WITH ('connector' = 'memory')")
        assert env.execute("INSERT INTO dd2 VALUES (1.5, 1), (NULL, 2)").to_pylist() == [
            {"rows_inserted": 2}
        ]
        table = env.sql("SELECT x, y FROM dd2").to_arrow_table()
        assert str(table.schema.field("x").type) == "double"
        assert table.to_pylist() == [{"x": 1.5, "y": 1}, {"x": None, "y": 2}]
    finally:
        env.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_rows_of_literals_and_nulls_go_into_float_columns(backend: str) -> None:
    # Calcite types the column of 1.5 and a NULL typed FLOAT as DOUBLE; each value fits.
    env = cb.connect(backend=None if backend == "auto" else backend)
    try:
        env.execute("CREATE TABLE fl (a FLOAT, b FLOAT) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO fl VALUES (1.5, 2.5), (NULL, NULL)")
        env.execute("INSERT INTO fl VALUES (0.25, CAST(NULL AS FLOAT)), (NULL, 3)")
        got = env.sql("SELECT a, b FROM fl").fetchall()
        assert sorted(got, key=repr) == sorted(
            [(1.5, 2.5), (None, None), (0.25, None), (None, 3.0)], key=repr
        )
        with pytest.raises(cb.SqlValidationError, match="the query gives DOUBLE"):
            env.execute("INSERT INTO fl VALUES (1.5, 2.5), (CAST(1 AS DOUBLE), NULL)")
    finally:
        env.close()
