"""SupportsLimitPushDown: a LIMIT without ORDER BY tells the source it may stop early."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.tables import LIMIT_TABLE
from tests.helpers.tables import LimitRecording as Recording

import calcite_bridge as cb
from calcite_bridge.sources import ScanRequest

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"

TABLE = LIMIT_TABLE


FIXTURE = "limit_pushdown.sql"
CASES = load_cases(FIXTURE, keys={"limit", "rows"})


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_limit_reaches_the_source(env: cb.Environment, case: SqlCase) -> None:
    pushed = case.literal("limit")
    source = Recording(TABLE)
    env.register_source("t", source)
    plan = env.explain(case.sql)
    assert (f"limit=[{pushed}]" in plan) == (pushed is not None), plan
    assert env.sql(case.sql).fetchall() == case.literal("rows")
    assert source.limits[-1] == pushed


@pytest.mark.golden
@pytest.mark.jpype_only(reason="plans are the same on both transports")
def test_golden_plans(env: cb.Environment, golden: Callable[[str, dict[str, str]], None]) -> None:
    env.register_source("t", Recording(TABLE))
    golden(FIXTURE, {case.name: env.explain(case.sql) for case in CASES})


def test_limit_stays_above_a_filter_the_source_refuses(env: cb.Environment) -> None:
    source = Recording(TABLE, accept=False)
    env.register_source("t", source)
    sql = "SELECT i FROM t WHERE s IS NULL LIMIT 3"
    assert "limit=" not in env.explain(sql)
    assert env.sql(sql).fetchall() == [(0,), (10,), (20,)]
    assert source.limits[-1] is None


def test_a_source_that_ignores_the_limit_is_still_right(env: cb.Environment) -> None:
    class Ignoring(Recording):
        def scan(self, request: ScanRequest) -> Any:
            self.limits.append(request.limit)
            return self.table

    env.register_source("t", Ignoring(TABLE))
    assert env.sql("SELECT i FROM t LIMIT 3").fetchall() == [(0,), (1,), (2,)]
