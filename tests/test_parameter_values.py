"""A string value bound to a placeholder the statement converts to a number, a BOOLEAN or a
datetime gets what the literal text gets: the same rows, or the same validation error at the
placeholder (naming the value and the type), never a failure while the query runs. The cases
are ``tests/fixtures/parameter_values.sql``; each runs on every backend through ``env.sql``,
the DB-API cursor and ``env.explain``, against the literal text of the same values."""

from __future__ import annotations

import datetime as dt
import decimal
import re
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb
from calcite_bridge import dbapi

CASES = load_cases("parameter_values.sql", keys={"params", "rows", "error", "at", "match"})
BACKENDS = ("enumerable", "duckdb", "auto")

PV = pa.table(
    {
        "id": pa.array([1, 2, 3], pa.int64()),
        "n": pa.array([10, 20, None], pa.int32()),
        "x": pa.array([0.5, 1.5, None], pa.float64()),
        "m": pa.array(
            [decimal.Decimal("1.50"), decimal.Decimal("2.25"), None], pa.decimal128(5, 2)
        ),
        "b": pa.array([True, False, None]),
        "d": pa.array([dt.date(2024, 1, 1), dt.date(2024, 2, 1), None]),
        "ts": pa.array(
            [dt.datetime(2024, 1, 1, 10), dt.datetime(2024, 2, 1, 10, 30), None], pa.timestamp("us")
        ),
        "s": pa.array(["a", "b", None]),
    }
)


@pytest.fixture(scope="module")
def penv() -> Iterator[cb.Environment]:
    env = cb.connect()
    env.register_arrow("pv", PV)
    try:
        yield env
    finally:
        env.close()


def _literal_text(sql: str, params: list[Any]) -> str:
    """``sql`` with each ``?`` replaced by the SQL literal of its value (a string or NULL)."""
    values = iter(params)

    def literal(_: re.Match[str]) -> str:
        v = next(values)
        return "NULL" if v is None else "'" + str(v).replace("'", "''") + "'"

    return re.sub(r"\?", literal, sql)


def _outcome(run: Any) -> Any:
    """The rows ``run()`` gives, or its error's class (the literal text's positions differ from
    the placeholders' after the first, each value being longer than its ``?``)."""
    try:
        return [tuple(r) for r in run()]
    except cb.Error as e:
        return type(e)


def _check(case: SqlCase, got: Any) -> None:
    error = case.get("error")
    if error is None:
        assert got == case.literal("rows"), case.where
        return
    assert isinstance(got, BaseException), f"{case.where}: expected {error}, got {got!r}"
    assert type(got).__name__ == error or isinstance(got, getattr(cb, error)), case.where
    assert (got.line, got.column) == case.literal("at"), case.where
    assert re.search(str(case.get("match")), got.message), (case.where, got.message)


def _result(run: Any) -> Any:
    try:
        return [tuple(r) for r in run()]
    except cb.Error as e:
        return e


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_value_gives_the_literal_texts_answer(
    penv: cb.Environment, case: SqlCase, backend: str
) -> None:
    params = case.literal("params")
    got = _result(lambda: penv.sql(case.sql, params, backend=backend).fetchall())
    _check(case, got)
    # again, with the plan kept for the values' types: the check runs at each execution
    _check(case, _result(lambda: penv.sql(case.sql, params, backend=backend).fetchall()))
    literal = _outcome(
        lambda: penv.sql(_literal_text(case.sql, params), backend=backend).fetchall()
    )
    ours = _outcome(lambda: penv.sql(case.sql, params, backend=backend).fetchall())
    assert ours == literal, case.where


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_value_through_the_dbapi_cursor(penv: cb.Environment, case: SqlCase) -> None:
    con = dbapi.connect(penv)
    cur = con.cursor()

    def run() -> list[tuple[Any, ...]]:
        cur.execute(case.sql, case.literal("params"))
        return cur.fetchall()

    got = _result(run)
    _check(case, got)
    if case.has("error"):
        assert isinstance(got, dbapi.ProgrammingError)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "case", [c for c in CASES if c.has("error")], ids=[c.name for c in CASES if c.has("error")]
)
def test_explain_with_a_wrong_value_fails_as_the_literal_text_does(
    penv: cb.Environment, case: SqlCase, backend: str
) -> None:
    params = case.literal("params")
    literal = _outcome(lambda: [(penv.explain(_literal_text(case.sql, params), backend=backend),)])
    ours = _outcome(lambda: [(penv.explain(case.sql, params, backend=backend),)])
    assert ours == literal == cb.SqlValidationError, case.where
    with pytest.raises(cb.SqlValidationError) as info:
        penv.explain(case.sql, params, backend=backend)
    assert (info.value.line, info.value.column) == case.literal("at"), case.where


def test_a_new_wrong_value_after_right_ones_fails_before_anything_runs(
    penv: cb.Environment,
) -> None:
    sql = "SELECT id FROM pv WHERE id >= ? ORDER BY id"
    for value, rows in (("1", [(1,), (2,), (3,)]), ("3", [(3,)])):
        assert penv.sql(sql, [value]).fetchall() == rows
    with pytest.raises(cb.SqlValidationError) as info:
        penv.sql(sql, ["three"])
    assert "Cannot cast parameter 1 ('three') to BIGINT" in info.value.message
    assert (info.value.line, info.value.column) == (1, 31)
    assert penv.sql(sql, [2]).fetchall() == [(2,), (3,)]


@pytest.fixture(scope="module")
def spark_env() -> Iterator[cb.Environment]:
    from calcite_bridge import _spark

    env = cb.connect(backend="spark", spark=_spark.local_session())
    env.register_arrow("pv", PV)
    try:
        yield env
    finally:
        env.close()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_value_on_spark_gives_the_literal_texts_answer(
    spark_env: cb.Environment, case: SqlCase
) -> None:
    params = case.literal("params")
    _check(case, _result(lambda: spark_env.sql(case.sql, params).fetchall()))
    literal = _outcome(lambda: spark_env.sql(_literal_text(case.sql, params)).fetchall())
    assert _outcome(lambda: spark_env.sql(case.sql, params).fetchall()) == literal, case.where
