"""The plan cache: a query run again with the same text reuses its plan, and never a stale one.

Each test runs the same text twice with a change in between (to the catalog, to a table's data or
to a setting) and checks the second answer against the new state, on every backend the transport
offers. A probe source counts how often it is planned (``apply_filters``) and opened (``scan``):
a cached plan skips the first, never the second.
"""

from __future__ import annotations

import threading
from typing import Any

import pyarrow as pa
import pytest

import calcite_bridge as cb
from calcite_bridge.sources import ArrowTableSource

SIZE = "planner.plan-cache.size"


def backends(transport: str) -> list[str]:
    """The backends a query can ask for here: DuckDB runs only in the process reading results."""
    return ["auto", "enumerable", "duckdb"] if transport == "jpype" else ["auto", "enumerable"]


class Probe(ArrowTableSource):
    """An Arrow table source that counts its planning and its scans; its data can be swapped."""

    def __init__(self, table: pa.Table) -> None:
        super().__init__(table)
        self.planned = 0
        self.scans = 0

    def swap(self, table: pa.Table) -> None:
        """Serves ``table`` from now on."""
        super().__init__(table)

    def apply_filters(self, filters: list[Any]) -> Any:
        self.planned += 1
        return super().apply_filters(filters)

    def scan(self, request: Any) -> Any:
        self.scans += 1
        return super().scan(request)


def numbers(*values: int) -> pa.Table:
    return pa.table({"id": pa.array(range(len(values)), pa.int64()), "v": values})


FILTERED = "SELECT id, v FROM t WHERE v > 1 ORDER BY id"


def test_a_repeated_query_is_planned_once_and_scanned_each_time(
    env: cb.Environment, transport: str
) -> None:
    for backend in backends(transport):
        probe = Probe(numbers(1, 2, 3))
        env.register_source("t", probe, replace=True)
        for run in range(1, 4):
            assert env.sql(FILTERED, backend=backend).fetchall() == [(1, 2), (2, 3)]
            assert (probe.planned, probe.scans) == (1, run), backend


def test_a_cached_plan_reads_the_source_as_it_is_now(env: cb.Environment, transport: str) -> None:
    probe = Probe(numbers(1, 2, 3))
    env.register_source("t", probe)
    for backend in backends(transport):
        probe.swap(numbers(1, 2, 3))
        assert env.sql(FILTERED, backend=backend).fetchall() == [(1, 2), (2, 3)]
        probe.swap(numbers(5, 0, 7, 1))
        assert env.sql(FILTERED, backend=backend).fetchall() == [(0, 5), (2, 7)]


def test_size_zero_turns_the_cache_off(env: cb.Environment) -> None:
    assert env.config.get(SIZE) == "256"
    env.config.set(SIZE, "0")
    probe = Probe(numbers(1, 2, 3))
    env.register_source("t", probe)
    for run in range(1, 4):
        assert env.sql(FILTERED).fetchall() == [(1, 2), (2, 3)]
        assert probe.planned == run
    env.execute(f"RESET '{SIZE}'")
    env.sql(FILTERED).fetchall()
    env.sql(FILTERED).fetchall()
    assert probe.planned == 4


@pytest.mark.parametrize("value", ["-1", "many", "1.5", ""])
def test_size_must_be_a_whole_number(env: cb.Environment, value: str) -> None:
    with pytest.raises(cb.ConfigError, match=SIZE):
        env.config.set(SIZE, value)


def test_the_least_recently_used_plan_goes_first(env: cb.Environment) -> None:
    env.config.set(SIZE, "2")
    probe = Probe(numbers(1, 2, 3))
    env.register_source("t", probe)
    a, b, c = (f"SELECT id FROM t WHERE v > {n}" for n in (0, 1, 2))
    for sql in (a, b, a, c):  # c evicts b, the least recently used
        env.sql(sql).fetchall()
    assert probe.planned == 3
    env.sql(a).fetchall()
    assert probe.planned == 3
    assert env.sql(b).fetchall() == [(1,), (2,)]
    assert probe.planned == 4


