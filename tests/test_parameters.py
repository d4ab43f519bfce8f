"""Query parameters (``?``): values of every Python type bound as typed literals, the same rows as
DuckDB's own prepared statements on every backend, the plan of the value written as a literal,
errors at the placeholder, the types ``validate`` infers, and injection strings that stay
values on every backend."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from collections.abc import Iterator
from typing import Any

import duckdb
import pyarrow as pa
import pytest

import calcite_bridge as cb

DATA = pa.table(
    {
        "id": pa.array([1, 2, 3, 4, 5], pa.int32()),
        "s": pa.array(["a", "it's", None, "x' OR '1'='1", "ü\\"], pa.string()),
        "d": pa.array(
            [
                dt.date(2024, 1, 1),
                dt.date(2024, 2, 1),
                None,
                dt.date(2024, 3, 1),
                dt.date(1999, 12, 31),
            ]
        ),
        "ts": pa.array(
            [
                dt.datetime(2024, 1, 1, 10),
                dt.datetime(2024, 2, 1, 10, 30),
                None,
                dt.datetime(2024, 3, 1),
                dt.datetime(2000, 1, 1),
            ],
            pa.timestamp("us"),
        ),
        "amount": pa.array(
            [
                decimal.Decimal("1.50"),
                decimal.Decimal("2.25"),
                None,
                decimal.Decimal("-3.00"),
                decimal.Decimal("0.01"),
            ],
            pa.decimal128(5, 2),
        ),
        "x": pa.array([0.5, 1.5, None, -2.0, 1e10], pa.float64()),
        "flag": pa.array([True, False, None, True, False]),
    }
)

BACKENDS = ("enumerable", "duckdb", "auto")

# (query, parameters): each runs with DuckDB's own parameters over the same table as the oracle.
QUERIES: list[tuple[str, list[Any]]] = [
    ("SELECT id, s FROM t WHERE id < ? AND s <> ? ORDER BY id", [4, "a"]),
    ("SELECT id FROM t WHERE s = ? ORDER BY id", ["it's"]),
    (
        "SELECT id FROM t WHERE d >= ? AND d < ? ORDER BY id",
        [dt.date(2024, 1, 15), dt.date(2024, 3, 1)],
    ),
    ("SELECT id FROM t WHERE ts > ? ORDER BY id", [dt.datetime(2024, 1, 1, 10, 0, 0, 1)]),
    ("SELECT id FROM t WHERE amount = ? ORDER BY id", [decimal.Decimal("2.25")]),
    ("SELECT id FROM t WHERE x BETWEEN ? AND ? ORDER BY id", [-1.0, 2]),
    ("SELECT id FROM t WHERE x < ? OR x > ? ORDER BY id", [-1e300, 2e9]),
    ("SELECT id FROM t WHERE flag = ? ORDER BY id", [True]),
    ("SELECT id, id * ? AS y FROM t WHERE id IN (?, ?, ?) ORDER BY id", [10, 1, 3, 5]),
    ("SELECT COUNT(*) AS n FROM t WHERE s LIKE ?", ["%'%"]),
    ("SELECT id FROM t WHERE s = ? OR ? ORDER BY id", ["a", False]),
    ("SELECT id FROM t WHERE id = ? ORDER BY id", [None]),
    ("SELECT id, COALESCE(s, ?) AS s FROM t ORDER BY id", ["none"]),
]


def _duckdb_rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    con = duckdb.connect()
    try:
        con.register("t", DATA)
        return [tuple(r) for r in con.execute(sql, params).fetchall()]
    finally:
        con.close()


def _remote_duckdb(env: cb.Environment, transport: str, backend: str) -> bool:
    """Whether this is DuckDB behind a gateway, whose clients have Calcite's engine alone: a
    query with parameters is refused there as one without them is."""
    if transport != "py4j" or backend != "duckdb":
        return False
    with pytest.raises(cb.UnsupportedError, match="duckdb backend runs in the Python process"):
        env.sql("SELECT ? AS v", [1], backend="duckdb")
    return True


@pytest.fixture
def penv(env: cb.Environment) -> cb.Environment:
    env.register_arrow("t", DATA)
    return env


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("sql", "params"), QUERIES, ids=[q for q, _ in QUERIES])
def test_a_query_with_parameters_gives_duckdbs_rows(
    penv: cb.Environment, transport: str, backend: str, sql: str, params: list[Any]
) -> None:
    if _remote_duckdb(penv, transport, backend):
        return
    got = penv.sql(sql, params, backend=backend).fetchall()
    assert got == _duckdb_rows(sql, params)


# (value, Arrow type of `SELECT ? AS v`): a value comes back as it went in, typed as a literal.
VALUES: list[tuple[Any, pa.DataType]] = [
    (True, pa.bool_()),
    (7, pa.int32()),
    (-(2**31), pa.int32()),
    (2**40, pa.int64()),
    (-(2**63), pa.int64()),
    (2**70, pa.decimal128(22, 0)),
    (1.25, pa.float64()),
    (-0.5, pa.float64()),
    (decimal.Decimal("-12.340"), pa.decimal128(5, 3)),
    ("héllo 漢 🙂", pa.string()),
    ("", pa.string()),
    (b"\x00\xffab", pa.binary()),
    (dt.date(2024, 2, 29), pa.date32()),
    (dt.time(23, 59, 58, 123000), pa.time32("ms")),
    (dt.datetime(2024, 1, 2, 3, 4, 5, 123456), pa.timestamp("us")),
    (dt.timedelta(days=400, hours=3, milliseconds=7), pa.duration("ms")),
    ([1, None, 3], pa.list_(pa.int32())),
    ({"k": 1.5, "j": None}, pa.map_(pa.string(), pa.float64())),
]


@pytest.mark.parametrize(("value", "arrow"), VALUES, ids=[repr(v) for v, _ in VALUES])
def test_a_value_comes_back_as_it_went_in(
    env: cb.Environment, value: Any, arrow: pa.DataType
) -> None:
    res = env.sql("SELECT ? AS v", [value], backend="enumerable")
    assert res.schema.field("v").type == arrow
    assert res.fetchall() == [(value if not isinstance(value, dict) else list(value.items()),)]


def test_a_tuple_is_a_row(env: cb.Environment) -> None:
    res = env.sql("SELECT ? AS r", [(1, "a", None)], backend="enumerable")
    assert list(res.fetchall()[0][0].values()) == [1, "a", None]


def test_a_datetime_with_a_zone_is_a_timestamp_ltz_at_its_instant(env: cb.Environment) -> None:
    env.config.set("table.local-time-zone", "America/New_York")
    stamp = dt.datetime(2024, 7, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    res = env.sql("SELECT ? AS v, CAST(? AS STRING) AS loc", [stamp, stamp], backend="enumerable")
    assert pa.types.is_timestamp(res.schema.field("v").type)
    assert res.schema.field("v").type.tz is not None
    v, local = res.fetchall()[0]
    assert v == stamp
    assert local == "2024-07-01 06:00:00"  # 10:00 UTC in New York


def test_nan_and_infinity_are_doubles(env: cb.Environment) -> None:
    nan, inf = env.sql("SELECT ? AS a, ? AS b", [float("nan"), float("-inf")]).fetchall()[0]
    assert math.isnan(nan)
    assert inf == float("-inf")


def test_an_insert_binds_its_values(env: cb.Environment) -> None:
    env.execute("CREATE TABLE m (i INT, s STRING, d DATE) WITH ('connector' = 'memory')")
    assert env.execute(
        "INSERT INTO m VALUES (?, ?, ?)", [1, "a'b", dt.date(2024, 1, 1)]
    ).fetchall() == [(1,)]
    env.execute("INSERT INTO m VALUES (?, ?, ?)", [2, None, None])
    assert env.sql("SELECT * FROM m ORDER BY i").fetchall() == [
        (1, "a'b", dt.date(2024, 1, 1)),
        (2, None, None),
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_int_goes_into_a_tinyint_or_smallint_column_when_it_fits(
    env: cb.Environment, transport: str, backend: str
) -> None:
    # As a driver's parameter: the literal text needs a CAST, as in Flink.
    if _remote_duckdb(env, transport, backend):
        return
    env.execute("CREATE TABLE n8 (t TINYINT, s SMALLINT, f FLOAT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO n8 VALUES (?, ?, ?)", [-128, 32767, 1.5])
    env.execute("INSERT INTO n8 SELECT ?, ?, ?", [127, -32768, None])
    env.execute("INSERT INTO n8 (t, s) VALUES (?, ?), (?, NULL)", [5, 6, 7])
    sql = "SELECT t, s, f FROM n8 WHERE t = ? OR s = ? ORDER BY t"
    assert env.sql(sql, [5, 32767], backend=backend).fetchall() == [
        (-128, 32767, 1.5),
        (5, 6, None),
    ]
    assert env.sql("SELECT t FROM n8 WHERE t IN (?, ?)", [7, 500], backend=backend).fetchall() == [
        (7,)
    ]
    for sql, values, message in (
        ("INSERT INTO n8 VALUES (?, ?, ?)", [128, 1, 1.0], r"Parameter 1 \(128\) is out of"),
        ("INSERT INTO n8 (s) VALUES (?)", [-32769], r"Parameter 1 \(-32769\) is out of"),
        ("INSERT INTO n8 (f) VALUES (?)", [1e300], r"Parameter 1 \(1\.0E\+?300\) is out of"),
    ):
        with pytest.raises(cb.SqlValidationError, match=message) as info:
            env.execute(sql, values)
        assert (info.value.line, info.value.column) == (1, sql.index("?") + 1), sql
    with pytest.raises(cb.SqlValidationError) as info:
        env.execute("INSERT INTO n8 (t) VALUES (?)", [-129])
    assert "the TINYINT column 't' of 'n8': a TINYINT holds -128 to 127" in info.value.message
    with pytest.raises(cb.SqlValidationError, match="the query gives INT NOT NULL"):
        env.execute("INSERT INTO n8 (t) VALUES (5)")  # the literal, as in Flink


def test_a_time_keeps_its_milliseconds_and_refuses_a_finer_fraction(env: cb.Environment) -> None:
    t = dt.time(1, 2, 3, 456000)
    assert env.sql("SELECT ?, TYPEOF(?)", [t, t]).fetchall() == [(t, "TIME(3) NOT NULL")]
    whole = dt.time(1, 2, 3)
    assert env.sql("SELECT ?, TYPEOF(?)", [whole, whole]).fetchall() == [
        (whole, "TIME(0) NOT NULL")
    ]
    with pytest.raises(cb.SqlValidationError, match="has a fraction of a millisecond") as info:
        env.sql("SELECT 1 AS x, ?", [dt.time(1, 2, 3, 456789)])
    assert (info.value.line, info.value.column) == (1, 16)
    assert "01:02:03.456789" in info.value.message


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_negative_zero_keeps_its_sign(env: cb.Environment, transport: str, backend: str) -> None:
    if _remote_duckdb(env, transport, backend):
        return
    env.register_arrow("single", pa.table({"k": [1]}))
    rows = env.sql("SELECT ?, ? * 2, k FROM single", [-0.0, -0.0], backend=backend).fetchall()
    assert [math.copysign(1.0, v) for v in rows[0][:2]] == [-1.0, -1.0]
    # a constant of the text has no sign, as in Flink
    (zero,) = env.sql("SELECT CAST(-0.0 AS DOUBLE) FROM single", backend=backend).fetchone()
    assert math.copysign(1.0, zero) == 1.0


def test_a_negative_zero_inserted_keeps_its_sign(env: cb.Environment) -> None:
    """A -0.0 bound into an INSERT is stored -0.0, as Flink stores a -0.0 it read
    (tests/flink/scripts/text_fractions.sql): its CAST to STRING is '-0.0' and 1 / d -Infinity.
    A literal cannot hold it (the value became 0.0). A constant of the text has no sign, as in
    Flink: INSERT ... SELECT -0.0e0 stores 0.0."""
    env.execute("CREATE TABLE nzi (k INT, d DOUBLE) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO nzi VALUES (1, ?)", [-0.0])
    env.execute("INSERT INTO nzi SELECT 2, CAST(? AS DOUBLE)", [-0.0])
    env.execute("INSERT INTO nzi VALUES (3, ?), (4, ?), (5, ?)", [0.0, -0.0, None])
    env.execute("INSERT INTO nzi SELECT 6, -0.0e0")
    env.execute("INSERT INTO nzi VALUES (7, CAST('-0.0' AS DOUBLE))")
    env.execute("INSERT INTO nzi SELECT 8, ? + 0e0", [-0.0])  # -0.0 + 0.0 is 0.0
    from calcite_bridge import dbapi

    with dbapi.connect(env) as con:  # one INSERT of all the rows
        con.cursor().executemany(
            "INSERT INTO nzi VALUES (?, ?)", [(9, -0.0), (10, 1.5), (11, -0.0)]
        )
    rows = env.sql("SELECT k, d, CAST(d AS STRING), 1 / d FROM nzi ORDER BY k").fetchall()
    negative = {1, 2, 4, 9, 11}
    assert [r[0] for r in rows] == list(range(1, 12))
    for k, d, text, q in rows:
        if k == 5:
            assert (d, text, q) == (None, None, None)
        elif k == 10:
            assert (d, text) == (1.5, "1.5")
        else:
            sign = -1.0 if k in negative else 1.0
            assert (math.copysign(1.0, d), text, q) == (
                sign,
                "-0.0" if sign < 0 else "0.0",
                sign * math.inf,
            ), k


def test_update_and_delete_bind_their_values(env: cb.Environment) -> None:
    env.execute("CREATE TABLE u (i INT, s STRING) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO u VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    env.execute("UPDATE u SET s = ? WHERE i >= ?", ["x'; DROP TABLE u; --", 2])
    env.execute("DELETE FROM u WHERE s = ?", ["a"])
    assert env.sql("SELECT i, s FROM u ORDER BY i").fetchall() == [
        (2, "x'; DROP TABLE u; --"),
        (3, "x'; DROP TABLE u; --"),
    ]


def test_explain_with_values_shows_the_plan_that_runs_with_them(
    penv: cb.Environment, transport: str
) -> None:
    # on enumerable, and on auto where the source takes the whole filter
    for backend in ("enumerable", "auto"):
        bound = penv.explain("SELECT id FROM t WHERE id < ? AND s = ?", [3, "a"], backend=backend)
        literal = penv.explain("SELECT id FROM t WHERE id < 3 AND s = 'a'", backend=backend)
        assert bound == literal
    if transport != "py4j":  # a gateway's clients have Calcite's engine alone
        # DuckDB filters the Arrow table in place with the values: the plan that runs keeps the
        # placeholders in its SQL, and its scan reads the table whole
        plan = penv.explain("SELECT id FROM t WHERE id < ? AND s = ?", [3, "a"], backend="duckdb")
        first, scan = plan.splitlines()
        assert first.startswith('DuckDB(sql=[SELECT "id" FROM "scan_0" WHERE "id" < ')
        assert first.endswith(' AND "s" = CAST(? AS VARCHAR)])'), first
        assert scan.strip() == "scan_0: BridgeTableScan(table=[[t]], project=[[id, s]])"
    # the Arrow table takes the filter: the bound value is pushed into its scan
    assert "filter=[and(<(id, 3), =(s, 'a'))]" in penv.explain(
        "SELECT id FROM t WHERE id < ? AND s = ?", [3, "a"], backend="enumerable"
    )


def test_without_values_explain_shows_the_placeholders(penv: cb.Environment) -> None:
    assert "?0" in penv.explain("SELECT id FROM t WHERE id < ?", backend="enumerable")


def test_validate_reports_the_types_inferred_for_the_placeholders(penv: cb.Environment) -> None:
    schema = penv.validate("SELECT id FROM t WHERE id < ? AND s = ?\n  AND d > ?")
    assert schema.names == ["id"]
    found = json.loads(schema.metadata[b"parameters"])
    assert [(p["index"], p["type"], p["line"], p["column"]) for p in found] == [
        (1, "INT", 1, 29),
        (2, "STRING", 1, 39),
        (3, "DATE", 2, 11),
    ]
    assert penv.parameter_types("SELECT id FROM t WHERE id < ?")[0]["type"] == "INT"
    assert penv.validate("SELECT id FROM t").metadata is None or b"parameters" not in (
        penv.validate("SELECT id FROM t").metadata or {}
    )


# (sql, params, message, line, column)
ERRORS: list[tuple[str, list[Any] | None, str, int, int]] = [
    ("SELECT id FROM t WHERE id = ?", [], "has 1 parameter (?) but 0 values", 1, 29),
    ("SELECT id FROM t WHERE id = ?", None, "has 1 parameter (?) but 0 values", 1, 29),
    ("SELECT id FROM t WHERE id = ? AND s = ?", [1], "2 parameters (?) but 1 value was", 1, 39),
    ("SELECT id FROM t\nWHERE id = ?", [1, 2], "1 parameter (?) but 2 values", 2, 12),
    ("SELECT id FROM t", [1], "0 parameters (?) but 1 value", 1, 1),
    (
        "SELECT id FROM t WHERE id = ?",
        [object()],
        "Parameter 1 cannot be bound: a value of Python type object",
        1,
        29,
    ),
    (
        "SELECT id FROM t WHERE s = ? AND id = ?",
        ["a", {1, 2}],
        "Parameter 2 cannot be bound: a value of Python type set",
        1,
        39,
    ),
    ("SELECT id FROM t WHERE id = ?", [[]], "an empty list has no element type", 1, 29),
    ("SELECT id FROM t WHERE id = ?", [{}], "an empty dict", 1, 29),
    ("SELECT id FROM t WHERE id = ?", [10**40], "more than 38 digits", 1, 29),
    ("SELECT id FROM t WHERE id = ?", [decimal.Decimal("NaN")], "not a number", 1, 29),
    (
        "SELECT id FROM t WHERE id = ?",
        [dt.timedelta(microseconds=1)],
        "fraction of a millisecond",
        1,
        29,
    ),
    ("SELECT id FROM t WHERE s = ?", ["\ud800"], "lone surrogate", 1, 28),
    # a count of rows is a whole number of 0 or more (it failed inside the plan or the scan)
    ("SELECT id FROM t LIMIT ?", [None], "must be a whole number of 0 or more, not NULL", 1, 24),
    ("SELECT id FROM t LIMIT ?", [-1], "must be a whole number of 0 or more, not -1", 1, 24),
    ("SELECT id FROM t LIMIT ?", [1.5], "not the number 1.5", 1, 24),
    ("SELECT id FROM t LIMIT ?", ["2"], "not the string '2'", 1, 24),
    ("SELECT id FROM t LIMIT 1 OFFSET ?", [2**63], "Parameter 1 is a count of rows", 1, 33),
    ("SELECT id FROM t ORDER BY id\nFETCH FIRST ? ROWS ONLY", [-2], "not -2", 2, 13),
]


@pytest.mark.parametrize(("sql", "params", "message", "line", "column"), ERRORS)
def test_a_wrong_count_or_an_unbindable_value_is_an_error_at_the_placeholder(
    penv: cb.Environment, sql: str, params: list[Any] | None, message: str, line: int, column: int
) -> None:
    with pytest.raises(cb.SqlValidationError) as info:
        penv.sql(sql, params)
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (line, column)


def test_parameters_are_refused_in_ddl_at_the_placeholder(env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError) as info:
        env.execute("CREATE VIEW v AS SELECT ? AS a", [1])
    assert "allowed in queries, INSERT, UPDATE, DELETE and EXPLAIN only" in info.value.message
    assert (info.value.line, info.value.column) == (1, 25)


def test_params_must_be_a_sequence(env: cb.Environment) -> None:
    with pytest.raises(TypeError):
        env.sql("SELECT ? AS a", {"a": 1})  # type: ignore[arg-type]


def test_the_older_positional_arguments_still_work(penv: cb.Environment) -> None:
    assert penv.sql("SELECT id FROM t WHERE id = 1", "enumerable").fetchall() == [(1,)]
    assert penv.sql("SELECT id FROM t WHERE id = 1", "enumerable", 60).fetchall() == [(1,)]
    assert penv.explain("SELECT id FROM t", "json").startswith("{")
    # explain(sql, format, backend): the backend is kept, not taken for a format
    grouped = "SELECT id, COUNT(*) AS n FROM t GROUP BY id"
    assert penv.explain(grouped, "text", "enumerable").startswith("EnumerableAggregate")
    assert penv.explain("SELECT id FROM t", "json", "enumerable").startswith("{")
    assert penv.execute("SELECT id FROM t WHERE id = 1", 60).fetchall() == [(1,)]


# The usual injection strings: each stays one value, whatever the backend's SQL looks like.
INJECTIONS = [
    "x' OR '1'='1",
    "' OR 1=1 --",
    "'; DROP TABLE t; --",
    "a'); DROP TABLE t; --",
    "' UNION SELECT s FROM t --",
    '" OR ""="',
    "\\' OR 1=1 --",
    "\\",
    "admin'--",
    "1; SELECT * FROM t",
    "' OR 'a'='a' /*",
    "*/ OR 1=1 --",
    "$$; DROP TABLE t; $$",
    "?",
    "'?'",
    "`s`",
    "%' OR '%'='",
    "x\n' OR 1=1 --",
    "x\x00' OR 1=1",
    "\u02bc OR 1=1 --",  # a modifier-letter apostrophe
    "' || (SELECT s FROM t LIMIT 1) || '",
    "'' OR ''='",
    "ü\\",
]


def _injection_table() -> pa.Table:
    return pa.table({"id": pa.array(range(len(INJECTIONS)), pa.int32()), "s": INJECTIONS})


def _check_injections(env: cb.Environment, backend: str) -> None:
    env.register_arrow("inj", _injection_table(), replace=True)
    for i, text in enumerate(INJECTIONS):
        rows = env.sql("SELECT id, ? AS v FROM inj WHERE s = ?", [text, text], backend=backend)
        assert rows.fetchall() == [(i, text)], (backend, text)
        assert env.sql(
            "SELECT COUNT(*) AS n FROM inj WHERE s <> ?", [text], backend=backend
        ).fetchall() == [(len(INJECTIONS) - 1,)]
    assert env.tables() == ["inj"]
    assert env.sql("SELECT COUNT(*) AS n FROM inj").fetchall() == [(len(INJECTIONS),)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_injection_strings_stay_values(env: cb.Environment, transport: str, backend: str) -> None:
    if _remote_duckdb(env, transport, backend):
        return
    _check_injections(env, backend)


def test_injection_strings_stay_values_in_an_insert(env: cb.Environment) -> None:
    env.execute("CREATE TABLE w (s STRING) WITH ('connector' = 'memory')")
    for text in INJECTIONS:
        env.execute("INSERT INTO w VALUES (?)", [text])
    assert sorted(r[0] for r in env.sql("SELECT s FROM w").fetchall()) == sorted(INJECTIONS)


@pytest.fixture(scope="module")
def spark_env() -> Iterator[cb.Environment]:
    pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")
    from calcite_bridge import _spark

    env = cb.connect(backend="spark", spark=_spark.local_session())
    try:
        yield env
    finally:
        env.close()


def test_injection_strings_stay_values_on_spark(spark_env: cb.Environment) -> None:
    _check_injections(spark_env, "spark")


def test_without_values_explain_on_spark_shows_the_placeholders(
    spark_env: cb.Environment,
) -> None:
    # As on the other backends: the plan with its markers, no "0 values were given".
    spark_env.register_arrow("t", DATA, replace=True)
    plan = spark_env.explain("SELECT id FROM t WHERE id < ? AND s = ?", backend="spark")
    assert plan.startswith("Spark(sql=[")
    first = plan.splitlines()[0]
    assert first.count("?") == 2, plan
    assert "Spark's plan: given when values are bound to the placeholders" in plan
    # with values, Spark's own plan of the bound statement follows
    bound = spark_env.explain("SELECT id FROM t WHERE id < ? AND s = ?", [3, "a"], backend="spark")
    assert "Spark's plan:\n== Physical Plan ==" in bound


@pytest.mark.parametrize(("sql", "params"), QUERIES[:8], ids=[q for q, _ in QUERIES[:8]])
def test_a_query_with_parameters_on_spark_gives_duckdbs_rows(
    spark_env: cb.Environment, sql: str, params: list[Any]
) -> None:
    spark_env.register_arrow("t", DATA, replace=True)
    assert spark_env.sql(sql, params).fetchall() == _duckdb_rows(sql, params)


# --- one plan for every value ---------------------------------------------------------------------
# A query with parameters is planned once per text and types of its values; each execution binds
# its values into that plan (Calcite's DataContext, DuckDB's prepared statement). The rows are the
# literal text's, and a filter a source takes gets the bound value at each execution.


def _literal(value: Any) -> str:  # noqa: PLR0911
    """``value`` written as the SQL literal the literal text has."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | decimal.Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value) if "e" in repr(value) else repr(value) + "E0"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, dt.datetime):
        return f"TIMESTAMP '{value.isoformat(sep=' ', timespec='milliseconds')}'"
    if isinstance(value, dt.date):
        return f"DATE '{value.isoformat()}'"
    raise AssertionError(value)


