"""Differential tests: each case of fixtures/queries.sql against DuckDB over the same Arrow data."""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pytest
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb

QUERIES = "queries.sql"

TABLES = {
    "emp": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5, 6], pa.int32()),
            "name": ["ann", "bob", "cy", None, "dora", "joe"],
            "salary": [100.0, 40.0, 80.0, None, 55.5, 40.0],
            "dept_id": pa.array([1, 2, 1, 3, None, 2], pa.int32()),
            "pad": ["  a ", "b", " c", None, "", "j  "],
        }
    ),
    "dept": pa.table(
        {
            "id": pa.array([1, 2, 4], pa.int32()),
            "dname": ["Sales", "Support", "Research"],
        }
    ),
    "nums": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5], pa.int32()),
            "x": pa.array([1, 2, 3, 7, None], pa.int64()),
            "y": pa.array([-1, 0, 5, None, 2], pa.int64()),
            "code": ["10", "-3", "0", None, "42"],
        }
    ),
}

# Cases that differ for a known reason, by name.
KNOWN: dict[str, str] = {}


CASES = [(case.name, case.sql) for case in load_cases(QUERIES, keys=set())]


def ordered(sql: str) -> bool:
    """True when the statement's outermost query has an ORDER BY."""
    depth = 0
    top = []
    for ch in sql:
        depth += ch == "("
        depth -= ch == ")"
        top.append(ch if depth == 0 else " ")
    return re.search(r"\bORDER\s+BY\b", "".join(top), re.IGNORECASE) is not None


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
