"""An INSERT that leaves columns out of its column list, into a table whose computed columns stand
before other columns: each column left out is NULL, each computed column is computed from the
stored row when read (a computed column reading a column the INSERT left out once failed with an
internal error, or gave the left-out column the computed value)."""

from __future__ import annotations

import pytest

import calcite_bridge as cb

TABLES = {
    "m_virtual": "id INT NOT NULL, salary DOUBLE, bonus AS salary * 0.1, "
    "m TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL",
    "m_stored": "id INT NOT NULL, salary DOUBLE, bonus AS salary * 0.1, "
    "m TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'",
    "first": "b AS CASE WHEN salary IS NULL THEN -1 ELSE 1 END, id INT NOT NULL, "
    "salary DOUBLE, r ROW<x INT>, tags ARRAY<STRING>",
    "two": "id INT NOT NULL, k AS id * 2, s STRING, u AS UPPER(s), n BIGINT",
}

# (table, INSERT's columns and rows, the query read back, its rows)
CASES = [
    ("m_virtual", "(id) VALUES (2)", "SELECT id, salary, bonus", [(2, None, None)]),
    ("m_virtual", "(salary, id) VALUES (3.5, 6)", "SELECT id, salary, bonus", [(6, 3.5, 0.35)]),
    ("m_virtual", "VALUES (5, 2.5)", "SELECT id, salary, bonus", [(5, 2.5, 0.25)]),
    (
        "m_stored",
        "(id) VALUES (2)",
        "SELECT id, salary, bonus, m IS NULL",
        [(2, None, None, False)],
    ),
    ("first", "(id) VALUES (1)", "SELECT b, id, salary, r, tags", [(-1, 1, None, None, None)]),
    ("first", "(id, salary) VALUES (1, 0.5)", "SELECT b, salary", [(1, 0.5)]),
    ("two", "(id) VALUES (4)", "SELECT id, k, s, u, n", [(4, 8, None, None, None)]),
    ("two", "(s, id) VALUES ('ab', 1)", "SELECT id, k, s, u, n", [(1, 2, "ab", "AB", None)]),
    ("two", "(n, id) SELECT 7, 3", "SELECT id, k, s, u, n", [(3, 6, None, None, 7)]),
]


@pytest.mark.parametrize(("table", "insert", "query", "rows"), CASES)
def test_columns_left_out_are_null_and_computed_columns_computed(
    env: cb.Environment, table: str, insert: str, query: str, rows: list[tuple[object, ...]]
) -> None:
    env.execute(f"CREATE TABLE {table} ({TABLES[table]}) WITH ('connector' = 'memory')")
    assert "Insert(table=" in env.explain(f"INSERT INTO {table} {insert}")
    env.execute(f"INSERT INTO {table} {insert}")
    got = env.sql(f"{query} FROM {table}").fetchall()
    assert [tuple(round(v, 9) if isinstance(v, float) else v for v in r) for r in got] == rows


def test_a_not_null_column_left_out_is_still_the_validators_error(env: cb.Environment) -> None:
    env.execute(f"CREATE TABLE t ({TABLES['two']}) WITH ('connector' = 'memory')")
    with pytest.raises(cb.SqlValidationError, match="Column 'id' has no default value"):
        env.execute("INSERT INTO t (s) VALUES ('x')")
