"""The execution-backend seam: ``execution.backend``, per-statement ``backend=``, refusals, the
fallback under ``auto``, EXPLAIN, errors and the release of every scan.

Whether each query gives the reference's answer on DuckDB is the differential harness's job;
these tests check the seam itself.
"""

from __future__ import annotations

import decimal
from collections.abc import Iterator

import jpype
import pyarrow as pa
import pytest

import calcite_bridge as cb
from conftest import GATEWAY_TOKEN

GROUP_BY = "SELECT k, COUNT(*) AS n, SUM(v) AS s FROM fact GROUP BY k ORDER BY k"
# A cast to an ARRAY of another element type has no DuckDB translation that keeps Flink's
# semantics (docs/backends.md), so the translation refuses it.
REFUSED = "SELECT MAX(CAST(ARRAY[k] AS ARRAY<BIGINT>)[1]) AS m FROM fact"


@pytest.fixture
def local() -> Iterator[cb.Environment]:
    env = cb.connect()
    env.register_arrow(
        "fact",
        pa.table(
            {
                "k": pa.array([1, 2, 1, None, 3], pa.int32()),
                "v": pa.array([10, 20, 30, 40, None], pa.int64()),
                "d": pa.array([0.5, 1.5, None, 2.5, 3.5]),
            }
        ),
    )
    yield env
    env.close()


def test_the_setting_takes_the_backends_and_names_them_when_wrong(local: cb.Environment) -> None:
    assert local.config.get("execution.backend") == "auto"
    for value in ("auto", "duckdb", "ENUMERABLE"):
        local.config.set("execution.backend", value)
        assert local.config.get("execution.backend") == value.lower()
    with pytest.raises(cb.ConfigError, match="auto, enumerable, duckdb"):
        local.config.set("execution.backend", "spark-but-misspelt")
    local.execute("SET 'execution.backend' = 'duckdb'")
    assert local.config.get("execution.backend") == "duckdb"


def test_connect_takes_the_backend() -> None:
    env = cb.connect(backend="duckdb")
    try:
        assert env.config.get("execution.backend") == "duckdb"
        env.register_arrow("t", pa.table({"a": [1, 2]}))
        assert env.explain("SELECT SUM(a) AS s FROM t").startswith("DuckDB(")
        assert env.sql("SELECT SUM(a) AS s FROM t").to_pylist() == [{"s": 3}]
    finally:
        env.close()
    with pytest.raises(cb.ConfigError, match="allowed values"):
        cb.connect(backend="nope")


def test_duckdb_gives_the_references_rows(local: cb.Environment) -> None:
    reference = local.sql(GROUP_BY, backend="enumerable").to_arrow_table()
    duck = local.sql(GROUP_BY, backend="duckdb").to_arrow_table()
    assert duck.equals(reference)  # same values, same types (SUM stays BIGINT), same order
    assert reference.to_pylist() == [
        {"k": None, "n": 1, "s": 40},
        {"k": 1, "n": 2, "s": 40},
        {"k": 2, "n": 1, "s": 20},
        {"k": 3, "n": 1, "s": None},
    ]


def test_the_setting_picks_the_backend_and_a_statement_overrides_it(
    local: cb.Environment,
) -> None:
    local.config.set("execution.backend", "duckdb")
    assert local.explain(GROUP_BY).startswith("DuckDB(sql=[")
    assert local.explain(GROUP_BY, backend="enumerable").startswith("EnumerableSort")
    with pytest.raises(cb.UnsupportedError):
        local.sql(REFUSED)
    assert local.sql(REFUSED, backend="enumerable").to_pylist() == [{"m": 3}]


def test_explain_shows_the_backend_its_sql_and_the_scans(local: cb.Environment) -> None:
    plan = local.explain(
        "SELECT k, SUM(v) AS s FROM fact WHERE v > 15 GROUP BY k", backend="duckdb"
    )
    first, *scans = plan.splitlines()
    assert first == 'DuckDB(sql=[SELECT "k", SUM("v") AS "s" FROM "scan_0" GROUP BY "k"])'
    # The source took the filter; DuckDB reads the scan with it applied.
    assert scans == [
        "  scan_0: BridgeTableScan(table=[[fact]], filter=[>(v, 15)], project=[[k, v]])"
    ]
    import json

    as_json = json.loads(local.explain("SELECT k FROM fact", format="json", backend="duckdb"))
    assert as_json["backend"] == "duckdb"
    assert as_json["sql"].startswith("SELECT")
    assert [s["name"] for s in as_json["scans"]] == ["scan_0"]