def test_create_drop_and_create_again(env: cb.Environment, transport: str) -> None:
    sql = "SELECT * FROM m ORDER BY 1"
    for backend in backends(transport):
        env.execute("CREATE TABLE m (a INT, b STRING) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO m VALUES (1, 'x'), (2, NULL)")
        first = env.sql(sql, backend=backend)
        assert first.columns == ["a", "b"]
        assert first.fetchall() == [(1, "x"), (2, None)]
        env.execute("DROP TABLE m")
        with pytest.raises(cb.SqlValidationError, match="'m' not found"):
            env.sql(sql, backend=backend)
        with pytest.raises(cb.SqlValidationError, match="'m' not found"):
            env.validate(sql)
        with pytest.raises(cb.SqlValidationError, match="'m' not found"):
            env.explain(sql, backend=backend)
        env.execute("CREATE TABLE m (c DOUBLE) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO m VALUES (0.5), (CAST(NULL AS DOUBLE))")
        second = env.sql(sql, backend=backend)
        assert second.columns == ["c"]
        assert second.fetchall() == [(None,), (0.5,)]
        assert env.validate(sql).names == ["c"]
        env.execute("DROP TABLE m")


def test_insert_between_runs(env: cb.Environment, transport: str) -> None:
    env.execute("CREATE TABLE m (a INT, b STRING) WITH ('connector' = 'memory')")
    sql = "SELECT b, count(*) AS n FROM m GROUP BY b ORDER BY b NULLS FIRST"
    expected: list[tuple[Any, ...]] = []
    for i, backend in enumerate(backends(transport)):
        assert env.sql(sql, backend=backend).fetchall() == expected
        env.execute(f"INSERT INTO m VALUES ({i}, 'k{i}'), ({i}, CAST(NULL AS STRING))")
        expected = [(None, i + 1)] + [(f"k{j}", 1) for j in range(i + 1)]
        assert env.sql(sql, backend=backend).fetchall() == expected


def test_register_arrow_replacing_a_table(env: cb.Environment, transport: str) -> None:
    sql = "SELECT * FROM t WHERE id >= 1"
    for backend in backends(transport):
        env.register_arrow("t", pa.table({"id": [0, 1, 2]}), replace=True)
        assert env.sql(sql, backend=backend).fetchall() == [(1,), (2,)]
        env.register_arrow("t", pa.table({"id": [3, None], "name": ["c", None]}), replace=True)
        replaced = env.sql(sql, backend=backend)
        assert replaced.columns == ["id", "name"]
        assert replaced.fetchall() == [(3, "c")]
        assert env.validate(sql).names == ["id", "name"]


def test_view_dropped_and_defined_again(env: cb.Environment, transport: str) -> None:
    env.register_arrow("t", numbers(1, 2, 3))
    sql = "SELECT * FROM w ORDER BY 1"
    for backend in backends(transport):
        env.execute("CREATE VIEW w AS SELECT v FROM t WHERE v > 1")
        assert env.sql(sql, backend=backend).fetchall() == [(2,), (3,)]
        env.execute("DROP VIEW w")
        env.execute("CREATE VIEW w AS SELECT v * 10 AS ten FROM t WHERE v < 3")
        again = env.sql(sql, backend=backend)
        assert again.columns == ["ten"]
        assert again.fetchall() == [(10,), (20,)]
        env.execute("DROP VIEW w")


def test_set_execution_backend(env: cb.Environment, transport: str) -> None:
    env.register_arrow("t", numbers(1, 2, 3))
    sql = "SELECT v, count(*) AS n FROM t GROUP BY v ORDER BY v"
    duck = "duckdb" in backends(transport)
    plans = {}
    for backend in [*backends(transport), "auto"]:
        env.execute(f"SET 'execution.backend' = '{backend}'")
        plans[backend] = env.explain(sql)
        assert env.sql(sql).fetchall() == [(1, 1), (2, 1), (3, 1)]
        # The statement's own backend counts as much as the setting.
        assert env.explain(sql, backend="enumerable").startswith("Enumerable")
    assert plans["enumerable"].startswith("Enumerable")
    if duck:
        assert plans["duckdb"].startswith("DuckDB")
    assert plans["auto"] == plans["duckdb" if duck else "enumerable"]


def test_set_the_expansion_strategy(env: cb.Environment) -> None:
    env.execute(
        "CREATE TABLE e (a INT, b AS a + 1, "
        "`timestamp` TIMESTAMP_LTZ(3) METADATA VIRTUAL) WITH ('connector' = 'memory')"
    )
    env.execute("INSERT INTO e (a) VALUES (1)")
    sql = "SELECT * FROM e"
    assert env.validate(sql).names == ["a", "b", "timestamp"]
    assert env.sql(sql).columns == ["a", "b", "timestamp"]
    env.execute("SET 'table.column-expansion-strategy' = 'EXCLUDE_COMPUTED_COLUMNS'")
    assert env.validate(sql).names == ["a", "timestamp"]
    assert env.sql(sql).columns == ["a", "timestamp"]
    assert "+(" not in env.explain(sql)
    env.config.set("table.column-expansion-strategy", ["EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"])
    assert env.sql(sql).fetchall() == [(1, 2)]
    env.config.reset("table.column-expansion-strategy")
    assert env.validate(sql).names == ["a", "b", "timestamp"]


