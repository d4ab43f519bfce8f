"""The sample variance and standard deviation of one value is NULL, whatever the argument's
type: VAR_SAMP (VARIANCE) of a NOT NULL column was typed NOT NULL in a grouped query, so a group
of one row failed on Calcite's engine and gave NULL in a column declared NOT NULL elsewhere."""

from __future__ import annotations

import pyarrow as pa
import pytest

import calcite_bridge as cb

GROUPED = (
    "SELECT k, VAR_SAMP(x) AS vs, VARIANCE(x) AS va, STDDEV_SAMP(x) AS ss, STDDEV(x) AS sd, "
    "VAR_POP(x) AS vp FROM t GROUP BY k ORDER BY k"
)
WINDOWED = (
    "SELECT k, x, VAR_SAMP(x) OVER (PARTITION BY k) AS vs, VARIANCE(x) OVER (PARTITION BY k) "
    "AS va, STDDEV_SAMP(x) OVER (PARTITION BY k) AS ss FROM t ORDER BY k, x"
)


@pytest.fixture(scope="module")
def env() -> cb.Environment:
    env = cb.connect()
    table = pa.table(
        {
            "k": pa.array([1, 1, 2], pa.int32()),
            "x": pa.array([5, 7, 9], pa.int32()),
        },
        schema=pa.schema([pa.field("k", pa.int32(), False), pa.field("x", pa.int32(), False)]),
    )
    env.register_arrow("t", table)
    return env


def test_a_sample_variance_is_typed_nullable_and_a_population_one_is_not(
    env: cb.Environment,
) -> None:
    schema = env.validate(GROUPED)
    assert [schema.field(c).nullable for c in ("vs", "va", "ss", "sd", "vp")] == [
        True,
        True,
        True,
        True,
        False,
    ]
    windowed = env.validate(WINDOWED)
    assert [windowed.field(c).nullable for c in ("vs", "va", "ss")] == [True, True, True]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "auto"])
def test_a_group_of_one_row_has_no_sample_variance(env: cb.Environment, backend: str) -> None:
    assert env.sql(GROUPED, backend=backend).fetchall() == [
        (1, 2, 2, 1, 1, 1),
        (2, None, None, None, None, 0),
    ]


@pytest.mark.parametrize("backend", ["enumerable", "auto"])
def test_a_partition_of_one_row_has_no_sample_variance(env: cb.Environment, backend: str) -> None:
    # Over a window Calcite's engine computed 0 for VAR_SAMP of one row (a NOT NULL type).
    assert env.sql(WINDOWED, backend=backend).fetchall() == [
        (1, 5, 2, 2, 1),
        (1, 7, 2, 2, 1),
        (2, 9, None, None, None),
    ]


def test_a_distinct_constant_grouped_by_a_map_has_no_sample_variance(env: cb.Environment) -> None:
    # Found by the crash fuzzer: an internal error (a NULL unboxed) on Calcite's engine.
    sql = (
        "SELECT MAP['k', 1] AS m, VAR_SAMP(DISTINCT 9223372036854775807) AS v "
        "FROM t a LEFT JOIN t b ON a.k = b.k GROUP BY MAP['k', 1]"
    )
    assert env.sql(sql, backend="enumerable").fetchall() == [([("k", 1)], None)]
