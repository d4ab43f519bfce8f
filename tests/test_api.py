"""The public Python API over the example table of the issue: DDL, DML, queries and metadata."""

from __future__ import annotations

import datetime as dt
import decimal
import json
from collections.abc import Callable

import pyarrow as pa
import pytest

import calcite_bridge as cb
from conftest import EMP_DDL, EMP_INSERT


def test_select_nested_and_computed_columns(emp_env: cb.Environment) -> None:
    res = emp_env.sql("SELECT addr.city, bonus FROM emp WHERE salary > 50")
    assert res.columns == ["city", "bonus"]
    assert sorted(res.fetchall(), key=lambda r: r[1]) == [(None, 8.0), ("Paris", 10.0)]


def test_map_and_array_access(emp_env: cb.Environment) -> None:
    rows = emp_env.sql(
        "SELECT id, props['k'] AS k, props['missing'] AS m, tags[1] AS t1, tags[2] AS t2 "
        "FROM emp ORDER BY id"
    ).fetchall()
    assert rows == [
        (1, "v1", None, "a", "b"),
        (2, "v2", None, "c", None),
        (3, None, None, None, None),
    ]


def test_nested_field_in_where_and_order_by(emp_env: cb.Environment) -> None:
    rows = emp_env.sql(
        "SELECT name FROM emp WHERE addr.zip > 70 OR addr.city = 'Lyon' ORDER BY addr.zip DESC"
    ).fetchall()
    assert rows == [("ann",), ("bob",)]


def test_computed_column_follows_inserted_data(emp_env: cb.Environment) -> None:
    emp_env.execute("INSERT INTO emp (id, salary) VALUES (4, 12.5)")
    assert emp_env.sql("SELECT bonus FROM emp WHERE id = 4").fetchall() == [(1.25,)]
    assert emp_env.sql("SELECT SUM(bonus) FROM emp").fetchone() == (pytest.approx(23.25),)


def test_insert_reports_rows_and_appends(emp_env: cb.Environment) -> None:
    res = emp_env.execute("INSERT INTO emp (id, name) VALUES (10, 'x'), (11, 'y')")
    assert res.to_pylist() == [{"rows_inserted": 2}]
    assert emp_env.sql("SELECT COUNT(*) FROM emp").fetchone() == (5,)
    # Columns left out of the column list are NULL.
    assert emp_env.sql("SELECT salary, addr, tags FROM emp WHERE id = 10").fetchall() == [
        (None, None, None)
    ]


def test_join_group_by_order_by(emp_env: cb.Environment) -> None:
    emp_env.register_arrow(
        "cities", pa.table({"city": ["Paris", "Lyon", "Nice"], "country": ["FR", "FR", "FR"]})
    )
    rows = emp_env.sql(
        "SELECT c.city, COUNT(*) AS n, SUM(e.salary) AS total "
        "FROM emp e JOIN cities c ON e.addr.city = c.city "
        "GROUP BY c.city ORDER BY total DESC"
    ).fetchall()
    assert rows == [("Paris", 1, 100.0), ("Lyon", 1, 40.0)]
    left = emp_env.sql(
        "SELECT e.id, c.country FROM emp e LEFT JOIN cities c ON e.addr.city = c.city ORDER BY e.id"
    ).fetchall()
    assert left == [(1, "FR"), (2, "FR"), (3, None)]


def test_result_accessors(emp_env: cb.Environment) -> None:
    res = emp_env.sql("SELECT id, name FROM emp ORDER BY id")
    assert res.columns == ["id", "name"]
    assert res.schema == pa.schema(
        [pa.field("id", pa.int32(), nullable=False), ("name", pa.string())]
    )
    table = res.to_arrow_table()
    assert table.to_pydict() == {"id": [1, 2, 3], "name": ["ann", "bob", "cy"]}
    # Read once, then every accessor works again from the kept table; the fetch methods are a
    # cursor over it, each call going on from the last.
    assert res.fetchall() == [(1, "ann"), (2, "bob"), (3, "cy")]
    assert res.to_pylist()[0] == {"id": 1, "name": "ann"}
    assert res.fetchone() is None
    assert len(res) == 3
    assert res.to_arrow_reader().read_all().equals(table)