def test_a_refused_construct_is_named_under_duckdb_and_falls_back_under_auto(
    local: cb.Environment,
) -> None:
    with pytest.raises(cb.UnsupportedError) as info:
        local.sql(REFUSED, backend="duckdb")
    assert str(info.value) == "The duckdb backend cannot run a cast to ARRAY<BIGINT>"
    # auto runs what DuckDB can and the rest on Calcite's engine, with the same answers.
    assert local.explain(REFUSED, backend="auto").startswith("EnumerableAggregate")
    assert local.sql(REFUSED, backend="auto").to_pylist() == local.sql(REFUSED).to_pylist()
    assert local.explain(GROUP_BY, backend="auto").startswith("DuckDB(")


@pytest.mark.parametrize(
    ("sql", "construct", "rows"),
    [
        # DuckDB's own cast reads '1_000' as a number, which Java does not
        (
            "SELECT CAST(s AS DECIMAL(3, 1)) FROM (VALUES ('1.25'), ('-0.05')) AS t(s)",
            "a cast of VARCHAR to DECIMAL(3, 1)",
            [(decimal.Decimal("1.3"),), (decimal.Decimal("-0.1"),)],
        ),
        # DuckDB's own cast rounds the binary value of 2.675 (2.67); Flink its decimal text (2.68)
        (
            "SELECT CAST(x AS DECIMAL(3, 2)) FROM (VALUES (CAST(2.675 AS DOUBLE)),"
            " (CAST(NULL AS DOUBLE))) AS t(x)",
            "a cast of DOUBLE to DECIMAL(3, 2)",
            [(decimal.Decimal("2.68"),), (None,)],
        ),
    ],
)
def test_casts_to_decimal_round_half_up_from_the_text_on_duckdb(
    local: cb.Environment, sql: str, construct: str, rows: list[tuple[object, ...]]
) -> None:
    # once refused (naming `construct`), now written in DuckDB's SQL with Flink's rounding
    assert local.explain(sql, backend="auto").startswith("DuckDB("), construct
    assert local.sql(sql, backend="duckdb").fetchall() == rows
    assert local.sql(sql, backend="auto").fetchall() == rows
    assert local.sql(sql, backend="enumerable").fetchall() == rows


def test_a_boolean_cast_to_a_number_runs_on_duckdb(local: cb.Environment) -> None:
    sql = (
        "SELECT CAST(b AS INT) AS i, CAST(b AS DECIMAL(3, 1)) AS d, CAST(b AS DOUBLE) AS f"
        " FROM (VALUES (TRUE), (FALSE), (CAST(NULL AS BOOLEAN))) AS t(b)"
    )
    assert local.explain(sql, backend="duckdb").startswith("DuckDB(")
    got = local.sql(sql, backend="duckdb").to_arrow_table()
    reference = local.sql(sql, backend="enumerable").to_arrow_table()
    assert got.schema == reference.schema
    assert got.to_pylist() == reference.to_pylist()
    assert [r["i"] for r in got.to_pylist()] == [1, 0, None]


def test_a_refused_cast_names_its_type_as_the_ddl_writes_it(local: cb.Environment) -> None:
    # DuckDB casts an array's elements as it casts values, not as Flink does: refused.
    with pytest.raises(cb.UnsupportedError) as info:
        local.sql(
            "SELECT CAST(ARRAY[ROW(1, 'x')] AS ARRAY<ROW<a INT, b STRING>>) AS r", backend="duckdb"
        )
    assert str(info.value) == (
        "The duckdb backend cannot run a cast to "
        "ARRAY<ROW<`a` INT NOT NULL, `b` STRING NOT NULL> NOT NULL>"
    )
    # A cast of a ROW runs, field by field, the fields renamed.
    row = "SELECT CAST(ROW(1, 'x') AS ROW<a INT, b STRING>) AS r"
    assert local.sql(row, backend="duckdb").to_pylist() == [{"r": {"a": 1, "b": "x"}}]


def test_a_failure_in_duckdb_is_an_execution_error(local: cb.Environment) -> None:
    # The divisor's parentheses survive the translation: v // (k - 1), not v // k - 1.
    with pytest.raises(cb.ExecutionError, match="Division by zero"):
        local.sql("SELECT v / (k - 1) AS q FROM fact", backend="duckdb").fetchall()
    assert local.sql(
        "SELECT v / (k + 1) AS q FROM fact WHERE k = 1", backend="duckdb"
    ).to_pylist() == [{"q": 5}, {"q": 15}]
    assert local.sql(GROUP_BY, backend="duckdb").fetchall()  # the environment goes on


class _Flaky:
    """A source whose reader yields one batch, then raises."""

    def schema(self) -> pa.Schema:
        return pa.schema([("i", pa.int64())])

    def scan(self, request: object) -> Iterator[pa.RecordBatch]:
        yield pa.record_batch([pa.array([1, 2, 3], pa.int64())], names=["i"])
        raise RuntimeError("disk on fire")


def test_a_source_failing_under_duckdb_is_a_source_error(local: cb.Environment) -> None:
    local.register_source("flaky", _Flaky())
    with pytest.raises(cb.SourceError, match="disk on fire"):
        local.sql("SELECT SUM(i) AS s FROM flaky", backend="duckdb").fetchall()


