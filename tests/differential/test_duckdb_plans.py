"""Flink functions the DuckDB translation runs: such queries plan as one DuckDB query under the
default backend, where they went to Calcite's engine; the ones whose semantics DuckDB cannot
match still do (the differential cases of fixtures/backend_cases.sql check the answers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.helpers.tables import setup_backend

import calcite_bridge as cb

ON_DUCKDB = {
    "variances": "SELECT dept_id, STDDEV_POP(salary), STDDEV_SAMP(salary), VAR_POP(salary),"
    " VAR_SAMP(salary), STDDEV(id), VARIANCE(id) FROM emp GROUP BY dept_id",
    "variance_of_a_decimal": "SELECT VAR_POP(amount) FROM ev",
    "listagg": "SELECT dept_id, LISTAGG(name), LISTAGG(name, '|') FROM emp GROUP BY dept_id",
    "regexp_extract": "SELECT REGEXP_EXTRACT(name, '([a-z]+)(\\d*)', 1) FROM emp",
    "unix_timestamp": "SELECT UNIX_TIMESTAMP() FROM emp",
    "clock": "SELECT NOW(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME,"
    " LOCALTIME, CURRENT_ROW_TIMESTAMP() FROM emp",
    "tumble_over_an_instant": "SELECT window_start, window_end, window_time, COUNT(*) FROM"
    " TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' HOUR))"
    " GROUP BY window_start, window_end, window_time",
    "hop_over_an_instant": "SELECT * FROM"
    " TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTE, INTERVAL '1' HOUR))",
    "cumulate_over_an_instant": "SELECT * FROM"
    " TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTE, INTERVAL '1' HOUR))",
}

ON_CALCITE = {
    "variance_of_a_wide_decimal": "SELECT VAR_POP(amount * 3) FROM ev",
    "listagg_over_values": "SELECT LISTAGG(s) FROM (VALUES ('a'), ('b')) AS t(s)",
    "regexp_extract_of_an_optional_group": "SELECT REGEXP_EXTRACT(name, 'a(n)?', 1) FROM emp",
    "regexp_extract_with_an_end_anchor": "SELECT REGEXP_EXTRACT(name, 'n$') FROM emp",
    "unix_timestamp_of_a_string": "SELECT UNIX_TIMESTAMP(name) FROM emp",
    "clock_with_a_precision": "SELECT CURRENT_TIMESTAMP(0), LOCALTIMESTAMP(6) FROM emp",
    "json_value": "SELECT JSON_VALUE(name, '$.a') FROM emp",
}


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    environment = setup_backend(cb.connect())
    yield environment
    environment.close()


@pytest.mark.parametrize("name", sorted(ON_DUCKDB))
def test_runs_on_duckdb(env: cb.Environment, name: str) -> None:
    plan = env.explain(ON_DUCKDB[name])
    assert plan.startswith("DuckDB("), plan


@pytest.mark.parametrize("name", sorted(ON_CALCITE))
def test_stays_on_calcite(env: cb.Environment, name: str) -> None:
    plan = env.explain(ON_CALCITE[name])
    assert plan.startswith("Enumerable"), plan
