"""Differential tests: each case of fixtures/queries.sql against DuckDB over the same Arrow data."""

from __future__ import annotations

import decimal
import math
from collections.abc import Iterator

import duckdb
import pytest
from tests.helpers.fixtures import load_cases
from tests.helpers.tables import ORACLE_TABLES, ordered

import calcite_bridge as cb

QUERIES = "queries.sql"

TABLES = ORACLE_TABLES

# Cases that differ for a known reason, by name.
KNOWN: dict[str, str] = {}


CASES = [(case.name, case.sql) for case in load_cases(QUERIES, keys=set())]


def norm(value: object) -> object:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        f = float(value)
        return round(f, 9) if math.isfinite(f) else f
    return value


def normalise(rows: list[tuple[object, ...]], keep_order: bool) -> list[tuple[object, ...]]:
    out = [tuple(norm(v) for v in row) for row in rows]
    return out if keep_order else sorted(out, key=repr)


@pytest.fixture(scope="module")
def engines() -> Iterator[tuple[cb.Environment, duckdb.DuckDBPyConnection]]:
    env = cb.connect()
    con = duckdb.connect()
    for name, table in TABLES.items():
        env.register_arrow(name, table)
        con.register(name, table)
    yield env, con
    con.close()
    env.close()


def test_fixture_file_parses() -> None:
    names = [name for name, _ in CASES]
    assert len(names) == len(set(names)) and len(names) >= 40


@pytest.mark.parametrize(
    ("name", "sql"),
    [
        pytest.param(name, sql, id=name, marks=pytest.mark.xfail(reason=KNOWN[name], strict=True))
        if name in KNOWN
        else pytest.param(name, sql, id=name)
        for name, sql in CASES
    ],
)
def test_same_rows_as_duckdb(
    engines: tuple[cb.Environment, duckdb.DuckDBPyConnection], name: str, sql: str
) -> None:
    env, con = engines
    keep_order = ordered(sql)
    expected = normalise(con.execute(sql).fetchall(), keep_order)
    res = env.sql(sql)
    got = normalise(res.fetchall(), keep_order)
    assert len(res.columns) == len(con.execute(sql).description)
    assert got == expected
