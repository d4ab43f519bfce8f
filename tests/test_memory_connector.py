"""The memory connector: appends, atomic INSERTs, metadata columns and INSERT column mapping."""

from __future__ import annotations

import datetime as dt

import pytest

import calcite_bridge as cb

META_DDL = """CREATE TABLE m (
    id INT NOT NULL,
    v STRING,
    ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
    off BIGINT METADATA FROM 'offset' VIRTUAL,
    m STRING METADATA,
    c AS id * 2
) WITH ('connector' = 'memory')"""


@pytest.fixture
def t_env(env: cb.Environment) -> cb.Environment:
    env.execute("CREATE TABLE t (a INT NOT NULL, b STRING) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    return env


def rows(env: cb.Environment, table: str = "t") -> list[tuple[object, ...]]:
    return sorted(env.sql(f"SELECT * FROM {table}").fetchall(), key=repr)


def test_insert_appends(t_env: cb.Environment) -> None:
    t_env.execute("INSERT INTO t VALUES (3, 'z')")
    t_env.execute("INSERT INTO t SELECT a + 10, b FROM t")
    assert rows(t_env) == sorted(
        [(1, "x"), (2, "y"), (3, "z"), (11, "x"), (12, "y"), (13, "z")], key=repr
    )


def test_new_table_is_empty(env: cb.Environment) -> None:
    env.execute("CREATE TABLE e (a INT) WITH ('connector' = 'memory')")
    res = env.sql("SELECT * FROM e")
    assert res.fetchall() == [] and res.columns == ["a"]


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO t VALUES (3, 'ok'), (CAST(NULL AS INT), 'bad')",
        "INSERT INTO t (a, b) VALUES (3, 'ok'), (NULL, 'bad')",
        "INSERT INTO t (b) VALUES ('no a')",
    ],
)
def test_null_into_not_null_changes_nothing(t_env: cb.Environment, statement: str) -> None:
    before = rows(t_env)
    with pytest.raises(cb.SqlValidationError) as info:
        t_env.execute(statement)
    assert "'a'" in str(info.value)
    assert rows(t_env) == before


def test_runtime_null_into_not_null_changes_nothing(t_env: cb.Environment) -> None:
    t_env.execute("CREATE TABLE src (a INT, b STRING) WITH ('connector' = 'memory')")
    t_env.execute("INSERT INTO src VALUES (5, 'p'), (NULL, 'q'), (7, 'r')")
    before = rows(t_env)
    with pytest.raises(cb.SqlValidationError):
        t_env.execute("INSERT INTO t SELECT a, b FROM src")
    assert rows(t_env) == before


def test_division_by_zero_mid_insert_changes_nothing(t_env: cb.Environment) -> None:
    before = rows(t_env)
    with pytest.raises(cb.ExecutionError, match="zero"):
        # The first row (a = 1) divides by zero only after the rows of the first branch.
        t_env.execute(
            "INSERT INTO t SELECT a + 10, b FROM t UNION ALL SELECT 10 / (a - 1), b FROM t"
        )
    assert rows(t_env) == before


def test_failing_cast_mid_insert_changes_nothing(t_env: cb.Environment) -> None:
    t_env.execute("CREATE TABLE s (x STRING) WITH ('connector' = 'memory')")
    t_env.execute("INSERT INTO s VALUES ('5'), ('6'), ('not a number'), ('8')")
    before = rows(t_env)
    with pytest.raises(cb.ExecutionError, match="not a number"):
        t_env.execute("INSERT INTO t SELECT CAST(x AS INT), x FROM s")
    assert rows(t_env) == before
    # The table still takes inserts afterwards.
    t_env.execute("INSERT INTO t SELECT CAST(x AS INT), x FROM s WHERE x <> 'not a number'")
    assert len(rows(t_env)) == 5


def test_timestamp_metadata_is_insert_time(env: cb.Environment) -> None:
    env.execute(META_DDL)
    low = dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)
    env.execute("INSERT INTO m (id, v) VALUES (1, 'a'), (2, 'b')")
    high = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=1)
    res = env.sql("SELECT id, ts FROM m ORDER BY id")
    assert str(res.schema.field("ts").type).startswith("timestamp[ms, tz=")
    stamps = [r[1] for r in res.fetchall()]
    assert all(low <= s <= high for s in stamps)
    assert stamps[0] == stamps[1]  # one INSERT, one time
    env.execute("INSERT INTO m (id, v) VALUES (3, 'c')")
    later = env.sql("SELECT ts FROM m WHERE id = 3").fetchone()[0]
    assert later >= stamps[0]


