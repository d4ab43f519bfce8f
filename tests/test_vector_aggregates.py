"""Source aggregate pushdown: aggregates without GROUP BY over a scan of a source that supports
aggregate pushdown (the ``filesystem`` connector, or a source whose
``supports_aggregate_pushdown()`` is true), computed from the source's Arrow batches; other
sources' aggregates run on the engine.

Checked three ways: the plan (EXPLAIN shows ``ArrowAggregate`` over a scan that reads only the
columns the aggregates use, none for ``COUNT(*)``; other aggregates keep Calcite's), the result
against DuckDB over the same Parquet file and against the same query over a memory table (where
Calcite's row-at-a-time aggregate runs), and NULLs at every nesting level (NULL ROWs, NULL ROWs
inside ROWs, NULL leaves, an empty input, a column of NULLs).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb
from calcite_bridge.errors import SourceError
from calcite_bridge.sources import ArrowTableSource, ScanRequest, SupportsAggregatePushDown

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"

ADDRESS = pa.struct([("city", pa.string()), ("zip", pa.int32())])
USER = pa.struct([("name", pa.string()), ("age", pa.int32()), ("address", ADDRESS)])
SCHEMA = pa.schema(
    [("id", pa.int64()), ("user", USER), ("score", pa.float64()), ("small", pa.int16())]
)
COLUMNS = (
    "id BIGINT, `user` ROW<name STRING, age INT, address ROW<city STRING, zip INT>>, "
    "score DOUBLE, small SMALLINT"
)
ROWS = 400


class PushingArrowSource(ArrowTableSource, SupportsAggregatePushDown):
    """An Arrow table source that opts in to aggregate pushdown."""


def _user(i: int) -> Any:
    if i % 31 == 0:
        return None  # NULL ROW
    address = None if i % 7 == 0 else {"city": None if i % 5 == 0 else f"c{i % 3}", "zip": i}
    return {"name": f"n{i}", "age": None if i % 9 == 0 else i // 4, "address": address}


def _table() -> pa.Table:
    return pa.table(
        {
            "id": pa.array([None if i % 13 == 0 else i * 1000 for i in range(ROWS)], pa.int64()),
            "user": pa.array([_user(i) for i in range(ROWS)], USER),
            "score": pa.array([None if i % 11 == 0 else i / 3 for i in range(ROWS)]),
            "small": pa.array([None if i % 17 == 0 else i % 50 for i in range(ROWS)], pa.int16()),
        },
        schema=SCHEMA,
    )


@pytest.fixture
def parquet_dir(tmp_path: Path) -> Path:
    return tmp_path / "users"


@pytest.fixture
def agg_env(env: cb.Environment, parquet_dir: Path) -> cb.Environment:
    """``users`` (Parquet, row groups of 40 sorted by age) and ``mem``, a memory copy."""
    directory = parquet_dir
    directory.mkdir()
    pq.write_table(_table(), directory / "part-0.parquet", row_group_size=40)
    env.execute(
        f"CREATE TABLE users ({COLUMNS}) WITH ('connector' = 'filesystem', "
        f"'path' = '{directory}', 'format' = 'parquet')"
    )
    env.execute(f"CREATE TABLE mem ({COLUMNS}) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO mem SELECT * FROM users")
    return env


AGGREGATES = (
    "COUNT(*), COUNT(id), COUNT(`user`), COUNT(`user`.address), COUNT(`user`.address.city), "
    "SUM(id), MIN(id), MAX(id), SUM(`user`.age), MIN(`user`.age), MAX(`user`.address.zip), "
    "SUM(score), MIN(small), MAX(small)"
)
WHERES = [
    "",
    "WHERE `user`.age < 30",
    "WHERE `user`.age >= 50 AND id > 10000",
    "WHERE `user` IS NULL",  # every nested value NULL
    "WHERE `user`.address IS NULL",  # NULL in the middle
    "WHERE `user`.age > 1000",  # no row
    "WHERE `user`.address.city = 'c1' OR `user`.age IS NULL",
]


def _duck(sql: str, path: Path) -> str:
    return (
        sql.replace("`user`", '"user"')
        .replace("FROM users", f"FROM read_parquet('{path}/*.parquet')")
        .replace("`", '"')
    )


def _same(ours: tuple[Any, ...], theirs: tuple[Any, ...]) -> bool:
    if len(ours) != len(theirs):
        return False
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, float) or isinstance(b, float):
            if a is None or b is None or not math.isclose(a, b, rel_tol=1e-12):
                return False
        elif a != b:
            return False
    return True


@pytest.mark.parametrize("where", WHERES)
def test_aggregates_equal_duckdb_and_the_row_engine(
    agg_env: cb.Environment, parquet_dir: Path, where: str
) -> None:
    sql = f"SELECT {AGGREGATES} FROM users {where}"
    plan = agg_env.explain(sql)
    assert plan.startswith("ArrowAggregate(")
    assert "EnumerableAggregate" not in plan
    scan = plan.splitlines()[-1]
    assert "project=[[id, user, user.address, user.address.city, user.age, " in scan
    ours = agg_env.sql(sql).fetchall()
    # The same query where Calcite's row-at-a-time aggregate runs.
    mem = sql.replace("FROM users", "FROM mem")
    assert "ArrowAggregate" not in agg_env.explain(mem)
    assert ours == agg_env.sql(mem).fetchall()
    theirs = duckdb.sql(_duck(sql, parquet_dir)).fetchall()
    assert _same(ours[0], theirs[0]), (ours, theirs)


def test_count_star_reads_no_column(agg_env: cb.Environment) -> None:
    sql = "SELECT COUNT(*) AS c FROM users WHERE `user`.age < 30"
    plan = agg_env.explain(sql).splitlines()
    assert plan[0] == "ArrowAggregate(group=[{}], c=[COUNT()])"
    assert plan[1].strip() == (
        "BridgeTableScan(table=[[users]], filter=[<(user.age, 30)], project=[[]])"
    )
    result = agg_env.sql(sql)
    assert result.schema.field("c").type == pa.int64()
    expected = sum(1 for i in range(ROWS) if _user(i) is not None and i % 9 and i // 4 < 30)
    assert result.fetchall() == [(expected,)]
    assert agg_env.sql("SELECT COUNT(*) FROM users").fetchall() == [(ROWS,)]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT MIN(score) FROM users",  # floating-point MIN/MAX keep Calcite's semantics
        "SELECT score, COUNT(*) FROM users GROUP BY score",  # floating-point key
        "SELECT SUM(id) FILTER (WHERE score > 1) FROM users",
        "SELECT SUM(id + 1) FROM users",
        "SELECT COUNT(*) FROM (SELECT * FROM users LIMIT 10)",
    ],
)
def test_other_aggregates_keep_the_row_engine(agg_env: cb.Environment, sql: str) -> None:
    plan = agg_env.explain(sql)
    assert "ArrowAggregate" not in plan
    assert "Aggregate" in plan
    ours = sorted(agg_env.sql(sql).fetchall(), key=repr)
    assert ours == sorted(agg_env.sql(sql.replace("users", "mem")).fetchall(), key=repr)


def test_an_aggregate_inside_a_larger_plan(agg_env: cb.Environment) -> None:
    sql = (
        "SELECT id FROM users WHERE id = (SELECT MAX(id) FROM users WHERE `user`.age < 20) "
        "OR `user`.age IS NULL AND id < 20000"
    )
    plan = agg_env.explain(sql)
    assert "ArrowAggregate(group=[{}], EXPR$0=[MAX($0)])" in plan
    ours = sorted(agg_env.sql(sql).fetchall(), key=repr)
    assert ours == sorted(agg_env.sql(sql.replace("users", "mem")).fetchall(), key=repr)
    assert (79000,) in ours and (9000,) in ours


def test_sums_equal_the_row_engine(env: cb.Environment) -> None:
    table = pa.table(
        {
            "t": pa.array([100, 100, None], pa.int8()),
            "s": pa.array([30000, 30000, None], pa.int16()),
            "i": pa.array([2**31 - 2, 1, None], pa.int32()),
            "b": pa.array([2**63 - 2, 1, None], pa.int64()),
            "r": pa.array([0.1, 0.2, None], pa.float32()),
            "d": pa.array([0.1, 0.2, None], pa.float64()),
        }
    )
    env.register_source("nums", PushingArrowSource(table))
    env.execute(
        "CREATE TABLE mem (t TINYINT, s SMALLINT, i INT, b BIGINT, r REAL, d DOUBLE) "
        "WITH ('connector' = 'memory')"
    )
    env.execute("INSERT INTO mem SELECT * FROM nums")
    sql = "SELECT SUM(i), SUM(b), SUM(r), SUM(d), MIN(b), MAX(t), MIN(s) FROM nums"
    assert env.explain(sql).startswith("ArrowAggregate(")
    ours = env.sql(sql)
    row_engine = env.sql(sql.replace("nums", "mem"))
    assert ours.schema.types == row_engine.schema.types
    rows = ours.fetchall()
    assert rows == row_engine.fetchall()
    assert rows[0][:2] == (2**31 - 1, 2**63 - 1)
    # A sum that leaves its type is an error in Calcite's engine (README, "Integer overflow").
    env.execute("INSERT INTO mem VALUES (CAST(1 AS TINYINT), CAST(1 AS SMALLINT), 1, 1, 0, 0)")
    for column in ("t", "i", "b"):
        with pytest.raises(cb.ExecutionError, match=r"out of range|[Oo]verflow"):
            env.sql(f"SELECT SUM({column}) FROM mem").fetchall()
    small = "SELECT SUM(t) FROM nums"
    assert "ArrowAggregate" not in env.explain(small)
    with pytest.raises(cb.ExecutionError, match="out of range"):
        env.sql(small).fetchall()
    # The Arrow aggregates raise too, for a sum past its type and past BIGINT.
    env.register_source("more", PushingArrowSource(pa.concat_tables([table, table])))
    for column in ("i", "b"):
        sql = f"SELECT SUM({column}) FROM more"
        assert env.explain(sql).startswith("ArrowAggregate("), sql
        with pytest.raises(cb.ExecutionError, match=r"out of range|[Oo]verflow"):
            env.sql(sql).fetchall()


def test_a_source_that_opts_in_and_one_that_does_not(env: cb.Environment, transport: str) -> None:
    data = _table()
    env.register_arrow("arrow", data)  # an ArrowTableSource: no aggregate pushdown
    env.register_source("pushing", PushingArrowSource(data))

    class WholeRows:
        """Ignores the projection: returns every column whatever the request asks."""

        def __init__(self, pushdown: bool) -> None:
            self.pushdown = pushdown
            self.requests: list[ScanRequest] = []

        def schema(self) -> pa.Schema:
            return data.schema

        def supports_aggregate_pushdown(self) -> bool:
            return self.pushdown

        def scan(self, request: ScanRequest) -> pa.Table:
            self.requests.append(request)
            return data

    whole, declining = WholeRows(True), WholeRows(False)
    env.register_source("whole", whole)
    env.register_source("declining", declining)
    nested = "SELECT COUNT(*), COUNT(`user`.address.city), MAX(`user`.age) FROM {}"
    expected = duckdb.sql(nested.format("data").replace("`", '"')).fetchall()
    flat = "SELECT COUNT(*), COUNT(id), MAX(small), SUM(id) FROM {}"
    expected_flat = duckdb.sql(flat.format("data")).fetchall()
    cases = [
        ("pushing", nested, expected, True),
        ("pushing", flat, expected_flat, True),
        ("whole", flat, expected_flat, True),  # no nested projection: flat columns only
        ("arrow", nested, expected, False),
        ("arrow", flat, expected_flat, False),
        ("declining", flat, expected_flat, False),
    ]
    for table, sql, answer, opts_in in cases:
        query = sql.format(table)
        enumerable = env.explain(query)
        auto = env.explain(query, backend="auto")
        if opts_in:
            assert enumerable.startswith("ArrowAggregate("), (table, enumerable)
            # Under auto, DuckDB computes aggregates that read columns (it measured faster);
            # a gateway has no DuckDB, and auto runs on Calcite's engine there.
            assert auto.startswith("DuckDB(" if transport == "jpype" else "ArrowAggregate("), auto
        else:
            assert "ArrowAggregate" not in enumerable and "Aggregate" in enumerable, table
            # A gateway has no DuckDB: auto runs on Calcite's engine there.
            assert auto.startswith("DuckDB(" if transport == "jpype" else "Enumerable"), auto
        for backend in ("enumerable", "auto"):
            assert env.sql(query, backend=backend).fetchall() == answer, (table, backend)
    # A COUNT(*) alone is answered by a source that opts in on every backend.
    for table in ("pushing", "whole"):
        assert env.explain(f"SELECT COUNT(*) FROM {table}", backend="auto").startswith(
            "ArrowAggregate(group=[{}]"
        )
    env.sql(flat.format("whole")).fetchall()
    assert whole.requests[-1].columns == ("id", "small")
    count = env.sql("SELECT COUNT(*) FROM whole").fetchall()
    assert count == [(ROWS,)] and whole.requests[-1].columns == ()
    # Without the ability, the engine counts rows of a column it reads.
    count = env.sql("SELECT COUNT(*) FROM declining").fetchall()
    assert count == [(ROWS,)] and declining.requests[-1].columns != ()


def test_a_failing_source_reports_the_failure(env: cb.Environment) -> None:
    class Broken(ArrowTableSource):
        def scan(self, request: ScanRequest) -> Any:
            def batches() -> Any:
                yield from super(Broken, self).scan(request)
                raise OSError("disk gone")

            reader = super().scan(request)
            return pa.RecordBatchReader.from_batches(reader.schema, batches())

    env.register_source("broken", Broken(_table()))
    with pytest.raises(SourceError, match="disk gone"):
        env.sql("SELECT COUNT(*) FROM broken").fetchall()


def test_csv_and_json_files(env: cb.Environment, tmp_path: Path) -> None:
    """The filesystem connector's other formats answer a request for no columns too."""
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "f.csv").write_text("a,b\n1,x\n2,y\n3,\n,z\n")
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "f.json").write_text(
        '{"a": 1, "u": {"v": 2}}\n{"a": 2, "u": null}\n{"a": null, "u": {"v": null}}\n'
    )
    env.execute(
        f"CREATE TABLE c (a BIGINT, b STRING) WITH ('connector' = 'filesystem', "
        f"'path' = '{tmp_path / 'c'}', 'format' = 'csv')"
    )
    env.execute(
        f"CREATE TABLE j (a BIGINT, u ROW<v BIGINT>) WITH ('connector' = 'filesystem', "
        f"'path' = '{tmp_path / 'j'}', 'format' = 'json')"
    )
    cases = {
        "SELECT COUNT(*), COUNT(a), SUM(a), MAX(a) FROM c": [(4, 3, 6, 3)],
        "SELECT COUNT(*) FROM c WHERE a > 1": [(2,)],
        "SELECT COUNT(*), COUNT(u), COUNT(u.v), SUM(u.v) FROM j": [(3, 2, 1, 2)],
        "SELECT COUNT(*) FROM j WHERE u.v IS NULL": [(2,)],
    }
    for sql, expected in cases.items():
        plan = env.explain(sql)
        assert plan.startswith("ArrowAggregate(")
        assert env.sql(sql).fetchall() == expected


