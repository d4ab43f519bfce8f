"""Large inputs plan and give the right answers: IN lists of hundreds to 10^5 literals (a join
with a VALUES whose rows reach the generated code as one stashed list), over every common type,
with NULLs in the column and in the list, in WHERE and in the select list, negated or not.

DuckDB alone, over the same Arrow table, is the oracle."""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pytest

import calcite_bridge as cb

N = 300
TYPES = {
    "i": ("INT", pa.int32(), lambda k: k * 3),
    "b": ("BIGINT", pa.int64(), lambda k: 5_000_000_000 + k * 7),
    "d": ("DOUBLE", pa.float64(), lambda k: k / 4),
    "m": ("DECIMAL(10, 2)", pa.decimal128(10, 2), lambda k: decimal.Decimal(k) / 4),
    "s": ("STRING", pa.string(), lambda k: "x" * (k % 5) + str(k)),
    "dt": ("DATE", pa.date32(), lambda k: datetime.date(2020, 1, 1) + datetime.timedelta(k)),
    "ts": (
        "TIMESTAMP(3)",
        pa.timestamp("ms"),
        lambda k: datetime.datetime(2020, 1, 1) + datetime.timedelta(minutes=k),
    ),
}


_PREFIX = {"DATE": "DATE ", "TIMESTAMP(3)": "TIMESTAMP "}


def _literal(sql_type: str, value: object) -> str:
    if value is None:
        return f"CAST(NULL AS {sql_type})"
    if sql_type in ("STRING", "DATE", "TIMESTAMP(3)"):
        return f"{_PREFIX.get(sql_type, '')}'{value}'"
    if sql_type.startswith("DECIMAL") or sql_type == "BIGINT":
        return f"CAST({value} AS {sql_type})"
    return repr(value)


@pytest.fixture(scope="module")
def table() -> pa.Table:
    rows = range(2 * N)
    columns = {"k": pa.array(list(rows), pa.int32())}
    for name, (_, arrow_type, make) in TYPES.items():
        # Every seventh value NULL; the others hit the IN list for k < N.
        columns[name] = pa.array([None if k % 7 == 3 else make(k) for k in rows], arrow_type)
    return pa.table(columns)


@pytest.fixture(scope="module")
def env(table: pa.Table) -> Iterator[cb.Environment]:
    e = cb.connect()
    e.register_arrow("t", table)
    yield e
    e.close()


def _queries() -> Iterator[tuple[str, str]]:
    for name, (sql_type, _, make) in TYPES.items():
        # Every other value below N, so half the list misses; one NULL in the second list.
        values = [make(k) for k in range(0, 2 * N, 2)]
        plain = ", ".join(_literal(sql_type, v) for v in values)
        with_null = ", ".join(_literal(sql_type, v) for v in [*values[:-1], None])
        yield f"{name}_where", f"SELECT k FROM t WHERE {name} IN ({plain})"
        yield f"{name}_not_in", f"SELECT k FROM t WHERE {name} NOT IN ({plain})"
        yield f"{name}_not_in_null", f"SELECT k FROM t WHERE {name} NOT IN ({with_null})"
        yield f"{name}_select", f"SELECT k, {name} IN ({with_null}) AS hit FROM t"


QUERIES = dict(_queries())


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
@pytest.mark.parametrize("case", sorted(QUERIES))
def test_a_long_in_list_answers_as_duckdb(
    env: cb.Environment, table: pa.Table, backend: str, case: str
) -> None:
    sql = QUERIES[case]
    con = duckdb.connect()
    con.register("t", table)
    duck_sql = sql.replace("STRING", "VARCHAR")
    expected = sorted(con.sql(duck_sql).fetchall(), key=repr)
    got = sorted((tuple(r.values()) for r in env.sql(sql, backend=backend).to_pylist()), key=repr)
    assert got == expected
    assert len(expected) > 0 or case.endswith("_not_in_null")  # NOT IN (..., NULL) is never true


def test_an_in_list_of_a_hundred_thousand_literals_runs(env: cb.Environment) -> None:
    sql = "SELECT COUNT(*) AS n FROM t WHERE k IN (" + ", ".join(map(str, range(100_000))) + ")"
    assert env.sql(sql, backend="enumerable").to_pylist() == [{"n": 2 * N}]


def test_the_plan_stashes_a_long_values_list(env: cb.Environment) -> None:
    sql = "SELECT k FROM t WHERE k IN (" + ", ".join(map(str, range(100))) + ")"
    plan = env.explain(sql, backend="enumerable")
    assert "StashedValues" in plan
    short = env.explain("SELECT k FROM t WHERE k IN (1, 2, 3)", backend="enumerable")
    assert "StashedValues" not in short


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_repeated_literals_keep_each_row_once(env: cb.Environment, backend: str) -> None:
    listed = ", ".join(["1"] * 70 + ["2", "2", "NULL"])
    rows = env.sql(f"SELECT k FROM t WHERE k IN ({listed}) ORDER BY k", backend=backend)
    assert rows.to_pylist() == [{"k": 1}, {"k": 2}]


def test_the_duckdb_query_reads_a_long_list_as_a_scan(env: cb.Environment) -> None:
    sql = "SELECT k FROM t WHERE k IN (" + ", ".join(map(str, range(100))) + ")"
    plan = env.explain(sql, backend="duckdb")
    assert "scan_1: LogicalValues" in plan
    assert "VALUES" not in plan.split("\n", 1)[0].upper()