def test_every_scan_is_released_when_the_statement_ends(local: cb.Environment) -> None:
    bridge = jpype.JClass("io.calcitebridge.facade.BridgeSession")
    local.execute("CREATE TABLE m (a INT) WITH ('connector' = 'memory')")
    local.execute("INSERT INTO m VALUES (1), (2), (3)")
    # What earlier tests left (a Python sink keeps the batches it was given) is not this one's.
    before = int(bridge.allocatedBytes())
    for _ in range(3):
        local.sql("SELECT f.k, m.a FROM fact f JOIN m ON f.k = m.a", backend="duckdb").fetchall()
        local.sql(GROUP_BY, backend="duckdb").fetchall()
    assert int(bridge.allocatedBytes()) == before


def test_a_gateway_has_no_duckdb_and_auto_runs_on_calcites_engine(gateway_address: str) -> None:
    gw = cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN)
    try:
        gw.register_arrow("fact", pa.table({"k": [1, 2, 1]}))
        sql = "SELECT k, COUNT(*) AS n FROM fact GROUP BY k ORDER BY k"
        with pytest.raises(cb.UnsupportedError, match="duckdb backend runs in the Python process"):
            gw.sql(sql, backend="duckdb")
        assert gw.sql(sql, backend="auto").to_pylist() == [{"k": 1, "n": 2}, {"k": 2, "n": 1}]
        assert not gw.explain(sql, backend="auto").startswith("DuckDB")
    finally:
        gw.close()


def test_a_decimal_of_scale_zero_from_duckdbs_integer(local: cb.Environment) -> None:
    """DuckDB computes a DECIMAL(p, 0) literal as an INTEGER: the value reaches its type (Arrow
    refused an INTEGER to a DECIMAL of fewer than 10 digits)."""
    sql = "SELECT CAST(12 AS DECIMAL(2, 0)) AS d"
    got = local.sql(sql, backend="duckdb").to_arrow_table()
    assert got.schema.field("d").type == pa.decimal128(2, 0)
    assert (
        got.to_pylist()
        == local.sql(sql, backend="enumerable").to_pylist()
        == [{"d": decimal.Decimal("12")}]
    )


def test_first_and_last_value_on_one_duckdb_thread_follow_the_rows_order() -> None:
    """FIRST_VALUE and LAST_VALUE aggregates run on DuckDB (Flink promises no order beyond its
    input's); on one DuckDB thread they give the answer of Calcite's engine, here on a table of
    many batches whose groups' first and last non-NULL values differ from every other value."""
    n = 200_000
    ids = list(range(n))
    keys = [i % 7 for i in ids]
    # NULLs at each group's first and last rows, so the aggregates must skip them.
    values = [None if i < 7 or i >= n - 7 else i for i in ids]
    names = [None if i < 14 else f"n{i}" for i in ids]
    table = pa.Table.from_batches(
        pa.table(
            {
                "k": pa.array(keys, pa.int32()),
                "v": pa.array(values, pa.int64()),
                "s": pa.array(names, pa.string()),
            }
        ).to_batches(max_chunksize=4096)
    )
    env = cb.connect()
    try:
        env.config.set("execution.threads", "1")
        env.register_arrow("ordered", table)
        sql = (
            "SELECT k, FIRST_VALUE(v) AS fv, LAST_VALUE(v) AS lv, FIRST_VALUE(s) AS fs, "
            "LAST_VALUE(s) AS ls, COUNT(*) AS c FROM ordered GROUP BY k"
        )
        assert env.explain(sql, backend="duckdb").startswith("DuckDB(")
        duck = sorted(env.sql(sql, backend="duckdb").to_pylist(), key=lambda r: r["k"])
        reference = sorted(env.sql(sql, backend="enumerable").to_pylist(), key=lambda r: r["k"])
        assert duck == reference
        expected = []
        for k in range(7):
            rows = [i for i in ids if keys[i] == k]
            vs = [values[i] for i in rows if values[i] is not None]
            ss = [names[i] for i in rows if names[i] is not None]
            expected.append(
                {"k": k, "fv": vs[0], "lv": vs[-1], "fs": ss[0], "ls": ss[-1], "c": len(rows)}
            )
        assert duck == expected
        # Over a VALUES list of several rows DuckDB reads the rows in no set order: refused.
        over_values = "SELECT FIRST_VALUE(x) AS f FROM (VALUES (1), (2), (3)) AS t(x)"
        with pytest.raises(cb.UnsupportedError, match="FIRST_VALUE over a VALUES list or a UNION"):
            env.sql(over_values, backend="duckdb")
        assert env.sql(over_values, backend="auto").to_pylist() == [{"f": 1}]
    finally:
        env.close()