def test_set_the_local_time_zone(env: cb.Environment) -> None:
    sql = "SELECT CAST(CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(3)) AS BIGINT) AS ms"
    assert env.sql(sql).fetchall() == [(0,)]
    env.execute("SET 'table.local-time-zone' = 'Asia/Tokyo'")
    assert env.sql(sql).fetchall() == [(-9 * 3600 * 1000,)]
    env.config.set("table.local-time-zone", "UTC")
    assert env.sql(sql).fetchall() == [(0,)]


def test_a_failed_statement_is_not_cached(env: cb.Environment) -> None:
    sql = "SELECT v FROM t"
    with pytest.raises(cb.SqlValidationError, match="'t' not found") as failed:
        env.sql(sql)
    assert (failed.value.line, failed.value.column) == (1, 15)
    env.register_arrow("t", numbers(4))
    assert env.sql(sql).fetchall() == [(4,)]


def test_explain_formats_are_cached_apart(env: cb.Environment) -> None:
    env.register_arrow("t", numbers(1, 2, 3))
    sql = "SELECT v FROM t WHERE v > 1"
    text = env.explain(sql, backend="enumerable")
    as_json = env.explain(sql, format="json", backend="enumerable")
    assert text != as_json and as_json.lstrip().startswith("{")
    assert env.explain(sql, backend="enumerable") == text
    assert env.explain(sql, format="json", backend="enumerable") == as_json


def test_a_query_and_a_statement_of_the_same_text(env: cb.Environment) -> None:
    env.register_arrow("t", numbers(1, 2))
    assert env.sql("SELECT v FROM t").fetchall() == [(1,), (2,)]
    assert env.execute("SELECT v FROM t").fetchall() == [(1,), (2,)]
    # EXPLAIN prints Flink's sections in Flink's notation; env.explain keeps this project's form.
    statement = env.execute("EXPLAIN SELECT v FROM t").fetchall()[0][0]
    ours = env.explain("SELECT v FROM t")
    assert "== Optimized Physical Plan ==\nTableSourceScan(table=[[default_catalog" in statement
    assert ours not in statement and "TableSourceScan" not in ours
    assert env.execute("EXPLAIN SELECT v FROM t").fetchall()[0][0] == statement


class Discovering(ArrowTableSource):
    """A source whose undeclared fields are found by asking it; its answer can change."""

    def __init__(self, table: pa.Table, fields: dict[str, str]) -> None:
        super().__init__(table)
        self.fields = fields

    def schema(self) -> pa.Schema:
        return pa.schema([self.table.schema.field("id")])

    def discover_column(self, name: str) -> str | None:
        return self.fields.get(name)


def test_a_plan_with_discovered_columns_asks_again(env: cb.Environment) -> None:
    source = Discovering(pa.table({"id": [1], "extra": ["7"]}), {"extra": "STRING"})
    env.register_source("s", source)
    sql = "SELECT extra FROM s"
    assert env.validate(sql).field("extra").type == pa.string()
    assert env.sql(sql).fetchall() == [("7",)]
    source.fields = {"extra": "INT"}
    assert env.validate(sql).field("extra").type == pa.int32()
    assert env.sql(sql).fetchall() == [(7,)]
    source.fields = {}
    with pytest.raises(cb.SqlValidationError, match="extra"):
        env.sql(sql)


def test_environments_have_caches_of_their_own(connect: Any) -> None:
    a, b = connect(), connect()
    try:
        a.register_arrow("t", numbers(1))
        b.register_arrow("t", numbers(2))
        sql = "SELECT v FROM t"
        assert (a.sql(sql).fetchall(), b.sql(sql).fetchall()) == ([(1,)], [(2,)])
        assert (a.sql(sql).fetchall(), b.sql(sql).fetchall()) == ([(1,)], [(2,)])
    finally:
        a.close()
        b.close()


def test_concurrent_runs_of_a_cached_plan(env: cb.Environment, transport: str) -> None:
    env.register_arrow("t", numbers(*range(1000)))
    queries = {
        backend: (f"SELECT sum(v) AS s FROM t WHERE v % 3 = {i}", backend)
        for i, backend in enumerate(backends(transport))
    }
    expected = {b: sum(v for v in range(1000) if v % 3 == i) for i, b in enumerate(queries)}
    failures: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(10):
                for backend, (sql, name) in queries.items():
                    assert env.sql(sql, backend=name).fetchall() == [(expected[backend],)]
        except BaseException as e:  # reported by the main thread
            failures.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