def test_to_arrow_reader_streams_once(emp_env: cb.Environment) -> None:
    res = emp_env.sql("SELECT id FROM emp")
    reader = res.to_arrow_reader()
    assert isinstance(reader, pa.RecordBatchReader)
    assert sorted(reader.read_all().column("id").to_pylist()) == [1, 2, 3]
    with pytest.raises(RuntimeError):
        res.to_arrow_reader()


def test_arrow_c_stream_protocol(emp_env: cb.Environment) -> None:
    res = emp_env.sql("SELECT name, salary FROM emp WHERE id < 3 ORDER BY id")
    table = pa.table(res)
    assert table.to_pydict() == {"name": ["ann", "bob"], "salary": [100.0, 40.0]}
    assert pa.RecordBatchReader.from_stream(
        emp_env.sql("SELECT 1 AS x")
    ).read_all().to_pylist() == [{"x": 1}]


def test_empty_result_keeps_schema(emp_env: cb.Environment) -> None:
    res = emp_env.sql("SELECT id, addr FROM emp WHERE id > 100")
    assert res.fetchall() == []
    assert res.schema.names == ["id", "addr"]
    assert pa.types.is_struct(res.schema.field("addr").type)


def test_validate_returns_schema_without_executing(emp_env: cb.Environment) -> None:
    schema = emp_env.validate(
        "SELECT id, name, addr, tags, props, bonus, CAST(id AS BIGINT) AS big FROM emp"
    )
    assert isinstance(schema, pa.Schema)
    assert schema.names == ["id", "name", "addr", "tags", "props", "bonus", "big"]
    assert schema.field("id").type == pa.int32() and not schema.field("id").nullable
    assert schema.field("name").type == pa.string() and schema.field("name").nullable
    assert schema.field("addr").type == pa.struct([("city", pa.string()), ("zip", pa.int32())])
    assert pa.types.is_list(schema.field("tags").type)
    assert schema.field("tags").type.value_type == pa.string()
    assert schema.field("props").type == pa.map_(pa.string(), pa.string())
    assert schema.field("bonus").type == pa.float64()
    assert schema.field("big").type == pa.int64() and not schema.field("big").nullable


def test_validate_does_not_run_the_query(env: cb.Environment) -> None:
    env.execute("CREATE TABLE s (x STRING) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO s VALUES ('not a number')")
    # Running it fails (the CAST), validating it does not.
    assert env.validate("SELECT CAST(x AS INT) AS n FROM s").names == ["n"]
    with pytest.raises(cb.ExecutionError, match="not a number"):
        env.sql("SELECT CAST(x AS INT) AS n FROM s").fetchall()


def test_explain_formats(emp_env: cb.Environment) -> None:
    sql = "SELECT name FROM emp WHERE salary > 50"
    text = emp_env.explain(sql)
    assert text == emp_env.explain(sql, format="text")
    assert "TableScan" in text and "emp" in text
    doc = json.loads(emp_env.explain(sql, format="json"))
    ops = [rel["relOp"] for rel in doc["rels"]]
    assert any(op.endswith("TableScan") for op in ops)
    dot = emp_env.explain(sql, format="dot")
    assert dot.lstrip().startswith("digraph") and "->" in dot
    with pytest.raises(cb.ConfigError, match="yaml"):
        emp_env.explain(sql, format="yaml")


