"""Runs a fixture file of statements in order on one environment, as a script would: each case
gives its columns and rows, or its error class, message and column (keys: columns, rows, error,
match, column)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from tests.helpers.fixtures import SqlCase

import calcite_bridge as cb

KEYS = {"columns", "rows", "error", "match", "column"}


def check_case(env: cb.Environment, case: SqlCase) -> None:
    if case.has("error"):
        error = getattr(cb, case.get("error") or "")
        assert issubclass(error, cb.Error)
        with pytest.raises(error) as info:
            env.execute(case.sql)
        assert re.search(case.get("match") or "", info.value.message), info.value.message
        if case.has("column"):
            assert (info.value.line, info.value.column) == (1, int(case.get("column") or 0))
        return
    result = env.execute(case.sql)
    if case.has("columns"):
        assert result.columns == case.literal("columns")
    if case.has("rows"):
        assert [tuple(r) for r in result.fetchall()] == case.literal("rows")


def run_cases(env: cb.Environment, cases: Sequence[SqlCase]) -> None:
    """Runs every case in order; a failure names the case, its place and its SQL."""
    for case in cases:
        try:
            check_case(env, case)
        except AssertionError as e:
            raise AssertionError(f"{case.name} ({case.where}): {case.sql}\n{e}") from e
