"""ROW values as keys: GROUP BY, DISTINCT, COUNT(DISTINCT ...), joins on ``=`` and set operations
compare ROWs by their fields on Calcite's engine (which holds a ROW as an array), as DuckDB and
Flink do: NULL fields equal each other, a NULL ROW is a group of its own. The same holds for an
ARRAY of ROWs, a MAP with ROW values and nested ROWs. Each answer is checked against one computed
here from the table's values, and against DuckDB where it runs the query."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest

import calcite_bridge as cb

PT = pa.struct([("x", pa.int32()), ("y", pa.string())])
NEST = pa.struct([("a", PT), ("b", pa.float64())])

IDS = [1, 2, 3, 4, 5, 6]
PTS: list[dict[str, Any] | None] = [
    {"x": 1, "y": "a"},
    {"x": 1, "y": "a"},
    {"x": 2, "y": None},
    None,
    {"x": 2, "y": None},
    {"x": None, "y": None},
]
# 0.0 and -0.0 are equal fields; a NULL inner ROW is equal to another.
NESTS: list[dict[str, Any] | None] = [
    {"a": {"x": 1, "y": "a"}, "b": 0.0},
    {"a": {"x": 1, "y": "a"}, "b": -0.0},
    {"a": None, "b": 1.5},
    {"a": None, "b": 1.5},
    None,
    {"a": {"x": None, "y": None}, "b": None},
]
ARRS: list[list[dict[str, Any] | None] | None] = [
    [{"x": 1, "y": "a"}],
    [{"x": 1, "y": "a"}],
    [{"x": 2, "y": None}],
    [{"x": 2, "y": None}, None],
    None,
    [],
]
MAPS: list[list[tuple[str, dict[str, Any] | None]] | None] = [
    [("k", {"x": 1, "y": "a"})],
    [("k", {"x": 1, "y": "a"})],
    [("k", None)],
    [("k", None)],
    None,
    [("j", {"x": 1, "y": "a"})],
]
COLUMNS: dict[str, list[Any]] = {"pt": PTS, "nest": NESTS, "arr": ARRS, "m": MAPS}


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    """In this process: DuckDB reads the registered Arrow tables where they are."""
    e = cb.connect()
    e.register_arrow(
        "t",
        pa.table(
            {
                "id": pa.array(IDS, pa.int32()),
                "pt": pa.array(PTS, PT),
                "nest": pa.array(NESTS, NEST),
                "arr": pa.array(ARRS, pa.list_(PT)),
            }
        ),
    )
    # DuckDB does not read a MAP with ROW values: a table of its own, for Calcite's engine.
    e.register_arrow(
        "mt",
        pa.table({"id": pa.array(IDS, pa.int32()), "m": pa.array(MAPS, pa.map_(pa.string(), PT))}),
    )
    yield e
    e.close()


def freeze(value: Any) -> Any:
    """A value as a hashable key, compared as SQL grouping compares it."""
    if isinstance(value, dict):
        return tuple((k, freeze(v)) for k, v in value.items())
    if isinstance(value, list):
        if value and all(isinstance(e, tuple) and len(e) == 2 for e in value):
            return frozenset((k, freeze(v)) for k, v in value)  # a MAP's entries
        return tuple(freeze(e) for e in value)
    if isinstance(value, float) and value == 0.0:
        return 0.0
    return value


def table_of(column: str) -> str:
    return "mt" if column == "m" else "t"


def run(env: cb.Environment, sql: str, backend: str) -> list[dict[str, Any]]:
    return env.sql(sql, backend=backend).to_arrow_table().to_pylist()


def counted(rows: list[dict[str, Any]], key: str) -> Counter[Any]:
    return Counter({freeze(r[key]): r["c"] for r in rows})


@pytest.mark.parametrize("column", list(COLUMNS))
def test_group_by(env: cb.Environment, column: str) -> None:
    sql = f"SELECT {column}, COUNT(*) AS c FROM {table_of(column)} GROUP BY {column}"
    got = run(env, sql, "enumerable")
    assert len(got) == len(counted(got, column))
    assert counted(got, column) == Counter(freeze(v) for v in COLUMNS[column])


@pytest.mark.parametrize("column", list(COLUMNS))
def test_distinct(env: cb.Environment, column: str) -> None:
    got = run(env, f"SELECT DISTINCT {column} FROM {table_of(column)}", "enumerable")
    keys = [freeze(r[column]) for r in got]
    assert sorted(map(repr, keys)) == sorted(map(repr, {freeze(v) for v in COLUMNS[column]}))


@pytest.mark.parametrize("column", list(COLUMNS))
def test_count_distinct(env: cb.Environment, column: str) -> None:
    sql = f"SELECT COUNT(DISTINCT {column}) AS n FROM {table_of(column)}"
    expected = len({freeze(v) for v in COLUMNS[column] if v is not None})
    assert run(env, sql, "enumerable") == [{"n": expected}]


@pytest.mark.parametrize("column", list(COLUMNS))
def test_join(env: cb.Environment, column: str) -> None:
    t = table_of(column)
    sql = f"SELECT a.id AS l, b.id AS r FROM {t} a JOIN {t} b ON a.{column} = b.{column}"
    values = COLUMNS[column]
    expected = sorted(
        (IDS[i], IDS[j])
        for i in range(len(IDS))
        for j in range(len(IDS))
        if values[i] is not None and freeze(values[i]) == freeze(values[j])
    )
    got = sorted((r["l"], r["r"]) for r in run(env, sql, "enumerable"))
    assert got == expected


@pytest.mark.parametrize("column", list(COLUMNS))
@pytest.mark.parametrize("op", ["UNION", "INTERSECT", "EXCEPT"])
def test_set_operations(env: cb.Environment, column: str, op: str) -> None:
    t = table_of(column)
    sql = f"SELECT {column} FROM {t} WHERE id <= 3 {op} SELECT {column} FROM {t} WHERE id >= 3"
    values = COLUMNS[column]
    low = {freeze(v) for i, v in zip(IDS, values, strict=True) if i <= 3}
    high = {freeze(v) for i, v in zip(IDS, values, strict=True) if i >= 3}
    expected = {"UNION": low | high, "INTERSECT": low & high, "EXCEPT": low - high}[op]
    got = [freeze(r[column]) for r in run(env, sql, "enumerable")]
    assert len(got) == len(set(got))
    assert set(got) == expected


def test_keys_keep_their_type(env: cb.Environment) -> None:
    got = env.sql("SELECT DISTINCT nest, arr FROM t", backend="enumerable").to_arrow_table()
    assert got.schema.field("nest").type == NEST
    assert got.schema.field("arr").type == pa.list_(PT)


def test_the_rows_fields_are_read_above_the_key(env: cb.Environment) -> None:
    sql = "SELECT k.pt.x AS x, k.c AS c FROM (SELECT pt, COUNT(*) AS c FROM t GROUP BY pt) k"
    got = sorted(map(str, run(env, sql, "enumerable")))
    expected = [{"x": 1, "c": 2}, {"x": 2, "c": 2}, {"x": None, "c": 1}, {"x": None, "c": 1}]
    assert got == sorted(map(str, expected))


DUCKDB_QUERIES = [
    "SELECT pt, COUNT(*) AS c, MIN(id) AS lo FROM t GROUP BY pt",
    "SELECT nest, arr, COUNT(*) AS c FROM t GROUP BY nest, arr",
    "SELECT pt, arr, COUNT(DISTINCT nest) AS d, COUNT(DISTINCT pt) AS e FROM t GROUP BY pt, arr",
    "SELECT COUNT(DISTINCT pt) AS a, COUNT(DISTINCT nest) AS b, COUNT(DISTINCT id) AS c FROM t",
    "SELECT DISTINCT nest.a FROM t",
    "SELECT a.id, b.id AS id2 FROM t a JOIN t b ON a.pt = b.pt AND a.id < b.id",
    "SELECT a.id, b.id AS id2 FROM t a LEFT JOIN t b ON a.nest = b.nest AND a.id <> b.id",
    "SELECT a.id, b.id AS id2 FROM t a FULL JOIN t b ON a.arr = b.arr AND a.id <> b.id",
    "SELECT id FROM t a WHERE EXISTS (SELECT 1 FROM t b WHERE b.pt = a.pt AND b.id <> a.id)",
    "SELECT id FROM t a WHERE NOT EXISTS (SELECT 1 FROM t b WHERE b.arr = a.arr AND b.id <> a.id)",
    "SELECT id, pt FROM t UNION SELECT id, pt FROM t",
    "SELECT nest FROM t INTERSECT SELECT nest FROM t WHERE id > 1",
    "SELECT arr FROM t EXCEPT SELECT arr FROM t WHERE id = 1",
]


@pytest.mark.parametrize("sql", DUCKDB_QUERIES)
def test_answers_as_duckdb(env: cb.Environment, sql: str) -> None:
    calcite = run(env, sql, "enumerable")
    duck = run(env, sql, "duckdb")
    assert sorted(map(str, calcite)) == sorted(map(str, duck))


def test_a_window_partitioned_by_a_row_is_refused(env: cb.Environment) -> None:
    sql = "SELECT id, COUNT(*) OVER (PARTITION BY pt) AS c FROM t"
    with pytest.raises(cb.UnsupportedError, match="PARTITION BY a ROW value"):
        run(env, sql, "enumerable")
    got = sorted((r["id"], r["c"]) for r in run(env, sql, "auto"))
    assert got == [(1, 2), (2, 2), (3, 2), (4, 1), (5, 2), (6, 1)]


def test_a_comparison_of_rows_in_a_filter_runs(env: cb.Environment) -> None:
    got = run(env, "SELECT id FROM t WHERE pt = ROW(1, 'a')", "enumerable")
    assert sorted(r["id"] for r in got) == [1, 2]