@pytest.mark.parametrize(
    ("sql", "label"),
    [("SELECT id, name FROM emp", "BridgeTableScan(table=[[emp]]"), ("VALUES (1)", "Values(")],
)
def test_explain_dot_draws_a_plan_of_one_node(
    emp_env: cb.Environment, sql: str, label: str
) -> None:
    emp_env.config.set("execution.backend", "enumerable")
    dot = emp_env.explain(sql, format="dot")
    assert dot.startswith("digraph {\n") and dot.endswith("\n}")
    (node,) = dot.splitlines()[1:-1]
    assert node.startswith('"') and node.endswith('"') and label in node


def test_explain_statement(emp_env: cb.Environment) -> None:
    res = emp_env.execute("EXPLAIN PLAN FOR SELECT id FROM emp")
    (plan,) = res.fetchone()
    assert "TableScan" in plan


PLANNED = [
    "SELECT id, name, addr, CAST(NULL AS INT) AS nothing FROM emp WHERE salary > 50",
    "SELECT e.id, f.name FROM emp e JOIN emp f ON e.id = f.id WHERE e.addr.city = 'Oslo'",
]
REFUSED = [
    ("SELECT nope FROM emp", cb.SqlValidationError, 1, 8),
    ("SELECT id FROM emp WHERE", cb.SqlParseError, 1, 24),
    ("SELECT id\nFROM emp WHERE name > 1 +", cb.SqlParseError, 2, 25),
]


@pytest.mark.parametrize("first_slice", ["200 ms", "none"])
def test_validate_and_explain_answer_alike_from_the_first_slice_or_after_it(
    emp_env: cb.Environment, monkeypatch: pytest.MonkeyPatch, first_slice: str
) -> None:
    # validate and explain get their answer from the call that starts the statement when it ends
    # within the first slice of their wait, else wait for it in slices: with no first slice,
    # every statement takes the second way. Both give the same schemas, plans and errors.
    schemas = [emp_env.validate(sql) for sql in PLANNED]
    plans = [emp_env.explain(sql) for sql in PLANNED]
    assert schemas[0].field("nothing").type == pa.int32() and schemas[0].field("nothing").nullable
    assert schemas[1].names == ["id", "name"]
    assert "Oslo" in plans[1] and "emp" in plans[1]
    if first_slice == "none":
        from calcite_bridge._transport import jvm

        monkeypatch.setattr(jvm, "_POLL_MILLIS", 0)
    for _ in range(2):  # the second time the schemas read are the ones kept
        assert [emp_env.validate(sql) for sql in PLANNED] == schemas
        assert [emp_env.explain(sql) for sql in PLANNED] == plans
    for sql, error, line, column in REFUSED:
        for statement in (emp_env.validate, emp_env.explain):
            with pytest.raises(error) as refused:
                statement(sql)
            assert (refused.value.line, refused.value.column) == (line, column), sql


def test_a_schema_kept_for_its_message_is_not_changed_by_a_later_statement(
    emp_env: cb.Environment,
) -> None:
    # A placeholder's types go into the schema's metadata: a schema object shared between
    # statements of the same result (validate keeps what it read) must not carry them over.
    plain = emp_env.validate("SELECT id FROM emp WHERE id > 1")
    marked = emp_env.validate("SELECT id FROM emp WHERE id > ?")
    assert marked.metadata is not None and b"parameters" in marked.metadata
    assert emp_env.validate("SELECT id FROM emp WHERE id > 2").metadata == plain.metadata
    assert not plain.metadata


