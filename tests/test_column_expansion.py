"""table.column-expansion-strategy: which columns `*` expands (DESIGN §5).

The cases of fixtures/column_expansion.sql check exact column lists; the tests below check the
rows where data flows (INSERT, explicit metadata reads), views, DESCRIBE and the Table API.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.tables import T_DDL, setup_column_expansion

import calcite_bridge as cb

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"

ALL_STRATEGIES = [
    "",
    "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS",
    "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
    "EXCLUDE_COMPUTED_COLUMNS",
    "EXCLUDE_PERSISTED_METADATA_COLUMNS",
    "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS;EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS;"
    "EXCLUDE_COMPUTED_COLUMNS;EXCLUDE_PERSISTED_METADATA_COLUMNS",
]


FIXTURE = "column_expansion.sql"
CASES = load_cases(FIXTURE, keys={"strategy", "columns"})


@pytest.fixture
def x_env(env: cb.Environment) -> cb.Environment:
    return setup_column_expansion(env)


def test_fixture_has_cases() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_star_expansion(x_env: cb.Environment, case: SqlCase) -> None:
    columns = case.split("columns")
    x_env.config.set("table.column-expansion-strategy", case.get("strategy", ""))
    assert x_env.validate(case.sql).names == columns
    result = x_env.sql(case.sql)
    assert result.columns == columns
    result.fetchall()  # the query runs, not only validates


@pytest.mark.golden
@pytest.mark.jpype_only(reason="plans are the same on both transports")
def test_golden_plans(x_env: cb.Environment, golden: Callable[[str, dict[str, str]], None]) -> None:
    plans = {}
    for case in CASES:
        x_env.config.set("table.column-expansion-strategy", case.get("strategy", ""))
        plans[case.name] = x_env.explain(case.sql)
    golden(FIXTURE, plans)


def test_strategy_is_set_by_sql_list_and_string(env: cb.Environment) -> None:
    env.execute("SET 'table.column-expansion-strategy' = 'exclude_computed_columns; '")
    assert env.config.get("table.column-expansion-strategy") == ["EXCLUDE_COMPUTED_COLUMNS"]
    env.config.set(
        "table.column-expansion-strategy",
        ["EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS", "EXCLUDE_COMPUTED_COLUMNS"],
    )
    assert env.config.get("table.column-expansion-strategy") == [
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS",
        "EXCLUDE_COMPUTED_COLUMNS",
    ]
    env.execute("RESET 'table.column-expansion-strategy'")
    assert env.config.get("table.column-expansion-strategy") == []


def test_connect_config_applies(
    x_env: cb.Environment, connect: Callable[..., cb.Environment]
) -> None:
    env = connect(
        config={"table.column-expansion-strategy": ["EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"]}
    )
    env.execute(T_DDL)
    assert env.sql("SELECT * FROM t").columns == ["i", "s", "rt2", "rt3", "rt4"]


def test_unknown_value_fails_when_set_and_names_allowed(env: cb.Environment) -> None:
    with pytest.raises(cb.ConfigError) as e:
        env.config.set("table.column-expansion-strategy", "EXCLUDE_EVERYTHING")
    for allowed in (
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS",
        "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
        "EXCLUDE_COMPUTED_COLUMNS",
        "EXCLUDE_PERSISTED_METADATA_COLUMNS",
    ):
        assert allowed in str(e.value)
    with pytest.raises(cb.ConfigError):
        env.execute("SET 'table.column-expansion-strategy' = 'NOPE'")
    assert env.config.get("table.column-expansion-strategy") == []


def test_explicit_metadata_reads_rows(x_env: cb.Environment) -> None:
    x_env.config.set(
        "table.column-expansion-strategy",
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS;EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
    )
    row = x_env.sql("SELECT i, rt1, rt2 IS NOT NULL AS has_ts, rt3, rt4 = rt2 AS same FROM t")
    (i, rt1, has_ts, rt3, same) = row.fetchone() or ()
    assert (i, rt1, has_ts, same) == (1, None, True, True)
    assert rt3 is not None and rt3.year == 2024
    assert x_env.sql("SELECT b, * FROM c").fetchall() == [(42, 21, 42)]


@pytest.mark.parametrize("strategy", ALL_STRATEGIES)
def test_insert_select_star_into_itself_always_works(x_env: cb.Environment, strategy: str) -> None:
    x_env.config.set("table.column-expansion-strategy", strategy)
    before = x_env.sql("SELECT i, s FROM t").fetchall()
    x_env.execute("INSERT INTO t SELECT * FROM t")
    assert sorted(x_env.sql("SELECT i, s FROM t").fetchall()) == sorted(before * 2)
    x_env.execute("INSERT INTO c SELECT * FROM c")
    assert x_env.sql("SELECT a, b FROM c").fetchall() == [(21, 42), (21, 42)]


def test_insert_select_star_of_another_table_maps_by_position(x_env: cb.Environment) -> None:
    """A star that a strategy shortened does not map by name onto another table: too few columns
    is refused, as Flink refuses it (tests/flink/scripts/kafka_metadata.sql)."""
    x_env.execute(
        "CREATE TABLE copy (i INT, s STRING, rt3 TIMESTAMP_LTZ(3)) WITH ('connector' = 'memory')"
    )
    x_env.config.set("table.column-expansion-strategy", "EXCLUDE_PERSISTED_METADATA_COLUMNS")
    with pytest.raises(cb.SqlValidationError, match="writes 3 columns") as e:
        x_env.execute("INSERT INTO copy SELECT * FROM t")
    assert (e.value.line, e.value.column) == (1, 18)
    assert x_env.sql("SELECT COUNT(*) FROM copy").fetchall() == [(0,)]


def test_insert_select_star_keeps_persisted_metadata(x_env: cb.Environment) -> None:
    x_env.execute("INSERT INTO t SELECT * FROM t")
    rows = x_env.sql("SELECT rt3 FROM t").fetchall()
    assert len(rows) == 2 and rows[0] == rows[1] and rows[0][0] is not None


def test_insert_count_mismatch_names_both_lists(x_env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError) as e:
        x_env.execute("INSERT INTO t SELECT i, s, rt1, rt2, rt3, rt4 FROM t")
    assert "i, s, rt3, rt4" in str(e.value)
    assert "i, s, rt1, rt2, rt3, rt4" in str(e.value)
    assert e.value.line == 1 and e.value.column == 15


@pytest.mark.parametrize(("column", "kind"), [("rt1", "virtual metadata"), ("b", "computed")])
def test_unwritable_insert_target_names_the_column(
    x_env: cb.Environment, column: str, kind: str
) -> None:
    table = "t" if column == "rt1" else "c"
    with pytest.raises(cb.SqlValidationError, match=f"'{column}'.*{kind}"):
        x_env.execute(f"INSERT INTO {table} ({column}) VALUES (NULL)")


def test_view_keeps_columns_when_strategy_changes(x_env: cb.Environment) -> None:
    x_env.config.set(
        "table.column-expansion-strategy",
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS;EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
    )
    x_env.execute("CREATE VIEW v1 AS SELECT * FROM t1")
    expected = ["t1_i", "t1_s", "t1_m_default", "t1_m_aliased"]
    assert x_env.sql("SELECT * FROM v1").columns == expected
    for strategy in ALL_STRATEGIES:
        x_env.config.set("table.column-expansion-strategy", strategy)
        result = x_env.sql("SELECT * FROM v1")
        assert result.columns == expected
        assert result.fetchall() == [(1, "x", 7, "k")]


def test_describe_lists_every_column_with_its_kind(x_env: cb.Environment) -> None:
    x_env.config.set("table.column-expansion-strategy", ALL_STRATEGIES[-1])
    cols = {c.name: c for c in x_env.describe("t")}
    assert list(cols) == ["i", "s", "rt1", "rt2", "rt3", "rt4"]
    assert (cols["rt1"].kind, cols["rt1"].metadata_key, cols["rt1"].virtual) == (
        "METADATA",
        "rt1",
        True,
    )
    assert (cols["rt2"].metadata_key, cols["rt2"].virtual) == ("timestamp", True)
    assert (cols["rt4"].metadata_key, cols["rt4"].virtual) == ("timestamp", False)
    assert cols["i"].kind == "PHYSICAL" and cols["i"].metadata_key is None
    computed = x_env.describe("c")[1]
    assert (computed.kind, computed.expression) == ("COMPUTED", "`a` * 2")


def test_show_create_table_recreates_the_table(
    x_env: cb.Environment, connect: Callable[..., cb.Environment]
) -> None:
    ddl = x_env.execute("SHOW CREATE TABLE t").fetchone()
    assert ddl is not None
    # Flink's SHOW CREATE TABLE writes TIMESTAMP_LTZ(3) in its serializable form.
    assert "`rt2` TIMESTAMP(3) WITH LOCAL TIME ZONE METADATA FROM 'timestamp' VIRTUAL" in ddl[0]
    other = connect()
    other.execute(ddl[0])
    assert other.describe("t") == x_env.describe("t")


def test_table_api_star_honours_strategy(x_env: cb.Environment) -> None:
    x_env.config.set("table.column-expansion-strategy", "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS")
    assert x_env.table("t").select("*").columns == ["i", "s", "rt2", "rt3", "rt4"]
    assert x_env.table("t").select("*", "rt1").columns == ["i", "s", "rt2", "rt3", "rt4", "rt1"]
    assert x_env.table("t").select("rt1", "*").columns == ["rt1", "i", "s", "rt2", "rt3", "rt4"]
    chained = x_env.table("t").where("i = 1").select("i", "rt1").select("*")
    assert chained.columns == ["i", "rt1"]
    assert chained.to_arrow_table().to_pylist() == [{"i": 1, "rt1": None}]
    assert "BridgeTableScan" in chained.explain()


def test_table_api_unknown_table(env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError, match="nope"):
        env.table("nope")
