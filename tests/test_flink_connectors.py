"""Flink's connectors, from tests/fixtures/flink_connectors.sql: datagen, print and blackhole run
here; kafka, upsert-kafka, jdbc and hive are declared, validated and explained but not run. The
cases form one script run in order in one environment; the print connector's lines are checked
here, where standard output is captured."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.helpers.fixtures import load_cases
from tests.helpers.statement_cases import KEYS, run_cases

import calcite_bridge as cb
from calcite_bridge.cli import main

CASES = load_cases("flink_connectors.sql", keys=KEYS)


def test_flink_connector_script(
    env: cb.Environment, transport: str, capfd: pytest.CaptureFixture[str]
) -> None:
    assert len(CASES) > 40
    run_cases(env, CASES)
    if transport != "jpype":
        return  # the print connector writes to the standard output of the JVM's process
    out = capfd.readouterr().out.splitlines()
    printed = [line for line in out if line.startswith("out> ")]
    assert printed[:2] == [
        "out> +I[1, a, 2024-01-01T10:00, [1, 2]]",
        "out> +I[2, null, null, null]",
    ]
    # 5 rows of the INSERT from datagen, 3 of the statement set
    assert len(printed) == 2 + 5 + 3
    assert [line.split(", ")[0] for line in printed[2:7]] == [f"out> +I[{i}" for i in range(1, 6)]


def test_select_star_of_kafka_leaves_out_virtual_metadata(env: cb.Environment) -> None:
    env.execute(
        "CREATE TABLE k (id BIGINT, `offset` BIGINT METADATA VIRTUAL, "
        "`partition` INT METADATA VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') "
        "WITH ('connector' = 'kafka', 'topic' = 't', "
        "'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')"
    )
    env.execute(
        "SET 'table.column-expansion-strategy' = 'EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS'"
    )
    plan = env.explain("SELECT * FROM k")
    assert "BridgeTableScan" in plan
    assert [c.name for c in env.describe("k")] == ["id", "offset", "partition", "ts"]
    with pytest.raises(cb.UnsupportedError, match="Connector 'kafka'"):
        env.sql("SELECT * FROM k")
    with pytest.raises(cb.UnsupportedError, match="Connector 'kafka'"):
        env.sql("SELECT id, `offset` FROM k")


def test_datagen_on_every_backend(env: cb.Environment, transport: str) -> None:
    env.execute(
        "CREATE TABLE g (id INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '50', "
        "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100', "
        "'fields.v.min' = '5', 'fields.v.max' = '6')"
    )
    env.execute("CREATE TABLE u (v INT) WITH ('connector' = 'datagen')")
    backends = ("enumerable", "duckdb", "auto") if transport == "jpype" else ("enumerable",)
    for backend in backends:
        env.execute(f"SET 'execution.backend' = '{backend}'")
        assert env.sql("SELECT COUNT(*), SUM(id), MIN(v) >= 5, MAX(v) <= 6 FROM g").fetchall() == [
            (50, 1275, True, True)
        ]
        assert len(env.sql("SELECT v FROM u LIMIT 7").fetchall()) == 7


def test_unbounded_datagen_under_a_timeout(env: cb.Environment) -> None:
    env.execute("CREATE TABLE u (v INT) WITH ('connector' = 'datagen')")
    env.execute("SET 'execution.timeout' = '1 s'")
    env.execute("SET 'execution.backend' = 'enumerable'")
    with pytest.raises(cb.TimeoutError):
        env.sql("SELECT COUNT(*) FROM u").fetchall()


def test_print_to_standard_error(
    env: cb.Environment, transport: str, capfd: pytest.CaptureFixture[str]
) -> None:
    env.execute(
        "CREATE TABLE p (a INT, d DATE) WITH ('connector' = 'print', 'standard-error' = 'true')"
    )
    env.execute("INSERT INTO p VALUES (7, DATE '2024-02-03')")
    if transport != "jpype":
        return
    captured = capfd.readouterr()
    assert "+I[7, 2024-02-03]" in captured.err.splitlines()
    assert "+I[7" not in captured.out


def test_connectors_through_the_cli(tmp_path: Path) -> None:
    script = tmp_path / "connectors.sql"
    script.write_text(
        "CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence',"
        " 'fields.id.start' = '1', 'fields.id.end' = '3');\n"
        "CREATE TABLE hole (id INT) WITH ('connector' = 'blackhole');\n"
        "INSERT INTO hole SELECT id FROM g;\n"
        "SELECT SUM(id) AS total FROM g;\n"
    )
    result = CliRunner().invoke(main, ["--format", "csv", "-f", str(script)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.output.endswith("total\n6\n")
