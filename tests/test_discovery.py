"""Field discovery (DESIGN §6): a name no table declares is asked of the tables in scope."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.tables import setup_discovery, write_discovery_files

import calcite_bridge as cb
from calcite_bridge.sources import ArrowTableSource

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return write_discovery_files(tmp_path)


@pytest.fixture
def d_env(env: cb.Environment, files: Path) -> cb.Environment:
    return setup_discovery(env, files)


def test_star_expands_declared_columns_only(d_env: cb.Environment) -> None:
    assert d_env.sql("SELECT * FROM t").columns == ["id"]
    assert "DESCRIBE" not in d_env.execute("SHOW CREATE TABLE t").fetchall()[0][0]


def test_discovered_columns_have_the_file_types(d_env: cb.Environment) -> None:
    schema = d_env.validate("SELECT score, tag, info.k AS k, score * 2 AS twice FROM t")
    assert [str(f.type) for f in schema] == ["double", "string", "int32", "double"]


FIXTURE = "discovery.sql"
CASES = load_cases(FIXTURE, keys={"rows", "plan_has"})


def test_fixture_has_cases() -> None:
    assert len(CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_discovered_columns_work_in_every_clause(d_env: cb.Environment, case: SqlCase) -> None:
    if case.has("plan_has"):
        plan = d_env.explain(case.sql)
        for part in case.all("plan_has"):
            assert part in plan, plan
    assert d_env.sql(case.sql).fetchall() == case.literal("rows")


@pytest.mark.golden
@pytest.mark.jpype_only(reason="plans are the same on both transports")
def test_golden_plans(d_env: cb.Environment, golden: Callable[[str, dict[str, str]], None]) -> None:
    golden(FIXTURE, {case.name: d_env.explain(case.sql) for case in CASES})


def test_a_declared_column_always_wins(d_env: cb.Environment) -> None:
    assert d_env.sql("SELECT id, name FROM m WHERE id = 1").fetchall() == [(1, "x")]


def test_not_found_anywhere_is_the_usual_error(d_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError, match="Column 'nope' not found") as e:
        d_env.sql("SELECT nope FROM t")
    assert (e.value.line, e.value.column) == (1, 8)


def test_found_in_two_tables_is_ambiguous(d_env: cb.Environment, files: Path) -> None:
    d_env.execute(
        f"CREATE TABLE u (id BIGINT, ...) WITH ('connector'='filesystem', 'path'='{files}')"
    )
    with pytest.raises(cb.SqlValidationError, match="'score' is ambiguous"):
        d_env.sql("SELECT score FROM t JOIN u ON t.id = u.id")


class Discovering(ArrowTableSource):
    """A Python source that knows more fields than its schema shows."""

    def __init__(self, table: pa.Table) -> None:
        super().__init__(table)
        self.asked: list[str] = []

    def schema(self) -> pa.Schema:
        return pa.schema([self.table.schema.field("id")])

    def discover_column(self, name: str) -> str | None:
        self.asked.append(name)
        return {"extra": "STRING"}.get(name)


def test_a_python_source_answers_discovery(env: cb.Environment) -> None:
    source = Discovering(pa.table({"id": [1, 2], "extra": ["p", None]}))
    env.register_source("s", source)
    assert env.sql("SELECT id, extra FROM s ORDER BY id").fetchall() == [(1, "p"), (2, None)]
    assert source.asked == ["extra"]
    assert env.sql("SELECT * FROM s").columns == ["id"]


@pytest.fixture
def m_env(env: cb.Environment) -> cb.Environment:
    env.execute("CREATE TABLE d (id INT, ...) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO d (id, color, size) VALUES (1, 'red', 42), (2, 'blue', NULL)")
    env.execute("INSERT INTO d VALUES (3)")
    return env


def test_insert_stores_undeclared_columns_in_the_blob(m_env: cb.Environment) -> None:
    assert m_env.sql("SELECT * FROM d").columns == ["id"]
    rows = m_env.sql(
        "SELECT id, COLUMN_JSON(_dynamic), COLUMN_LIST(_dynamic) FROM d ORDER BY id"
    ).fetchall()
    assert rows == [
        (1, '{"size":42,"color":"red"}', "`size`,`color`"),
        (2, '{"color":"blue"}', "`color`"),
        (3, None, None),
    ]


def test_default_storage_reads_with_the_default_type(m_env: cb.Environment) -> None:
    assert m_env.validate("SELECT color, size FROM d").types == [pa.string(), pa.string()]
    rows = m_env.sql("SELECT id, color, size FROM d ORDER BY id").fetchall()
    assert rows == [(1, "red", "42"), (2, "blue", None), (3, None, None)]
    assert m_env.sql("SELECT id FROM d WHERE color = 'blue'").fetchall() == [(2,)]


def test_default_type_converts_as_column_get(env: cb.Environment) -> None:
    env.execute("CREATE TABLE n (id INT, ... INT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO n (id, qty) VALUES (1, '42x')")
    env.execute("INSERT INTO n (id, qty) VALUES (2, 7)")
    env.execute("INSERT INTO n (id, qty) VALUES (3, 'abc')")
    assert env.validate("SELECT qty FROM n").types == [pa.int32()]
    assert env.sql("SELECT id, qty + 1 FROM n ORDER BY id").fetchall() == [(1, 43), (2, 8), (3, 1)]
    assert "... INT" in env.execute("SHOW CREATE TABLE n").fetchall()[0][0]


def test_discovered_columns_work_in_views(d_env: cb.Environment) -> None:
    d_env.execute("CREATE VIEW v AS SELECT id, score FROM t WHERE tag = 'a'")
    assert d_env.sql("SELECT * FROM v ORDER BY id").fetchall() == [(1, 1.5), (4, 4.5)]
    assert d_env.sql("SELECT score FROM v WHERE id = 4").fetchall() == [(4.5,)]


def test_a_qualified_name_asks_only_that_table(d_env: cb.Environment, files: Path) -> None:
    d_env.execute(
        f"CREATE TABLE u (id BIGINT, ...) WITH ('connector'='filesystem', 'path'='{files}')"
    )
    rows = d_env.sql("SELECT t.score FROM t JOIN u ON t.id = u.id WHERE u.id = 1").fetchall()
    assert rows == [(1.5,)]