def _written(sql: str, params: list[Any]) -> str:
    """``sql`` with each ``?`` replaced by its value written as a literal."""
    parts = sql.split("?")
    assert len(parts) == len(params) + 1
    return parts[0] + "".join(_literal(v) + p for v, p in zip(params, parts[1:], strict=True))


def _hits(env: cb.Environment) -> int | None:
    """The plan cache's hits, where the transport tells them (in this process)."""
    hits = getattr(env._session, "plan_cache_hits", None)
    return None if hits is None else int(hits())


# (query, a list of values for each execution): the values of one query share their types.
REUSED: list[tuple[str, list[list[Any]]]] = [
    ("SELECT id, s FROM t WHERE id BETWEEN ? AND ? + 1 ORDER BY id", [[k, k] for k in range(6)]),
    ("SELECT id FROM t WHERE s = ? ORDER BY id", [["a"], ["x"], ["b"]]),
    ("SELECT id, ? * x AS y FROM t WHERE x > ? ORDER BY id", [[k, -k] for k in range(1, 5)]),
    (
        "SELECT id FROM t WHERE d >= ? ORDER BY id",
        [[dt.date(2024, m, 1)] for m in (1, 2, 3, 4)],
    ),
    (
        "SELECT id FROM t WHERE ts < ? ORDER BY id",
        [[dt.datetime(2024, m, 1, 10, 15)] for m in (1, 2, 3)],
    ),
    (
        "SELECT id, amount + ? AS a FROM t WHERE amount > ? ORDER BY id",
        [[decimal.Decimal(f"{k}.25"), decimal.Decimal(f"-{k}.50")] for k in range(1, 5)],
    ),
    ("SELECT id FROM t WHERE flag = ? ORDER BY id", [[True], [False], [True]]),
    ("SELECT COUNT(*) AS n, SUM(id + ?) AS m FROM t WHERE x < ?", [[k, k * 0.5] for k in range(4)]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("sql", "runs"), REUSED, ids=[q for q, _ in REUSED])
def test_new_values_reuse_the_plan_and_give_the_literal_texts_rows(
    penv: cb.Environment, transport: str, backend: str, sql: str, runs: list[list[Any]]
) -> None:
    if _remote_duckdb(penv, transport, backend):
        return
    for n, params in enumerate(runs):
        before = _hits(penv)
        got = penv.sql(sql, params, backend=backend)
        if before is not None:  # the first run plans; each one after it runs that plan
            assert _hits(penv) == before + (n > 0), (backend, params)
        literal = penv.sql(_written(sql, params), backend=backend)
        assert got.schema == literal.schema, params
        assert got.fetchall() == literal.fetchall(), params


@pytest.mark.parametrize(("sql", "runs"), REUSED, ids=[q for q, _ in REUSED])
def test_new_values_reuse_the_plan_on_spark_through_its_parameter_markers(
    spark_env: cb.Environment, sql: str, runs: list[list[Any]]
) -> None:
    # Spark's SQL keeps a ? for each parameter, bound by spark.sql(text, args): one plan for
    # every value. A TIMESTAMP value is written into the text instead (pyspark binds a datetime
    # in the Python process's own zone), so each of its values plans again.
    spark_env.register_arrow("t", DATA, replace=True)
    kept = not any(isinstance(v, dt.datetime) for v in runs[0])
    for n, params in enumerate(runs):
        before = _hits(spark_env)
        got = spark_env.sql(sql, params)
        assert before is not None
        assert _hits(spark_env) == before + (kept and n > 0), params
        literal = spark_env.sql(_written(sql, params))
        assert got.schema == literal.schema, params
        assert got.fetchall() == literal.fetchall(), params


def test_null_values_are_bound_as_literals_and_give_the_right_rows(
    penv: cb.Environment, transport: str
) -> None:
    sql = "SELECT id FROM t WHERE s = ? OR ? IS NULL ORDER BY id"
    for backend in ("enumerable", "auto") if transport == "py4j" else BACKENDS:
        for params in (["a", 1], [None, 1], ["x", None], [None, None], ["it's", 2]):
            got = penv.sql(sql, params, backend=backend).fetchall()
            assert got == penv.sql(_written(sql, params), backend=backend).fetchall(), params


def test_a_value_of_another_type_gets_its_own_plan(penv: cb.Environment, transport: str) -> None:
    backends = ("enumerable", "auto") if transport == "py4j" else BACKENDS
    for backend in backends:
        for value in (1, 2, 2**40, 2**70, decimal.Decimal("1.5"), 1.5, 3, 2.5, "abc", True):
            sql = "SELECT ? AS v, id FROM t WHERE id < 3 ORDER BY id"
            got = penv.sql(sql, [value], backend=backend)
            literal = penv.sql(_written(sql, [value]), backend=backend)
            assert got.schema == literal.schema, (backend, value)
            assert got.fetchall() == literal.fetchall() == [(value, 1), (value, 2)]


def test_a_catalog_change_between_executions_plans_again(env: cb.Environment) -> None:
    sql = "SELECT id, v FROM n WHERE id > ? ORDER BY id"
    for backend in ("enumerable", "auto") + (("duckdb",) if _hits(env) is not None else ()):
        env.register_arrow("n", pa.table({"id": [1, 2, 3], "v": ["a", "b", "c"]}), replace=True)
        assert env.sql(sql, [1], backend=backend).fetchall() == [(2, "b"), (3, "c")]
        assert env.sql(sql, [2], backend=backend).fetchall() == [(3, "c")]
        # replaced with a table of another type of v: the plan of the old one is not reused
        env.register_arrow("n", pa.table({"id": [1, 5], "v": [1.5, 2.5]}), replace=True)
        before = _hits(env)
        got = env.sql(sql, [1], backend=backend)
        assert got.schema.field("v").type == pa.float64()
        assert got.fetchall() == [(5, 2.5)]
        assert before is None or _hits(env) == before
        env.execute("CREATE TABLE n2 (a INT) WITH ('connector' = 'memory')")
        assert env.sql(sql, [0], backend=backend).fetchall() == [(1, 1.5), (5, 2.5)]
        env.execute("DROP TABLE n2")


def test_a_bound_filter_still_reaches_the_source(env: cb.Environment, transport: str) -> None:
    from tests.helpers.tables import Probe

    table = pa.table({"id": pa.array(range(100), pa.int64()), "v": [i * 0.5 for i in range(100)]})
    sql = "SELECT id, v FROM p WHERE id BETWEEN ? AND ? + 2 AND v >= 0 ORDER BY id"
    backends = ("enumerable", "auto") if transport == "py4j" else BACKENDS
    for backend in backends:
        probe = Probe(table)
        env.register_source("p", probe, replace=True)
        for k in (10, 40, 97):
            probe.reset()
            got = env.sql(sql, [k, k], backend=backend).fetchall()
            assert got == [(i, i * 0.5) for i in range(k, min(k + 3, 100))], (backend, k)
            assert len(probe.scans) == 1
            pushed = sorted(str(f) for f in probe.scans[0].filters)
            # the filter planned with the statement, and the bound ones offered as it runs
            assert pushed == sorted([">=(v, 0.0)", f">=(id, {k})", f"<=(id, {k + 2})"]), backend
        # EXPLAIN with the values shows them pushed into the scan
        plan = env.explain(sql, [7, 7], backend=backend)
        assert ">=(id, 7)" in plan and "<=(id, 9)" in plan, plan


def test_a_bound_filter_reaches_a_parquet_file(
    env: cb.Environment, transport: str, tmp_path: Any
) -> None:
    import pyarrow.parquet as pq

    path = tmp_path / "ev.parquet"
    pq.write_table(pa.table({"id": pa.array(range(1000), pa.int64())}), path, row_group_size=100)
    env.execute(
        "CREATE TABLE ev (id BIGINT) WITH ("
        f"'connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')"
    )
    sql = "SELECT id FROM ev WHERE id >= ? AND id < ? ORDER BY id"
    for backend in ("enumerable", "auto"):
        for lo in (0, 250, 990):
            got = [r[0] for r in env.sql(sql, [lo, lo + 5], backend=backend).fetchall()]
            assert got == list(range(lo, min(lo + 5, 1000))), (backend, lo)
    plan = env.explain(sql, [250, 255], backend="enumerable")
    assert ">=(id, 250)" in plan and "<(id, 255)" in plan, plan
    # Under auto in this process DuckDB reads the file itself: its prepared statement applies
    # the filter with the values, and the scan is the same for every value
    plan = env.explain(sql, [250, 255], backend="auto")
    if transport == "py4j":  # a gateway's clients have Calcite's engine alone
        assert ">=(id, 250)" in plan and "<(id, 255)" in plan, plan
    else:
        assert plan.startswith("DuckDB(") and "?" in plan and "filter=" not in plan, plan


def test_duckdb_reads_parquet_files_with_each_new_value_through_one_view(
    env: cb.Environment, transport: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    # DuckDB reads a filesystem table's Parquet files itself, and its prepared statement applies
    # the filter with each run's values: the view over the files has one text for every value
    # (so it stays registered between runs), and each run's rows are the literal text's.
    import pyarrow.parquet as pq

    from calcite_bridge import _duckdb

    ids = pa.array([None if i % 97 == 0 else i for i in range(8000)], pa.int64())
    for f in range(4):
        part = pa.table({"id": ids.slice(f * 2000, 2000)})
        pq.write_table(part, tmp_path / f"part-{f}.parquet", row_group_size=250)
    env.execute(
        "CREATE TABLE fs (id BIGINT) WITH ("
        f"'connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'parquet')"
    )
    if _remote_duckdb(env, transport, "duckdb"):
        return
    seen = _duckdb_scans(monkeypatch)
    created: list[str] = []
    original = _duckdb._register

    def register(state: Any, scans: list[Any]) -> None:
        created.extend(n for n, _ in enumerate(scans) if f"scan_{n}" not in state.views)
        original(state, scans)

    monkeypatch.setattr(_duckdb, "_register", register)
    sql = "SELECT id FROM fs WHERE id >= ? AND id < ? ORDER BY id"
    runs = [(100, 110), (0, 8000), (7990, 9000), (2990, 3010), (-5, 3)]
    for backend in ("duckdb", "auto"):
        texts = set()
        created.clear()
        for lo, hi in runs:
            got = [r[0] for r in env.sql(sql, [lo, hi], backend=backend).fetchall()]
            assert got == [i for i in range(max(lo, 0), min(hi, 8000)) if i % 97], (backend, lo)
            assert len(seen[-1]) == 1 and isinstance(seen[-1][0], _duckdb.Query), (backend, lo)
            texts.add(seen[-1][0].sql)
        assert len(texts) == 1 and "WHERE" not in texts.pop(), backend
        assert len(created) <= 1, (backend, created)  # made once, kept between runs
        for lo, hi in runs:
            literal = env.sql(_written(sql, [lo, hi]), backend=backend).fetchall()
            assert env.sql(sql, [lo, hi], backend=backend).fetchall() == literal, (backend, lo)
        assert env.sql(sql, [None, 5], backend=backend).fetchall() == []


def test_a_limit_or_offset_count_is_bound_as_a_literal(penv: cb.Environment) -> None:
    sql = "SELECT id FROM t WHERE id > ? ORDER BY id LIMIT ? OFFSET ?"
    for backend in ("enumerable", "auto"):
        for params, ids in (
            ([0, 2, 0], [1, 2]),
            ([1, 3, 1], [3, 4, 5]),
            ([0, 1, 4], [5]),
            ([0, decimal.Decimal("2"), 0], [1, 2]),
            ([0, 2**40, 3], [4, 5]),
        ):
            got = [r[0] for r in penv.sql(sql, params, backend=backend).fetchall()]
            assert got == ids, (backend, params)


BIG = pa.table({"id": pa.array(range(1000), pa.int64()), "v": [i * 0.5 for i in range(1000)]})
LOOKUP = "SELECT id, v FROM big WHERE id BETWEEN ? AND ? + 2"


def _lookup_rows(k: int | None) -> list[tuple[int, float]]:
    """The rows of ``LOOKUP`` with ``[k, k]``, computed here."""
    if k is None:
        return []
    return [(i, i * 0.5) for i in range(max(k, 0), min(k + 3, BIG.num_rows))]


def _duckdb_scans(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """The scans handed to DuckDB, one list per statement it runs, recorded as they run."""
    from calcite_bridge import _duckdb

    seen: list[list[Any]] = []
    original = _duckdb.run

    def run(sql: str, scans: list[Any], *rest: Any, **kw: Any) -> Any:
        seen.append(list(scans))
        return original(sql, scans, *rest, **kw)

    monkeypatch.setattr(_duckdb, "run", run)
    return seen


def test_duckdb_filters_an_arrow_table_in_place_for_each_new_value(
    env: cb.Environment, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The table stays registered in DuckDB as it is, and DuckDB's prepared statement applies the
    # filter with each run's values: no filtered copy is asked of the source at each run.
    env.register_arrow("big", BIG)
    if _remote_duckdb(env, transport, "duckdb"):
        return
    seen = _duckdb_scans(monkeypatch)
    values = (0, 500, 997, 998, -5, 2000, 41)
    for k in values:
        got = env.sql(LOOKUP, [k, k], backend="duckdb").fetchall()
        assert got == _lookup_rows(k), k
    assert len(seen) == len(values)
    assert all(len(s) == 1 and s[0].num_rows == BIG.num_rows for s in seen), seen
    for k in (*values, None):
        literal = env.sql(_written(LOOKUP, [k, k]), backend="duckdb").fetchall()
        assert env.sql(LOOKUP, [k, k], backend="duckdb").fetchall() == literal == _lookup_rows(k)
    # EXPLAIN with the values shows that plan: DuckDB's SQL keeps the placeholders, the scan
    # reads the whole table
    plan = env.explain(LOOKUP, [7, 7], backend="duckdb")
    assert plan.startswith("DuckDB(") and "?" in plan and "filter=" not in plan, plan


def test_auto_returns_the_sources_batches_when_it_takes_the_bound_filter(
    env: cb.Environment, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As for the text with the values written in: the source takes the whole filter, and its
    # own batches are the result, without DuckDB; EXPLAIN with the values shows that plan.
    env.register_arrow("big", BIG)
    in_process = transport != "py4j"  # a gateway's clients have Calcite's engine alone
    seen = _duckdb_scans(monkeypatch)
    before = _hits(env)
    for n, k in enumerate((0, 500, 997, -5, 2000, 41)):
        got = env.sql(LOOKUP, [k, k], backend="auto")
        assert got.fetchall() == _lookup_rows(k), k
        assert before is None or _hits(env) == before + n
    assert seen == []
    plan = env.explain(LOOKUP, [7, 7], backend="auto")
    assert plan == env.explain(_written(LOOKUP, [7, 7]), backend="auto")
    assert "DuckDB" not in plan and ">=(id, 7)" in plan and "<=(id, 9)" in plan, plan
    # A filter the source cannot take is left to DuckDB, and EXPLAIN names DuckDB
    sql = LOOKUP + " AND MOD(id, ?) = 0"
    for k in (10, 600):
        got = env.sql(sql, [k, k, 2], backend="auto").fetchall()
        assert got == [r for r in _lookup_rows(k) if r[0] % 2 == 0], k
    assert len(seen) == (2 if in_process else 0)
    plan = env.explain(sql, [10, 10, 2], backend="auto")
    assert plan.startswith("DuckDB(") == in_process, plan


@pytest.mark.parametrize("source", ("arrow", "user"))
@pytest.mark.parametrize("backend", BACKENDS)
def test_two_threads_running_one_statement_with_their_own_values_get_their_own_rows(
    env: cb.Environment, transport: str, backend: str, source: str
) -> None:
    # An Arrow table's answer is kept in the JVM per shape; a user source is asked by each
    # thread with its own values.
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from tests.helpers.tables import Probe

    if _remote_duckdb(env, transport, backend):
        return
    if source == "user":
        env.register_source("big", Probe(BIG))
    else:
        env.register_arrow("big", BIG)
    start = threading.Barrier(2)

    def work(first: int) -> list[int]:
        start.wait()
        wrong = []
        for k in range(first, first + 40):
            if env.sql(LOOKUP, [k, k], backend=backend).fetchall() != _lookup_rows(k):
                wrong.append(k)
        return wrong

    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(work, (0, 500))) == [[], []]


def test_a_user_source_sees_each_new_value_offered_and_scanned(
    env: cb.Environment, transport: str
) -> None:
    # A source that implements only apply_filters (Probe overrides it) is asked at every run,
    # with that run's values, and its scan gets the filters it accepted with those values.
    from tests.helpers.tables import Probe

    for backend in ("enumerable", "auto"):
        probe = Probe(BIG)
        env.register_source("big", probe, replace=True)
        for k in (10, 500, 998, -5):
            probe.reset()
            assert env.sql(LOOKUP, [k, k], backend=backend).fetchall() == _lookup_rows(k)
            bound = sorted([f">=(id, {k})", f"<=(id, {k + 2})"])
            assert [sorted(str(f) for f in call) for call in probe.calls] == [bound], backend
            assert [sorted(str(f) for f in s.filters) for s in probe.scans] == [bound], backend
        probe.reset()
        assert env.sql(LOOKUP, [None, None], backend=backend).fetchall() == []


def test_an_arrow_table_answers_a_new_value_as_it_answered_its_shape(
    env: cb.Environment, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An Arrow table source's own apply_filters depends on the filters' shape, not their values:
    # the answer to the first offer of a shape answers the next values (each literal still checked
    # to make an Arrow scalar), and each scan still gets the bound values.
    from calcite_bridge.sources import ArrowTableSource, ScanRequest, arrow

    asked: list[list[str]] = []
    split = arrow.split_filters

    def counted(filters: list[Any], schema: pa.Schema, nested: bool = True) -> Any:
        asked.append([str(f) for f in filters])
        return split(filters, schema, nested)

    monkeypatch.setattr(arrow, "split_filters", counted)
    scans: list[ScanRequest] = []

    class Recorded(ArrowTableSource):
        def scan(self, request: ScanRequest) -> pa.RecordBatchReader:
            scans.append(request)
            return super().scan(request)

    env.register_source("big", Recorded(BIG))
    for backend in ("enumerable", "auto"):
        for k in (0, 500, 997, -5, 2000, 41):
            scans.clear()
            assert env.sql(LOOKUP, [k, k], backend=backend).fetchall() == _lookup_rows(k)
            assert [sorted(str(f) for f in s.filters) for s in scans] == [
                sorted([f">=(id, {k})", f"<=(id, {k + 2})"])
            ], (backend, k)
    assert asked == [[">=(id, 0)", "<=(id, 2)"]]  # the first offer only
    for backend in ("enumerable", "auto"):
        assert env.sql(LOOKUP, [None, 3], backend=backend).fetchall() == []


def _offers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The offers of filters that reach a source's Python side, recorded as they come."""
    from calcite_bridge.sources import _calls

    seen: list[str] = []
    original = _calls.SourceCalls.apply_filters

    def apply_filters(self: Any, filters_json: str) -> str:
        seen.append(self.name)
        return original(self, filters_json)

    monkeypatch.setattr(_calls.SourceCalls, "apply_filters", apply_filters)
    return seen


# (query, a list of values for each execution) over ``DATA``: one shape of bound filter each,
# answered by the Arrow table's scan for every value type the JVM vouches for
KEPT_SHAPES: list[tuple[str, list[list[Any]]]] = [
    ("SELECT id FROM t WHERE id >= ? AND id < ? ORDER BY id", [[1, 3], [2, 5], [0, 0], [4, 9]]),
    ("SELECT id FROM t WHERE s < ? OR s = ? ORDER BY id", [["b", "x"], ["ü", "z"], ["'", "a"]]),
    (
        "SELECT id FROM t WHERE d >= ? ORDER BY id",
        [[dt.date(2024, 1, 15)], [dt.date(1, 1, 1)], [dt.date(9999, 12, 31)]],
    ),
    ("SELECT id FROM t WHERE x < ? ORDER BY id", [[1.0], [-1e300], [2e10], [1.5e-7]]),
    ("SELECT id FROM t WHERE NOT (flag = ?) ORDER BY id", [[True], [False]]),
]


@pytest.mark.parametrize(("sql", "runs"), KEPT_SHAPES, ids=[q for q, _ in KEPT_SHAPES])
def test_a_shape_answered_once_is_not_asked_again_of_an_arrow_table(
    penv: cb.Environment,
    transport: str,
    monkeypatch: pytest.MonkeyPatch,
    sql: str,
    runs: list[list[Any]],
) -> None:
    # The JVM keeps an Arrow table's answer per shape of offer: a new value is answered there,
    # without a call into Python (a gateway's JVM asks Python, which answers from its own kept
    # answer). The rows are DuckDB's for the same values, and the literal text's.
    offers = _offers(monkeypatch)
    for backend in ("enumerable", "auto"):
        offers.clear()
        for params in runs:
            got = penv.sql(sql, params, backend=backend).fetchall()
            assert got == _duckdb_rows(sql, params), (backend, params)
            assert got == penv.sql(_written(sql, params), backend=backend).fetchall(), params
        # again, without the literal texts, whose planning offers their filters
        offers.clear()
        for params in runs:
            penv.sql(sql, params, backend=backend).fetchall()
        assert len(offers) == (len(runs) if transport == "py4j" else 0), backend


def test_a_user_source_is_asked_at_every_run_and_an_arrow_table_once_per_shape(
    env: cb.Environment, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.helpers.tables import Probe

    offers = _offers(monkeypatch)
    probe = Probe(BIG)
    env.register_source("ub", probe)
    env.register_arrow("big", BIG)
    values = (3, 700, 3, 998, -5)
    for backend in ("enumerable", "auto"):
        offers.clear()
        probe.reset()
        for k in values:
            for table in ("ub", "big"):
                got = env.sql(LOOKUP.replace("big", table), [k, k], backend=backend).fetchall()
                assert got == _lookup_rows(k), (backend, table, k)
        # the user source saw every run's values; the Arrow table was asked for the shape once,
        # on the first backend (its plan on the second is another plan of the same shape), in
        # this process; a gateway's JVM asks at every run
        assert offers.count("ub") == len(values), backend
        kept = (1 if backend == "enumerable" else 0) if transport != "py4j" else len(values)
        assert offers.count("big") == kept, backend
        bound = [sorted([f">=(id, {k})", f"<=(id, {k + 2})"]) for k in values]
        assert [sorted(str(f) for f in call) for call in probe.calls] == bound, backend
        # a NULL value is bound as a literal (no plan kept for it): no rows, and the next new
        # value is still answered with its own rows
        assert env.sql(LOOKUP, [None, 1], backend=backend).fetchall() == []
        assert env.sql(LOOKUP, [42, 42], backend=backend).fetchall() == _lookup_rows(42)


# --- plain values cross as they are -----------------------------------------------------------
# None, bool, int of 64 bits, float and str reach the JVM as Java scalars, not JSON; the types
# of a plan are kept per signature of the values' types, and a pushed comparison computes its
# bound literal from the value. Each must bind as the literal text does, at the edges of INT and
# BIGINT too; any other value (a larger int, a NumPy scalar, a Decimal) is sent as before.

EDGE_IDS = [
    -(2**63),
    -(2**31) - 1,
    -(2**31),
    -(2**31) + 3,
    -5,
    0,
    7,
    2**31 - 11,
    2**31 - 1,
    2**31,
    2**40,
    2**63 - 11,
    2**63 - 1,
]
EDGES = pa.table({"id": pa.array(EDGE_IDS, pa.int64()), "n": pa.array(range(len(EDGE_IDS)))})
RANGE = "SELECT id FROM e WHERE id BETWEEN ? AND ? + 10"


@pytest.mark.parametrize("backend", BACKENDS)
def test_integers_at_the_edges_of_int_and_bigint_bind_as_their_literals(
    env: cb.Environment, transport: str, backend: str
) -> None:
    if _remote_duckdb(env, transport, backend):
        return
    env.register_arrow("e", EDGES)
    for k in (-(2**63), -(2**31) - 1, -(2**31), -6, 0, 2**31 - 11, 2**31, 2**40, 2**63 - 11):
        got = sorted(r[0] for r in env.sql(RANGE, [k, k], backend=backend).fetchall())
        assert got == [i for i in EDGE_IDS if k <= i <= k + 10], (backend, k)
        literal = env.sql(_written(RANGE, [k, k]), backend=backend).fetchall()
        assert got == sorted(r[0] for r in literal)
        if backend != "duckdb":  # DuckDB filters the table in place with its own parameters
            plan = env.explain(RANGE, [k, k], backend=backend)
            assert f">=(id, {k})" in plan and f"<=(id, {k + 10})" in plan, (backend, k, plan)


def test_a_run_with_a_null_among_the_values_gives_the_literal_texts_rows(
    env: cb.Environment,
) -> None:
    env.register_arrow("e", EDGES)
    for backend in ("enumerable", "auto"):
        for params in ([0, 0], [None, 0], [0, None], [7, 7], [None, None]):
            got = sorted(env.sql(RANGE, params, backend=backend).fetchall())
            literal = env.sql(_written(RANGE, params), backend=backend).fetchall()
            assert got == sorted(literal), params


# (query, a list of values for each execution, whether a row of DATA matches the values)
PLAIN: list[tuple[str, list[list[Any]], Any]] = [
    (
        "SELECT id FROM t WHERE s = ? OR s = ? ORDER BY id",
        [["a", "it's"], ["ü\\", ""], ["x' OR '1'='1", "a"], ["😀", "ü\\"], ["b", "a"]],
        lambda row, p: row["s"] in p,
    ),
    (
        "SELECT id FROM t WHERE x > ? AND flag = ? ORDER BY id",
        [[-0.0, True], [0.0, False], [1e-300, True], [-1e300, False], [0.75, True]],
        lambda row, p: (
            None not in (row["x"], row["flag"]) and row["x"] > p[0] and row["flag"] == p[1]
        ),
    ),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("sql", "runs", "matches"), PLAIN, ids=[q for q, _, _ in PLAIN])
def test_strings_floats_and_booleans_bind_as_their_literals(
    penv: cb.Environment,
    transport: str,
    backend: str,
    sql: str,
    runs: list[list[Any]],
    matches: Any,
) -> None:
    if _remote_duckdb(penv, transport, backend):
        return
    for params in runs:
        got = penv.sql(sql, params, backend=backend).fetchall()
        assert got == [(r["id"],) for r in DATA.to_pylist() if matches(r, params)], params
        assert got == penv.sql(_written(sql, params), backend=backend).fetchall(), params


def test_a_value_of_another_python_type_at_the_same_place_plans_again_or_fails_clearly(
    env: cb.Environment, transport: str
) -> None:
    import numpy as np

    env.register_arrow("e", EDGES)
    sql = "SELECT id FROM e WHERE id >= ? AND n < 8 ORDER BY id"
    values: list[Any] = [
        3,
        2**70,
        np.int64(-5),
        decimal.Decimal("-5"),
        -5.5,
        np.float64(-5.5),
        np.float32(-4.5),
        True,
        np.bool_(True),
        "-5",
        np.str_("-5"),
        3,
    ]
    for backend in ("enumerable", "auto") if transport == "py4j" else BACKENDS:
        for value in values:
            shown = value.item() if isinstance(value, np.generic) else value
            try:
                literal = env.sql(_written(sql, [shown]), backend=backend).fetchall()
            except cb.Error as e:  # no such comparison: the value fails as the literal does
                with pytest.raises(type(e)):
                    env.sql(sql, [value], backend=backend).fetchall()
                continue
            got = env.sql(sql, [value], backend=backend).fetchall()
            assert got == literal, (backend, value)
        before = _hits(env)
        expected = [(i,) for n, i in enumerate(EDGE_IDS) if n < 8 and i >= 4]
        assert env.sql(sql, [4], backend=backend).fetchall() == expected
        assert before is None or _hits(env) == before + 1  # the plan of the first int values


def test_a_filesystem_tables_answer_is_kept_per_shape_and_each_value_still_prunes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    # The JVM keeps a filesystem table's answer per shape of offer, as an Arrow table's: a new
    # value is not offered to Python again, and the scan still skips the row groups outside
    # each run's range (counted as the Parquet reader reads them), with the literal text's rows.
    import pyarrow.parquet as pq

    from calcite_bridge.sources import parquet_footers

    read: list[int] = []
    real_open = parquet_footers.ParquetFooter.open

    def spy(self: parquet_footers.ParquetFooter) -> Any:
        file = real_open(self)
        real = file.reader.read_row_groups

        class Reader:
            def read_row_groups(self, groups: list[int], **kw: Any) -> Any:
                read.append(len(groups))
                return real(groups, **kw)

        class File:
            reader = Reader()

        return File()

    monkeypatch.setattr(parquet_footers.ParquetFooter, "open", spy)
    offers = _offers(monkeypatch)
    ids = pa.array(range(8000), pa.int64())
    for f in range(4):
        part = pa.table({"id": ids.slice(f * 2000, 2000)})
        pq.write_table(part, tmp_path / f"part-{f}.parquet", row_group_size=250)
    env = cb.connect()
    try:
        env.execute(
            "CREATE TABLE fs (id BIGINT) WITH ("
            f"'connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'parquet')"
        )
        sql = "SELECT id FROM fs WHERE id >= ? AND id < ? ORDER BY id"
        runs = [[100, 110], [0, 8000], [7990, 9000], [2990, 3010], [-5, 3]]
        groups: dict[tuple[int, int], int] = {}
        for backend in ("enumerable", "auto"):
            env.sql(sql, [1, 2], backend=backend).fetchall()  # the shape's first offer
            for lo, hi in runs:
                offers.clear()
                read.clear()
                got = [r[0] for r in env.sql(sql, [lo, hi], backend=backend).fetchall()]
                assert got == list(range(max(lo, 0), min(hi, 8000))), (backend, lo, hi)
                assert offers == [], (backend, lo, hi)  # answered in the JVM
                if backend == "enumerable":
                    groups[lo, hi] = sum(read)
                literal = env.sql(_written(sql, [lo, hi]), backend=backend).fetchall()
                assert [r[0] for r in literal] == got
        # 32 row groups of 250 ids: a run reads those its range meets, not the others
        assert groups == {
            (100, 110): 1,
            (0, 8000): 32,
            (7990, 9000): 1,
            (2990, 3010): 2,
            (-5, 3): 1,
        }
    finally:
        env.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_string_cast_to_char_n_is_padded_or_cut_on_every_backend(
    penv: cb.Environment, transport: str, backend: str
) -> None:
    # DuckDB and Spark have no CHAR(n): a plan kept for strings of one length pads them there.
    if _remote_duckdb(penv, transport, backend):
        return
    sql = "SELECT CAST(? AS CHAR(3)) || '|' AS v FROM t WHERE id = ?"
    for value, want in (("abcde", "abc|"), ("a", "a  |"), ("b", "b  |"), ("", "   |")):
        for _ in range(2):  # planned, then the kept plan
            assert penv.sql(sql, [value, 1], backend=backend).fetchall() == [(want,)], value
    assert penv.sql(sql, [None, 1], backend=backend).fetchall() == [(None,)]


OLD_DAYS = [
    dt.date(1, 1, 1),
    dt.date(1500, 3, 1),
    dt.date(1582, 10, 4),
    dt.date(1582, 10, 15),
    dt.date(2024, 2, 29),
    None,
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_date_or_timestamp_before_1582_is_the_same_day_on_every_run(
    env: cb.Environment, transport: str, backend: str
) -> None:
    # A value offered to the source again for each run of a kept plan went through Java's
    # hybrid Julian calendar: 1500-03-01 became 1500-02-20, and no row matched.
    if _remote_duckdb(env, transport, backend):
        return
    stamps = [None if d is None else dt.datetime(d.year, d.month, d.day, 12) for d in OLD_DAYS]
    env.register_arrow(
        "past",
        pa.table(
            {
                "k": range(len(OLD_DAYS)),
                "d": pa.array(OLD_DAYS, pa.date32()),
                "ts": pa.array(stamps, pa.timestamp("us")),
            }
        ),
    )
    for k, (day, stamp) in enumerate(zip(OLD_DAYS, stamps, strict=True)):
        if day is None:
            continue
        for _ in range(2):  # planned, then the kept plan with the value bound again
            got = env.sql("SELECT k FROM past WHERE d = ?", [day], backend=backend).fetchall()
            assert got == [(k,)], (day, got)
            got = env.sql("SELECT k FROM past WHERE ts = ?", [stamp], backend=backend).fetchall()
            assert got == [(k,)], (stamp, got)


def test_a_date_or_timestamp_before_1582_on_spark(spark_env: cb.Environment) -> None:
    # A date went to Spark as a Python value, turned into a java.sql.Date, which failed before
    # the year 1000 or so (IllegalArgumentException) and moved by days before 1582.
    stamps = [None if d is None else dt.datetime(d.year, d.month, d.day, 12) for d in OLD_DAYS]
    spark_env.register_arrow(
        "past",
        pa.table(
            {
                "k": range(len(OLD_DAYS)),
                "d": pa.array(OLD_DAYS, pa.date32()),
                "ts": pa.array(stamps, pa.timestamp("us")),
            }
        ),
        replace=True,
    )
    for k, (day, stamp) in enumerate(zip(OLD_DAYS, stamps, strict=True)):
        if day is None:
            continue
        assert spark_env.sql("SELECT ?", [day]).fetchall() == [(day,)]
        assert spark_env.sql("SELECT ?", [stamp]).fetchall() == [(stamp,)]
        assert spark_env.sql("SELECT ?, ?", [day, stamp]).fetchall() == [(day, stamp)]
        for _ in range(2):
            got = spark_env.sql("SELECT k FROM past WHERE d = ? AND ts = ?", [day, stamp])
            assert got.fetchall() == [(k,)], day


def test_numpy_arrays_and_pandas_missing_values_bind(env: cb.Environment) -> None:
    import numpy as np
    import pandas as pd

    # an array of NumPy failed with NumPy's own ValueError, and pd.NaT as an internal error
    got = env.sql(
        "SELECT ?, CARDINALITY(?), ? IS NULL, ? IS NULL, COALESCE(?, 7)",
        [np.array([1, 2]), np.array([[1.5], [2.5]]), pd.NaT, pd.NA, pd.NA],
    ).fetchall()
    assert got == [([1, 2], 2, True, True, 7)]
    env.execute("CREATE TABLE w (t TIMESTAMP(6), n BIGINT) WITH ('connector' = 'memory')")
    frame = pd.DataFrame({"t": [pd.Timestamp("2024-01-01 10:00"), pd.NaT], "n": [1, 2]})
    for row in frame.itertuples(index=False):
        env.execute("INSERT INTO w VALUES (?, ?)", list(row))
    assert env.sql("SELECT t, n FROM w ORDER BY n").fetchall() == [
        (dt.datetime(2024, 1, 1, 10), 1),
        (None, 2),
    ]