def test_integer_averages_sum_in_a_wider_type_from_the_batches(
    env: cb.Environment, tmp_path: Path
) -> None:
    """An integer AVG sums in a wider type so that the sum does not overflow: the vectorized
    aggregate adds the column's values into BIGINT (DECIMAL for a BIGINT column) itself."""
    table = pa.table(
        {
            "i": pa.array([2147483647, 2147483647, None, 1], pa.int32()),
            "b": pa.array([9223372036854775807, 9223372036854775807, None, -3], pa.int64()),
            "s": pa.array([32767, 32767, None, 1], pa.int16()),
        }
    )
    pq.write_table(table, tmp_path / "p.parquet")
    env.execute(
        "CREATE TABLE wide (i INT, b BIGINT, s SMALLINT) WITH ('connector' = 'filesystem', "
        f"'path' = '{tmp_path}', 'format' = 'parquet')"
    )
    env.execute("CREATE TABLE wide_mem (i INT, b BIGINT, s SMALLINT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO wide_mem SELECT * FROM wide")
    for where, expected in [
        ("", [(1431655765, 6148914691236517203, 21845, 4)]),
        ("WHERE i IS NULL", [(None, None, None, 1)]),
        ("WHERE b < 0", [(1, -3, 1, 1)]),
    ]:
        sql = f"SELECT AVG(i), AVG(b), AVG(s), COUNT(*) FROM wide {where}"
        assert "ArrowAggregate(" in env.explain(sql, backend="enumerable")
        assert env.sql(sql, backend="enumerable").fetchall() == expected
        mem = sql.replace("FROM wide", "FROM wide_mem")
        assert env.sql(mem, backend="enumerable").fetchall() == expected
        theirs = duckdb.sql(
            sql.replace("FROM wide", f"FROM read_parquet('{tmp_path}/p.parquet')")
        ).fetchall()
        for ours_value, their_value in zip(expected[0], theirs[0], strict=True):
            # DuckDB's AVG is a DOUBLE; ours keeps the column's type, rounded toward zero.
            assert (ours_value is None) == (their_value is None)
            if ours_value is not None:
                assert math.isclose(ours_value, their_value, rel_tol=1e-12)