def test_offset_metadata_is_row_position(env: cb.Environment) -> None:
    env.execute(META_DDL)
    env.execute("INSERT INTO m (id) VALUES (10), (20)")
    env.execute("INSERT INTO m (id) VALUES (30)")
    assert env.sql("SELECT id, off FROM m ORDER BY off").fetchall() == [(10, 0), (20, 1), (30, 2)]
    assert env.sql("SELECT id FROM m WHERE off = 1").fetchall() == [(20,)]


def test_persisted_metadata_is_null_until_written(env: cb.Environment) -> None:
    env.execute(META_DDL)
    env.execute("INSERT INTO m (id, v) VALUES (1, 'a')")
    env.execute("INSERT INTO m (id, v, m) VALUES (2, 'b', 'hello'), (3, 'c', NULL)")
    assert env.sql("SELECT id, m FROM m ORDER BY id").fetchall() == [
        (1, None),
        (2, "hello"),
        (3, None),
    ]


def test_select_star_shows_every_kind(env: cb.Environment) -> None:
    env.execute(META_DDL)
    env.execute("INSERT INTO m (id, v, m) VALUES (4, 'd', 'x')")
    res = env.sql("SELECT * FROM m")
    assert res.columns == ["id", "v", "ts", "off", "m", "c"]
    row = res.to_pylist()[0]
    assert (row["id"], row["v"], row["off"], row["m"], row["c"]) == (4, "d", 0, "x", 8)


def test_insert_without_column_list_maps_to_writable_columns(env: cb.Environment) -> None:
    env.execute(META_DDL)
    # Writable columns, in order: id, v, m (physical, then persisted metadata in DDL order).
    env.execute("INSERT INTO m VALUES (1, 'a', 'meta')")
    assert env.sql("SELECT id, v, m, c FROM m").fetchall() == [(1, "a", "meta", 2)]


def test_insert_count_mismatch_names_the_columns(env: cb.Environment) -> None:
    env.execute(META_DDL)
    with pytest.raises(cb.SqlValidationError) as info:
        env.execute("INSERT INTO m VALUES (1, 'a')")
    assert "3" in str(info.value) and "2" in str(info.value)
    assert env.sql("SELECT COUNT(*) FROM m").fetchone() == (0,)


def test_insert_select_star_from_itself(env: cb.Environment) -> None:
    env.execute(META_DDL)
    env.execute("INSERT INTO m (id, v, m) VALUES (1, 'a', 'x')")
    env.execute("INSERT INTO m SELECT * FROM m")
    assert env.sql("SELECT id, v, m, off FROM m ORDER BY off").fetchall() == [
        (1, "a", "x", 0),
        (1, "a", "x", 1),
    ]


@pytest.mark.parametrize(
    ("target", "kind"),
    [("c", "computed"), ("off", "virtual"), ("ts", "virtual")],
)
def test_read_only_column_as_insert_target(env: cb.Environment, target: str, kind: str) -> None:
    env.execute(META_DDL)
    with pytest.raises(cb.SqlValidationError) as info:
        env.execute(f"INSERT INTO m (id, {target}) VALUES (5, NULL)")
    message = str(info.value)
    assert f"'{target}'" in message and kind in message
    assert info.value.column == 20  # the column name in the target list
    assert env.sql("SELECT COUNT(*) FROM m").fetchone() == (0,)


def test_persisted_timestamp_metadata_can_be_written(env: cb.Environment) -> None:
    env.execute(
        "CREATE TABLE w (ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', a INT) "
        "WITH ('connector' = 'memory')"
    )
    env.execute("INSERT INTO w (ts, a) VALUES (TIMESTAMP '2020-01-01 00:00:00', 1)")
    env.execute("INSERT INTO w (a) VALUES (2)")
    got = dict((a, ts) for ts, a in env.sql("SELECT ts, a FROM w").fetchall())
    assert got[1] == dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
    assert got[2].year >= 2024  # the insert time, since nothing was written


def test_insert_into_a_view_fails(t_env: cb.Environment) -> None:
    t_env.execute("CREATE VIEW v AS SELECT a, b FROM t")
    with pytest.raises(cb.SqlValidationError):
        t_env.execute("INSERT INTO v VALUES (9, 'v')")
    assert len(rows(t_env)) == 2