def test_describe_kinds(env: cb.Environment) -> None:
    env.execute(
        """CREATE TABLE t (
            id INT NOT NULL,
            addr ROW<city STRING, zip INT>,
            ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
            m STRING METADATA,
            c AS id * 2
        ) WITH ('connector' = 'memory')"""
    )
    cols = env.describe("t")
    assert all(isinstance(c, cb.ColumnInfo) for c in cols)
    assert [c.name for c in cols] == ["id", "addr", "ts", "m", "c"]
    by = {c.name: c for c in cols}
    assert (by["id"].kind, by["id"].data_type, by["id"].nullable) == ("PHYSICAL", "INT", False)
    assert by["addr"].kind == "PHYSICAL" and by["addr"].data_type.startswith("ROW<")
    assert (by["ts"].kind, by["ts"].metadata_key, by["ts"].virtual) == (
        "METADATA",
        "timestamp",
        True,
    )
    assert by["ts"].data_type == "TIMESTAMP_LTZ(3)"
    assert (by["m"].kind, by["m"].metadata_key, by["m"].virtual) == ("METADATA", "m", False)
    assert by["c"].kind == "COMPUTED" and by["c"].expression is not None
    assert "id" in by["c"].expression and "2" in by["c"].expression


def test_show_tables(env: cb.Environment) -> None:
    assert env.execute("SHOW TABLES").fetchall() == []
    env.execute("CREATE TABLE b (x INT) WITH ('connector' = 'memory')")
    env.execute("CREATE TABLE a (x INT) WITH ('connector' = 'memory')")
    env.execute("CREATE VIEW v AS SELECT x FROM a")
    names = [r[0] for r in env.execute("SHOW TABLES").fetchall()]
    assert sorted(names) == ["a", "b", "v"]
    assert env.tables() == ["a", "b", "v"]


def test_show_create_table_round_trips(
    emp_env: cb.Environment, connect: Callable[..., cb.Environment]
) -> None:
    emp_env.execute(
        """CREATE TABLE meta (
            id BIGINT NOT NULL,
            ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
            off BIGINT METADATA FROM 'offset' VIRTUAL,
            m STRING METADATA,
            c AS id + 1
        ) WITH ('connector' = 'memory')"""
    )
    for table in ("emp", "meta"):
        (ddl,) = emp_env.execute(f"SHOW CREATE TABLE {table}").fetchone()
        assert ddl.startswith("CREATE TABLE")
        other = connect()
        try:
            other.execute(ddl)
            assert other.describe(table) == emp_env.describe(table)
        finally:
            other.close()


def test_set_and_reset(env: cb.Environment) -> None:
    key = "table.column-expansion-strategy"
    assert env.config.get(key) == []
    env.execute(f"SET '{key}' = 'exclude_computed_columns;EXCLUDE_PERSISTED_METADATA_COLUMNS'")
    assert env.config.get(key) == ["EXCLUDE_COMPUTED_COLUMNS", "EXCLUDE_PERSISTED_METADATA_COLUMNS"]
    listed = dict(env.execute("SET").fetchall())
    assert listed[key] == "EXCLUDE_COMPUTED_COLUMNS;EXCLUDE_PERSISTED_METADATA_COLUMNS"
    env.execute(f"RESET '{key}'")
    assert env.config.get(key) == []
    env.config.set("table.local-time-zone", "Europe/Paris")
    env.config.set(key, ["EXCLUDE_COMPUTED_COLUMNS"])
    env.execute("RESET")
    assert env.config.get(key) == []
    assert env.config.get("table.local-time-zone") == "UTC"


def test_config_at_connect_and_independence(connect: Callable[..., cb.Environment]) -> None:
    key = "table.column-expansion-strategy"
    a = connect(config={key: ["EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"]})
    b = connect()
    try:
        assert a.config.get(key) == ["EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"]
        assert b.config.get(key) == []
    finally:
        a.close()
        b.close()


def test_config_takes_booleans_and_numbers(connect: Callable[..., cb.Environment]) -> None:
    env = connect(config={"external-access": False, "planner.plan-cache.size": 7})
    try:
        assert env.config.get("external-access") == "false"
        assert env.config.get("planner.plan-cache.size") == "7"
        env.config.set("external-access", True)
        assert env.config.get("external-access") == "true"
        with pytest.raises(cb.ConfigError, match=r"execution\.backend"):
            env.config.set("execution.backend", 3)
    finally:
        env.close()


