"""The dynamic-columns functions on the DuckDB backend, against Calcite's engine.

Every expression of ``fixtures/dyncol_cases.sql`` (the cases test_dyncol_mariadb.py checks
against MariaDB) runs on both backends: same values and types, or the same error. On DuckDB the
functions are Arrow functions computed in the JVM a batch at a time; a COLUMN_GET over a table of
200 000 blobs shows the batches, DuckDB's threads and the release of the JVM's buffers.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import jpype
import pyarrow as pa
import pytest
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb

CASES = [case.sql for case in load_cases("dyncol_cases.sql", one_per_line=True)]

# DuckDB's TIME is no type of the translation: a COLUMN_GET ... AS TIME is refused (and runs on
# Calcite's engine under `auto`).
REFUSED = {expr for expr in CASES if expr.startswith("COLUMN_GET(") and expr.endswith("AS TIME)")}


@pytest.fixture(scope="module")
def bridge() -> Iterator[cb.Environment]:
    env = cb.connect()
    yield env
    env.close()


def _run(env: cb.Environment, sql: str, backend: str) -> tuple[bool, object]:
    try:
        return True, env.sql(sql, backend=backend).to_arrow_table()
    except cb.Error as e:
        return False, e


def _allocated() -> int:
    return int(jpype.JClass("io.calcitebridge.facade.BridgeSession").allocatedBytes())


@pytest.mark.parametrize("expr", CASES)
def test_same_as_calcites_engine(bridge: cb.Environment, expr: str) -> None:
    sql = f"SELECT {expr} AS v"
    ok, reference = _run(bridge, sql, "enumerable")
    duck_ok, duck = _run(bridge, sql, "duckdb")
    if expr in REFUSED:
        assert not duck_ok and isinstance(duck, cb.UnsupportedError), duck
        assert "TIME" in str(duck)
        auto_ok, auto = _run(bridge, sql, "auto")
        assert ok and auto_ok and isinstance(auto, pa.Table) and auto.equals(reference)
        return
    assert bridge.explain(sql, backend="duckdb").startswith("DuckDB("), expr
    if not ok:
        assert not duck_ok, f"Calcite's engine fails with {reference!r}, DuckDB returns {duck!r}"
        assert type(duck) is type(reference)
        assert str(duck) == str(reference)
        return
    assert duck_ok, f"DuckDB fails with {duck!r}, Calcite's engine returns {reference!r}"
    assert isinstance(duck, pa.Table) and isinstance(reference, pa.Table)
    assert duck.equals(reference), f"{duck.to_pylist()} != {reference.to_pylist()}"


def test_the_fixture_runs_mostly_on_duckdb() -> None:
    assert len(CASES) - len(REFUSED) >= 120
    assert len(REFUSED) == 2


@pytest.fixture(scope="module")
def blobs(bridge: cb.Environment) -> pa.Table:
    """200 000 rows: an id and a blob, some NULL, some without 'n', one of another layout."""
    n = 200_000
    ids = pa.array(range(n), pa.int64())
    bridge.register_arrow("ids", pa.table({"id": ids}))
    table = bridge.sql(
        "SELECT id, CASE WHEN MOD(id, 97) = 0 THEN NULL"
        " WHEN MOD(id, 13) = 0 THEN COLUMN_CREATE('other', id)"
        " WHEN MOD(id, 7) = 0 THEN COLUMN_CREATE(1, id, 'n', CAST(id AS VARCHAR))"
        " ELSE COLUMN_CREATE('n', id * 3, 'name', 'row', 'price', id + 0.25) END AS b"
        " FROM ids",
        backend="enumerable",
    ).to_arrow_table()
    # A copy in this process's memory: the JVM's buffers go now, not after the JVM has stopped.
    table = pa.table({name: pa.concat_arrays(table[name].chunks) for name in table.column_names})
    bridge.register_arrow("blobs", table)
    return table


GET = (
    "SELECT id, COLUMN_GET(b, 'n' AS INT) AS n, COLUMN_GET(b, 'price' AS DECIMAL(12,2)) AS p,"
    " COLUMN_GET(b, 'name' AS CHAR) AS s, COLUMN_EXISTS(b, 'n') AS e FROM blobs"
)


def test_column_get_over_200k_rows_runs_on_duckdb(bridge: cb.Environment, blobs: pa.Table) -> None:
    assert blobs.num_rows == 200_000
    assert bridge.explain(GET, backend="duckdb").startswith("DuckDB(")
    reference = bridge.sql(GET, backend="enumerable").to_arrow_table().sort_by("id")
    duck = bridge.sql(GET, backend="duckdb").to_arrow_table().sort_by("id")
    assert duck.equals(reference)
    assert duck.column("n").null_count > 0 and duck.column("e").null_count == 200_000 // 97 + 1


def test_a_filter_and_an_aggregate_over_column_get(bridge: cb.Environment, blobs: pa.Table) -> None:
    sql = (
        "SELECT COLUMN_GET(b, 'name' AS CHAR) AS s, COUNT(*) AS c,"
        " SUM(COLUMN_GET(b, 'n' AS INT)) AS total FROM blobs"
        " WHERE COLUMN_GET(b, 'n' AS INT) > 1000 GROUP BY COLUMN_GET(b, 'name' AS CHAR)"
        " ORDER BY s"
    )
    assert bridge.explain(sql, backend="duckdb").startswith("DuckDB(")
    reference = bridge.sql(sql, backend="enumerable").to_arrow_table()
    assert bridge.sql(sql, backend="duckdb").to_arrow_table().equals(reference)


def test_the_jvm_holds_no_buffer_after_the_functions_ran(
    bridge: cb.Environment, blobs: pa.Table
) -> None:
    before = _allocated()
    for _ in range(2):
        bridge.sql(GET, backend="duckdb").fetchall()
    assert _allocated() == before


def test_a_failing_batch_is_the_engines_error_and_leaks_nothing(bridge: cb.Environment) -> None:
    bridge.register_arrow("bad", pa.table({"b": pa.array([b"xyz"] * 5000, pa.binary())}))
    sql = "SELECT COLUMN_GET(b, 'a' AS INT) AS v FROM bad"
    before = _allocated()
    with pytest.raises(cb.ExecutionError, match="illegal format of dynamic column string") as e:
        bridge.sql(sql, backend="duckdb").fetchall()
    assert _allocated() == before
    with pytest.raises(cb.ExecutionError, match="illegal format of dynamic column string") as r:
        bridge.sql(sql, backend="enumerable").fetchall()
    assert str(e.value) == str(r.value)


@pytest.mark.parametrize(
    ("sql", "construct"),
    [
        ("SELECT COLUMN_GET(b, 'n' AS TIME) AS t FROM blobs", "TIME"),
        ("SELECT id FROM blobs WHERE b = COLUMN_CREATE('n', 3)", "VARBINARY"),
        ("SELECT MAX(b) AS m FROM blobs", "an aggregate"),
        ("SELECT id FROM blobs ORDER BY b LIMIT 3", "a sort key"),
        ("SELECT COLUMN_GET('text', 'n' AS INT) AS v FROM blobs", "over a blob of type"),
    ],
)
def test_forms_left_out_are_refused_and_run_on_calcites_engine_under_auto(
    bridge: cb.Environment, blobs: pa.Table, sql: str, construct: str
) -> None:
    with pytest.raises(cb.UnsupportedError, match=construct):
        bridge.sql(sql, backend="duckdb")
    assert not bridge.explain(sql, backend="auto").startswith("DuckDB(")


def test_blobs_pass_through_duckdb(bridge: cb.Environment, blobs: pa.Table) -> None:
    sql = "SELECT id, b, b IS NULL AS missing FROM blobs WHERE id < 100"
    reference = bridge.sql(sql, backend="enumerable").to_arrow_table().sort_by("id")
    assert bridge.sql(sql, backend="duckdb").to_arrow_table().sort_by("id").equals(reference)


def test_statements_of_several_threads_share_the_functions(
    bridge: cb.Environment, blobs: pa.Table
) -> None:
    # DuckDB calls the functions from its worker threads while Python threads run statements.
    reference = bridge.sql(GET, backend="enumerable").to_arrow_table().sort_by("id")
    before = _allocated()
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(
            pool.map(lambda _: bridge.sql(GET, backend="duckdb").to_arrow_table(), range(3))
        )
    for result in results:
        assert result.sort_by("id").equals(reference)
    assert _allocated() == before


@pytest.mark.parametrize(
    ("sql", "type_name", "column"),
    [
        ("SELECT COLUMN_CREATE('a', ROW(1, 'x'))", "ROW<", 30),  # Calcite places ROW at its (
        ("SELECT COLUMN_CREATE('a', 1, 'b', ARRAY[1, CAST(NULL AS INT)])", "ARRAY<INT>", 35),
        ("SELECT COLUMN_ADD(COLUMN_CREATE('a', 1), 'b', MAP['k', 1])", "MAP<", 47),
        ("SELECT COLUMN_CREATE('a', INTERVAL '1' DAY)", "INTERVAL DAY NOT NULL:", 27),
        (
            "SELECT COLUMN_CREATE('a', CAST(TIMESTAMP '2020-01-01 00:00:00' AS TIMESTAMP_LTZ(3)))",
            "TIMESTAMP_LTZ(3) NOT NULL:",
            27,
        ),
        ("SELECT COLUMN_CREATE('a', CAST(NULL AS ROW<x INT>))", "ROW<`x` INT>:", 27),
    ],
)
def test_values_a_dynamic_column_cannot_hold_are_refused_while_validating(
    bridge: cb.Environment, sql: str, type_name: str, column: int
) -> None:
    # MariaDB has no such types ("Operand should contain 1 column(s)" for a row); they were
    # stored as their Java text ("[Ljava.lang.Object;@...") on Calcite's engine.
    for backend in ("enumerable", "duckdb", "auto"):
        with pytest.raises(cb.SqlValidationError, match="cannot store a value of type") as caught:
            bridge.sql(sql, backend=backend).fetchall()
        assert type_name in str(caught.value)
        assert caught.value.column == column