def test_unknown_strategy_fails_at_set_time(env: cb.Environment) -> None:
    key = "table.column-expansion-strategy"
    with pytest.raises(cb.ConfigError) as info:
        env.config.set(key, ["EXCLUDE_COMPUTED_COLUMNS", "EXCLUDE_EVERYTHING"])
    message = str(info.value)
    assert "EXCLUDE_EVERYTHING" in message
    for allowed in (
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS",
        "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
        "EXCLUDE_COMPUTED_COLUMNS",
        "EXCLUDE_PERSISTED_METADATA_COLUMNS",
    ):
        assert allowed in message
    with pytest.raises(cb.ConfigError, match="EXCLUDE_COMPUTED_COLUMNS"):
        env.execute(f"SET '{key}' = 'nope'")
    # The failed SETs changed nothing.
    assert env.config.get(key) == []


def test_expansion_strategy_hides_computed_columns_from_star(emp_env: cb.Environment) -> None:
    emp_env.config.set("table.column-expansion-strategy", ["EXCLUDE_COMPUTED_COLUMNS"])
    assert "bonus" not in emp_env.sql("SELECT * FROM emp").columns


def test_views(emp_env: cb.Environment) -> None:
    emp_env.execute(
        "CREATE VIEW rich AS SELECT id, name, addr.city AS city FROM emp WHERE salary > 50"
    )
    assert sorted(emp_env.sql("SELECT * FROM rich").fetchall()) == [
        (1, "ann", "Paris"),
        (3, "cy", None),
    ]
    # A view reads the table at query time.
    emp_env.execute("INSERT INTO emp (id, name, salary) VALUES (9, 'zed', 99.0)")
    assert emp_env.sql("SELECT COUNT(*) FROM rich").fetchone() == (3,)
    emp_env.execute("DROP VIEW rich")
    with pytest.raises(cb.SqlValidationError, match="rich"):
        emp_env.sql("SELECT * FROM rich")
    with pytest.raises(cb.CatalogError, match="rich"):
        emp_env.execute("DROP VIEW rich")
    emp_env.execute("DROP VIEW IF EXISTS rich")


def test_drop_table(emp_env: cb.Environment) -> None:
    emp_env.execute("DROP TABLE emp")
    assert emp_env.tables() == []
    with pytest.raises(cb.SqlValidationError, match="emp"):
        emp_env.sql("SELECT * FROM emp")
    with pytest.raises(cb.CatalogError, match="emp"):
        emp_env.execute("DROP TABLE emp")
    emp_env.execute("DROP TABLE IF EXISTS emp")
    # The name is free again, and the new table starts empty.
    emp_env.execute(EMP_DDL)
    assert emp_env.sql("SELECT COUNT(*) FROM emp").fetchone() == (0,)


def test_create_table_if_not_exists_keeps_existing(emp_env: cb.Environment) -> None:
    emp_env.execute("CREATE TABLE IF NOT EXISTS emp (other INT) WITH ('connector' = 'memory')")
    assert [c.name for c in emp_env.describe("emp")][:2] == ["id", "name"]
    assert emp_env.sql("SELECT COUNT(*) FROM emp").fetchone() == (3,)


def test_environments_are_independent(connect: Callable[..., cb.Environment]) -> None:
    a, b = connect(), connect()
    try:
        a.execute(EMP_DDL)
        a.execute(EMP_INSERT)
        b.execute("CREATE TABLE emp (id INT, other STRING) WITH ('connector' = 'memory')")
        b.execute("INSERT INTO emp VALUES (42, 'b only')")
        assert a.sql("SELECT COUNT(*) FROM emp").fetchone() == (3,)
        assert b.sql("SELECT * FROM emp").fetchall() == [(42, "b only")]
        assert [c.name for c in b.describe("emp")] == ["id", "other"]
        a.execute("DROP TABLE emp")
        assert b.sql("SELECT id FROM emp").fetchall() == [(42,)]
        with pytest.raises(cb.SqlValidationError):
            a.sql("SELECT id FROM emp")
    finally:
        a.close()
        b.close()


# --- register_arrow round trip -------------------------------------------------------------

UTC = dt.timezone.utc

ROUND_TRIP = pa.table(
    {
        "i8": pa.array([1, None, -128], pa.int8()),
        "i16": pa.array([1, None, -32768], pa.int16()),
        "i32": pa.array([1, None, -(2**31)], pa.int32()),
        "i64": pa.array([1, None, 2**62], pa.int64()),
        "f32": pa.array([1.5, None, -2.25], pa.float32()),
        "f64": pa.array([1.5, None, -1e300], pa.float64()),
        "dec": pa.array(
            [decimal.Decimal("1.23"), None, decimal.Decimal("-99999999.99")], pa.decimal128(10, 2)
        ),
        "s": pa.array(["a", None, "ünï €"], pa.string()),
        "bin": pa.array([b"\x00\x01", None, b""], pa.binary()),
        "b": pa.array([True, None, False]),
        "d": pa.array([dt.date(2020, 1, 2), None, dt.date(1969, 12, 31)], pa.date32()),
        "ts": pa.array(
            [dt.datetime(2020, 1, 2, 3, 4, 5, 123000), None, dt.datetime(1969, 12, 31, 23, 59, 59)],
            pa.timestamp("ms"),
        ),
        "tstz": pa.array(
            [
                dt.datetime(2020, 1, 2, 3, 4, 5, 123000, tzinfo=UTC),
                None,
                dt.datetime(1970, 1, 1, tzinfo=UTC),
            ],
            pa.timestamp("ms", tz="UTC"),
        ),
        "st": pa.array(
            [{"x": 1, "y": {"z": "q"}}, None, {"x": None, "y": None}],
            pa.struct([("x", pa.int32()), ("y", pa.struct([("z", pa.string())]))]),
        ),
        "l": pa.array([[1, None, 3], None, []], pa.list_(pa.int64())),
        "ll": pa.array([[["a"], None, []], None, [None]], pa.list_(pa.list_(pa.string()))),
        "mp": pa.array([[("k", 1), ("n", None)], None, []], pa.map_(pa.string(), pa.int32())),
    }
)


def test_register_arrow_round_trip(env: cb.Environment) -> None:
    env.register_arrow("t", ROUND_TRIP)
    out = env.sql("SELECT * FROM t").to_arrow_table()
    assert out.column_names == ROUND_TRIP.column_names
    for name in ROUND_TRIP.column_names:
        assert out.column(name).type == ROUND_TRIP.column(name).type, name
        assert out.column(name).to_pylist() == ROUND_TRIP.column(name).to_pylist(), name
    assert out.equals(ROUND_TRIP)


def test_register_arrow_nested_access_with_nulls(env: cb.Environment) -> None:
    env.register_arrow("t", ROUND_TRIP)
    rows = env.sql(
        "SELECT st.x AS x, st.y.z AS z, l[1] AS l1, mp['k'] AS k, mp['n'] AS n "
        "FROM t ORDER BY i64 NULLS LAST"
    ).fetchall()
    assert rows == [
        (1, "q", 1, 1, None),
        (None, None, None, None, None),
        (None, None, None, None, None),
    ]
    nulls = env.sql(
        "SELECT COUNT(*) FROM t WHERE st IS NULL OR st.y IS NULL OR l IS NULL OR mp IS NULL"
    ).fetchone()
    assert nulls == (2,)


def test_register_arrow_filters_on_every_type(env: cb.Environment) -> None:
    env.register_arrow("t", ROUND_TRIP)
    rows = env.sql(
        "SELECT i32 FROM t WHERE `dec` > 0 AND s = 'a' AND d = DATE '2020-01-02' "
        "AND ts = TIMESTAMP '2020-01-02 03:04:05.123' AND b"
    ).fetchall()
    assert rows == [(1,)]


def test_register_arrow_list_of_struct(env: cb.Environment) -> None:
    items = pa.list_(pa.struct([("a", pa.string()), ("b", pa.int32())]))
    data = pa.table(
        {
            "i": [1, 2, 3],
            "ls": pa.array([[{"a": "x", "b": 1}, None], None, [{"a": None, "b": None}]], items),
        }
    )
    env.register_arrow("t", data)
    assert env.sql("SELECT * FROM t").to_arrow_table().equals(data)


def test_register_arrow_replace_and_sources(env: cb.Environment) -> None:
    first = pa.table({"a": [1, 2]})
    env.register_arrow("t", first)
    with pytest.raises(cb.CatalogError, match="t"):
        env.register_arrow("t", first)
    env.register_arrow("t", pa.table({"b": ["x"]}), replace=True)
    assert env.sql("SELECT * FROM t").to_pylist() == [{"b": "x"}]
    batch = pa.record_batch({"a": [1, 2, 3]})
    env.register_arrow("from_batch", batch)
    env.register_arrow(
        "from_reader", pa.RecordBatchReader.from_batches(batch.schema, [batch, batch])
    )
    env.register_arrow("from_list", [batch])
    assert env.sql("SELECT COUNT(*) FROM from_batch").fetchone() == (3,)
    assert env.sql("SELECT SUM(a) FROM from_reader").fetchone() == (12,)
    assert env.sql("SELECT MAX(a) FROM from_list").fetchone() == (3,)


def test_sql_runs_every_statement_that_answers_with_rows(emp_env: cb.Environment) -> None:
    assert emp_env.sql("SHOW TABLES").to_pylist() == [{"table name": "emp"}]
    described = emp_env.sql("-- which columns\n  DESCRIBE emp").to_pylist()
    assert described[0]["name"] == "id"
    assert "TableScan" in emp_env.sql("EXPLAIN SELECT id FROM emp").fetchone()[0]
    assert emp_env.sql("/* c */ (SELECT 1 AS x)").to_pylist() == [{"x": 1}]
    # A statement that changes something is refused before it runs, naming it.
    for statement, word in [
        ("CREATE TABLE t2 (x INT) WITH ('connector' = 'memory')", "CREATE"),
        ("INSERT INTO emp (id) VALUES (9)", "INSERT"),
        ("SET 'execution.timeout' = '5 s'", "SET"),
    ]:
        with pytest.raises(cb.SqlValidationError, match=f"not {word}; use execute") as e:
            emp_env.sql(statement)
        assert (e.value.line, e.value.column) == (1, 1)
    assert emp_env.tables() == ["emp"]
    assert emp_env.sql("SELECT COUNT(*) AS n FROM emp").to_pylist() == [{"n": 3}]
    assert emp_env.config.get("execution.timeout") != "5 s"


def test_a_statement_that_changes_rows_shows_its_count(emp_env: cb.Environment) -> None:
    emp_env.execute("CREATE TABLE t (x INT) WITH ('connector' = 'memory')")
    inserted = emp_env.execute("INSERT INTO t VALUES (1), (2), (3)")
    assert repr(inserted) == "<Result insert rows_inserted=3>"
    assert inserted.to_pylist() == [{"rows_inserted": 3}]  # still readable after repr
    assert (
        repr(emp_env.execute("UPDATE t SET x = 0 WHERE x > 1")) == "<Result update rows_updated=2>"
    )
    assert repr(emp_env.execute("DELETE FROM t WHERE x = 5")) == "<Result delete rows_deleted=0>"
    fetched = emp_env.execute("DELETE FROM t")
    assert fetched.fetchone() == (3,)
    assert repr(fetched) == "<Result delete columns=['rows_deleted']>"  # its rows were read
    assert repr(emp_env.execute("SELECT x FROM t")) == "<Result query columns=['x']>"
