"""The ``spark`` backend on Apache Spark ``local[1]``: each query's rows against Calcite's
engine (the reference) over the same data, the refused constructs, and the Parquet plan in
which Spark pushes our nested filter into its reader.

One SparkSession serves the whole module (starting one takes seconds to tens of seconds)."""

from __future__ import annotations

import datetime as dt
import decimal
import os
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb
from calcite_bridge.sources import SupportsFilterPushDown, TableSource
from calcite_bridge.sources.arrow import split_filters

pyspark = pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")

ZONE = "America/New_York"  # a zone off UTC: LTZ and TIMESTAMP values must not be confused

DATA = pa.table(
    {
        "id": pa.array([1, 2, 3, 4], pa.int32()),
        "tags": pa.array([[1, 8], [2], [], None], pa.list_(pa.int32())),
        "items": pa.array(
            [[{"x": 7, "y": "p"}], [], None, [{"x": None, "y": "q"}, {"x": 9, "y": "r"}]],
            pa.list_(pa.struct([("x", pa.int32()), ("y", pa.string())])),
        ),
        "order": pa.array([3, None, 1, 2], pa.int32()),
        "a.b": pa.array(["x", "y", None, "it's \\ ü"], pa.string()),
        "A": pa.array([10, 20, 30, 40], pa.int32()),
        "a": pa.array([-1, -2, -3, None], pa.int32()),
        "ts": pa.array(
            [
                dt.datetime(2024, 3, 10, 1, 30),
                None,
                dt.datetime(2024, 1, 1),
                dt.datetime(2024, 7, 4, 23, 59, 59),
            ],
            pa.timestamp("us"),
        ),
        "amount": pa.array(
            [decimal.Decimal("1.99"), decimal.Decimal("-1.95"), None, decimal.Decimal("0.05")],
            pa.decimal128(5, 2),
        ),
        "pt": pa.array(
            [{"a": 1, "b": "u"}, {"a": 2, "b": "v"}, None, {"a": 1, "b": "u"}],
            pa.struct([("a", pa.int32()), ("b", pa.string())]),
        ),
    }
)

USERS = pa.table(
    {
        "id": pa.array([1, 2, 3, 4, 5], pa.int64()),
        "user": pa.array(
            [
                {"name": "ann", "age": 25, "city": "Oslo"},
                {"name": "bob", "age": 35, "city": "Rome"},
                {"name": "cid", "age": None, "city": "Lima"},
                None,
                {"name": "dee", "age": 29, "city": "Kyiv"},
            ],
            pa.struct([("name", pa.string()), ("age", pa.int32()), ("city", pa.string())]),
        ),
        "note": pa.array(["a", "b", "c", "d", "e"]),
    }
)

TIMINGS: dict[str, float] = {}


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """The module's one ``local[1]`` session, made as ``cb.connect(backend="spark")`` makes
    it; its start is measured."""
    from calcite_bridge import _spark

    started = time.perf_counter()
    session = _spark.local_session()
    TIMINGS["session start s"] = time.perf_counter() - started
    yield session


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("spark_users")
    pq.write_table(USERS, os.path.join(path, "part-0.parquet"))
    return str(path)


# CSV and JSON files read by Spark's own readers, each planting a value a reader that differs
# from ours would change: "" against an empty field, NA (not NULL), a delimiter and a doubled
# quote inside quotes, a NULL in every column; JSON keys in any order, missing, extra or null.
CSV_FILES = {
    "a b+c%41ü.csv": (
        'id,name,amt,d,note\n1,"",1.50,2024-01-02,x\n2,,2.25,,\n3,NA,,2024-03-04,NULL\n'
        '4,"NA","3",,"a;b"\n5,"a,b",-1,2024-05-06,"q""x"\n'
    ),
    "b.csv": "id,name,amt,d,note\n6,ü,7.00,2024-12-31,nan\n\n7,Zoë,,,\n",
}
SEMICOLON_CSV = 'id;name\n1;"a;b"\n2;\n3;c,d\n'
JSON_LINES = {
    "a.json": (
        '{"id": 1, "user": {"name": "ann", "age": 25}, "tags": [1, 2], "ok": true}\n'
        '{"user": {"age": 35, "name": "bob"}, "id": 2, "tags": [], "ok": false, "x": 9}\n'
        '{"id": 3, "user": null, "tags": null}\n'
    ),
    "b.json": '{"id": 4, "user": {"name": null, "age": null}, "tags": [null, 3], "ok": null}\n',
}
FILE_METADATA = (
    "fname STRING METADATA FROM 'file.name' VIRTUAL, "
    "fpath STRING METADATA FROM 'file.path' VIRTUAL, "
    "fsize BIGINT METADATA FROM 'file.size' VIRTUAL, "
    "mtime TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time' VIRTUAL"
)


@pytest.fixture(scope="module")
def text_folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("spark text files")
    for sub, files in (
        ("csv", CSV_FILES),
        ("json", JSON_LINES),
        ("semi", {"s.csv": SEMICOLON_CSV}),
    ):
        os.makedirs(root / sub)
        for name, text in files.items():
            (root / sub / name).write_text(text, encoding="utf-8")
    # the same CSV data with its columns in another order: read by name by our reader
    # a name Spark's reader would read as a glob
    os.makedirs(root / "globbed")
    (root / "globbed" / "w[1].csv").write_text("id,name\n1,a\n", encoding="utf-8")
    (root / "globbed" / "w1.csv").write_text("id,name\n2,b\n", encoding="utf-8")
    os.makedirs(root / "reordered")
    (root / "reordered" / "r.csv").write_text("name,id\nx,1\n,2\n", encoding="utf-8")
    return str(root)


def _ddl(folder: str) -> str:
    return (
        "CREATE TABLE users (id BIGINT, `user` ROW<name STRING, age INT, city STRING>, "
        f"note STRING) WITH ('connector' = 'filesystem', 'path' = '{folder}', "
        "'format' = 'parquet')"
    )


def _meta_ddl(folder: str) -> str:
    return (
        f"CREATE TABLE users_meta (id BIGINT, note STRING, {FILE_METADATA}) WITH "
        f"('connector' = 'filesystem', 'path' = '{folder}', 'format' = 'parquet')"
    )


def _text_ddl(folder: str) -> list[str]:
    def table(name: str, columns: str, sub: str, fmt: str, extra: str = "") -> str:
        return (
            f"CREATE TABLE {name} ({columns}, {FILE_METADATA}) WITH ('connector' = "
            f"'filesystem', 'path' = '{folder}/{sub}', 'format' = '{fmt}'{extra})"
        )

    return [
        table("c", "id INT, name STRING, amt DECIMAL(5, 2), d DATE, note STRING", "csv", "csv"),
        table(
            "j",
            "id BIGINT, `user` ROW<name STRING, age INT>, tags ARRAY<INT>, ok BOOLEAN",
            "json",
            "json",
        ),
        table("semi", "id INT, name STRING", "semi", "csv", ", 'csv.field-delimiter' = ';'"),
        table("reordered", "id INT, name STRING", "reordered", "csv"),
        table("globbed", "id INT, name STRING", "globbed", "csv"),
    ]


def _environment(backend: str, spark: Any, folder: str, text: str) -> cb.Environment:
    config = {
        "table.local-time-zone": ZONE,
        "table.column-expansion-strategy": "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
    }
    env = (
        cb.connect(backend=backend, spark=spark, config=config)
        if backend == "spark"
        else cb.connect(backend=backend, config=config)
    )
    env.register_arrow("t", DATA)
    env.execute(_ddl(folder))
    env.execute(_meta_ddl(folder))
    for ddl in _text_ddl(text):
        env.execute(ddl)
    return env


@pytest.fixture(scope="module")
def envs(
    spark: Any, folder: str, text_folder: str
) -> Iterator[tuple[cb.Environment, cb.Environment]]:
    on_spark = _environment("spark", spark, folder, text_folder)
    reference = _environment("enumerable", spark, folder, text_folder)
    yield on_spark, reference
    on_spark.close()
    reference.close()


# Each case plants a value that a wrong spelling would change (named in the comment).
CASES = {
    # Spark's [] is 0-based and fails out of range: [1] is the first element, [3] and a computed
    # [0] NULL (a constant index below 1 is refused while validating, as in Flink).
    "subscript": "SELECT id, tags[1], tags[2], tags[3], tags[id - id] FROM t",
    "subscript_computed_index": "SELECT id, tags[id - 1] FROM t",
    # Spark's / divides as DOUBLE: 5/2 is 2, -5/2 is -2.
    "integer_division": "SELECT 5 / 2, -5 / 2, id / 2, `A` / id FROM t",
    "average_of_integers": "SELECT AVG(id), AVG(`A`) FROM t",
    # a field of an array element (CALCITE-6344 names it a column "items[1]")
    "field_of_element": "SELECT id, items[1].x, items[1].y, items[2].x FROM t",
    "row_equality": "SELECT id, pt = ROW(1, 'u'), pt.a FROM t WHERE pt = ROW(1, 'u')",
    "row_cast": "SELECT CAST(ROW(1, 'a') AS ROW<a INT, b STRING>) = ROW(1, 'a')",
    # ROW(...) is never NULL, as in Flink: the row of two NULLs (id 2) is (NULL, NULL), not NULL
    "row_of_nulls": "SELECT id, CAST(ROW(`order`, `order` + 1) AS STRING) FROM t",
    # the cast's STRUCT keeps its field names' case: `aB` and `Cd` are found by name
    "field_of_cast_row": (
        "SELECT r.aB, r.`Cd`, r FROM "
        "(SELECT CAST(ROW(id, `a.b`) AS ROW<aB INT, `Cd` STRING>) AS r FROM t) x"
    ),
    # a TIMESTAMP is a wall-clock time; an LTZ an instant shown in the session's zone
    "timestamp_vs_ltz": (
        "SELECT ts, CAST(ts AS TIMESTAMP_LTZ(6)), "
        "CAST(CAST(ts AS TIMESTAMP_LTZ(6)) AS TIMESTAMP(6)) FROM t"
    ),
    "timestamp_literal": "SELECT TIMESTAMP '2024-03-10 02:30:00', DATE '2024-03-10'",
    "floor_timestamp": (
        "SELECT FLOOR(ts TO DAY), FLOOR(ts TO HOUR), FLOOR(ts TO MONTH), FLOOR(ts TO YEAR) FROM t"
    ),
    # a scale-down cast rounds half up in the reference (1.99 -> 2.0), as in Flink and Spark
    "decimal_scale_down": (
        "SELECT amount, CAST(amount AS DECIMAL(4, 1)), CAST(amount AS DECIMAL(3, 0)), "
        "CAST(1.99 AS DECIMAL(3, 1)) FROM t"
    ),
    "decimal_to_int": "SELECT CAST(amount AS INT) FROM t",
    # NULLs sort first ascending, last descending, as in the reference
    "order_nulls_asc": "SELECT id, `order` FROM t ORDER BY `order`",
    "order_nulls_desc": "SELECT id, `a` FROM t ORDER BY `a` DESC",
    "order_limit": "SELECT id FROM t ORDER BY `order` DESC LIMIT 2",
    "correlated_exists": (
        "SELECT id FROM t x WHERE EXISTS (SELECT 1 FROM t y WHERE y.`A` = x.id * 10 + 10)"
    ),
    "correlated_not_exists": (
        "SELECT id FROM t x WHERE NOT EXISTS (SELECT 1 FROM t y WHERE y.`a` = -x.id)"
    ),
    # `order` is a keyword, `a.b` holds a dot, `A` and `a` differ only in case
    "awkward_names": "SELECT `order`, `a.b`, `A`, `a`, `A` + `a` FROM t",
    "string_literals": "SELECT id, `a.b` = 'it''s \\ ü', 'it''s \\ ü' FROM t",
    "group_by": (
        "SELECT `a.b` IS NULL, COUNT(*), SUM(`A`), MIN(id), MAX(ts) FROM t GROUP BY `a.b` IS NULL"
    ),
    "join": (
        "SELECT x.id, y.id FROM t x JOIN t y ON x.`order` = y.id LEFT JOIN t z ON z.`a` = x.`order`"
    ),
    "window": "SELECT id, ROW_NUMBER() OVER (ORDER BY `A` DESC), SUM(id) OVER () FROM t",
    "set_operations": "SELECT id FROM t UNION SELECT `order` FROM t EXCEPT SELECT 3",
    "like_and_case": (
        "SELECT id, `a.b` LIKE 'i%', CASE WHEN id > 2 THEN 'big' ELSE 'small' END, "
        "UPPER(`a.b`), CHAR_LENGTH(`a.b`) FROM t"
    ),
    "nested_filter_on_parquet": "SELECT id, `user`.name FROM users WHERE `user`.age < 30",
    "parquet_group_by": (
        "SELECT `user`.city, COUNT(*) FROM users WHERE id > 1 GROUP BY `user`.city"
    ),
    # CSV and JSON files read by Spark's own readers, the filters written into their SQL
    "csv_all": "SELECT * FROM c",
    "csv_filters": "SELECT id, name FROM c WHERE id > 2 AND name IS NOT NULL",
    "csv_na_is_a_string": "SELECT id FROM c WHERE name = 'NA'",
    "csv_empty_string": "SELECT id, CHAR_LENGTH(name) FROM c WHERE name = ''",
    "csv_decimal_and_date": ("SELECT id, amt, d FROM c WHERE amt > 1.5 OR d >= DATE '2024-03-01'"),
    "csv_delimiter": "SELECT id, name FROM semi",
    "csv_columns_reordered": "SELECT id, name FROM reordered",
    "csv_file_named_like_a_glob": "SELECT id, name, fname FROM globbed",
    "json_all": "SELECT * FROM j",
    "json_nested_filter": "SELECT id, `user`.name FROM j WHERE `user`.age < 30",
    "json_boolean_and_array": "SELECT id, tags[2], ok FROM j WHERE ok IS NOT NULL",
    # file metadata columns from Spark's _metadata: the names hold a space, + and %
    "csv_file_metadata": "SELECT id, fname, fpath, fsize, mtime FROM c WHERE id > 4",
    "json_file_metadata": "SELECT fname, COUNT(*), MIN(fsize), MAX(mtime) FROM j GROUP BY fname",
    "parquet_file_metadata": "SELECT id, fname, fpath, fsize, mtime FROM users_meta",
}


def _rows(env: cb.Environment, sql: str) -> tuple[pa.Schema, list[tuple[Any, ...]]]:
    table = env.sql(sql).to_arrow_table()
    return table.schema, [tuple(r.values()) for r in table.to_pylist()]


@pytest.mark.parametrize("name", list(CASES))
def test_same_rows_as_the_reference(envs: tuple[cb.Environment, cb.Environment], name: str) -> None:
    on_spark, reference = envs
    sql = CASES[name]
    want_schema, want = _rows(reference, sql)
    got_schema, got = _rows(on_spark, sql)
    assert got_schema == want_schema
    if "ORDER BY" in sql and "OVER" not in sql:
        assert got == want
    else:
        assert sorted(got, key=repr) == sorted(want, key=repr)


def test_planted_values(envs: tuple[cb.Environment, cb.Environment]) -> None:
    """The values the cases above plant, read off Spark's own answer."""
    on_spark, _ = envs
    rows = on_spark.sql("SELECT tags[1], tags[3], 5 / 2 FROM t WHERE id = 1").fetchall()
    assert rows == [(1, None, 2)]
    rows = on_spark.sql("SELECT items[1].x FROM t WHERE id = 1").fetchall()
    assert rows == [(7,)]
    rows = on_spark.sql("SELECT CAST(1.99 AS DECIMAL(3, 1))").fetchall()
    assert rows == [(decimal.Decimal("2.0"),)]
    rows = on_spark.sql("SELECT `A`, `a` FROM t WHERE id = 2").fetchall()
    assert rows == [(20, -2)]


@pytest.mark.parametrize(
    ("sql", "construct"),
    [
        ("SELECT x FROM UNNEST(ARRAY[1, 2]) AS u(x)", "UNNEST"),
        ("SELECT id FROM t WHERE `a.b` SIMILAR TO 'x'", "SIMILAR TO"),
        ("SELECT ELEMENT(tags) FROM t WHERE id = 2", "ELEMENT"),
        ("SELECT CAST(amount AS STRING) FROM t", "a cast of DECIMAL to a string"),
        ("SELECT CAST(CAST(id AS DOUBLE) AS DECIMAL(5, 1)) FROM t", "a cast of DOUBLE to DECIMAL"),
        ("SELECT CAST(CAST(id AS STRING) AS DECIMAL(5, 1)) FROM t", "a cast of VARCHAR to DECIMAL"),
        ("SELECT `a.b` LIKE 'a\\%' FROM t", "LIKE"),
        # named as written, not as the IS NULL its expansion holds
        ("SELECT CAST(pt AS STRING) FROM t", "a CAST of a ROW that may be NULL"),
        # named as written, never as a class of the plan (Uncollect, LogicalValues, ...)
        ("SELECT id, x FROM t CROSS JOIN UNNEST(tags) AS u(x)", "UNNEST"),
        ("SELECT id, x FROM t LEFT JOIN UNNEST(tags) AS u(x) ON TRUE", "UNNEST"),
        ("SELECT c FROM (VALUES ('ab'), ('cd')) AS v(c)", "a CHAR column of VALUES"),
        ("SELECT id, LAG(id) OVER (ORDER BY id) FROM t", "the window function LAG"),
        (
            "SELECT CAST(CAST(ts AS TIMESTAMP_LTZ(3)) AS DATE) FROM t",
            "a cast of TIMESTAMP_LTZ to DATE",
        ),
        ("SELECT CAST(`a.b` AS BYTES) FROM t", "an expression of type BYTES"),
        # Spark keeps the microseconds Flink cuts: the values would not fit the result's type
        ("SELECT CAST(ts AS TIMESTAMP(3)) FROM t", "a cast of TIMESTAMP(6) to TIMESTAMP(3)"),
    ],
)
def test_refused_constructs_are_named(
    envs: tuple[cb.Environment, cb.Environment], sql: str, construct: str
) -> None:
    on_spark, reference = envs
    reference.sql(sql).fetchall()  # the reference runs it
    with pytest.raises(cb.UnsupportedError, match="spark backend cannot run") as caught:
        on_spark.sql(sql).fetchall()
    message = str(caught.value).splitlines()[0]
    assert construct in message
    for internal in ("Logical", "Uncollect", "Correlate", "$", "_WITH_", "2147483647"):
        assert internal not in message


def test_auto_never_chooses_spark(spark: Any, folder: str) -> None:
    env = cb.connect(spark=spark, config={"table.local-time-zone": ZONE})
    env.register_arrow("t", DATA)
    plan = env.explain("SELECT id / 2 FROM t WHERE `A` > 10")
    assert "Spark" not in plan
    env.close()


def test_pushed_nested_filter_in_sparks_plan(envs: tuple[cb.Environment, cb.Environment]) -> None:
    """Over Parquet, Spark's reader takes the nested filter and reads only the fields used."""
    on_spark, _ = envs
    plan = on_spark.explain("SELECT id FROM users WHERE `user`.age < 30")
    assert "Spark(sql=" in plan
    pushed = next(line for line in plan.splitlines() if "PushedFilters" in line)
    assert "LessThan(user.age,30)" in pushed
    schema = next(line for line in plan.splitlines() if "ReadSchema" in line)
    assert "age" in schema
    assert "name" not in schema and "city" not in schema and "note" not in schema


def test_upload_limit(spark: Any) -> None:
    from calcite_bridge import _spark

    env = cb.connect(backend="spark", config={"table.local-time-zone": ZONE})
    env._session.set_spark(_spark.Runner(spark, upload_limit=8))  # type: ignore[attr-defined]
    env.register_arrow("t", DATA)
    with pytest.raises(cb.ResourceError, match="where the cluster can read it"):
        env.sql("SELECT id / 2 FROM t").fetchall()
    env.close()


def test_to_spark(envs: tuple[cb.Environment, cb.Environment]) -> None:
    on_spark, reference = envs
    sql = "SELECT id, `user`.name AS name FROM users WHERE `user`.age < 30"
    frame = on_spark.to_spark(sql)
    got = sorted(tuple(r) for r in frame.collect())
    assert got == sorted(reference.sql(sql).fetchall())


def test_report_timings(envs: tuple[cb.Environment, cb.Environment]) -> None:
    """Measures (never asserts) Spark's start and a warm query; printed with ``-s``."""
    on_spark, _ = envs
    started = time.perf_counter()
    on_spark.sql(CASES["group_by"]).fetchall()
    TIMINGS["warm query s"] = time.perf_counter() - started
    print({k: round(v, 3) for k, v in TIMINGS.items()})


def test_text_files_planted_values(envs: tuple[cb.Environment, cb.Environment]) -> None:
    """Spark's own CSV and JSON readers read the planted values as our reader does."""
    on_spark, _ = envs
    rows = on_spark.sql("SELECT id, name, note FROM c WHERE id IN (1, 2, 3, 4, 5)").fetchall()
    assert sorted(rows) == [
        (1, "", "x"),
        (2, None, None),
        (3, "NA", "NULL"),
        (4, "NA", "a;b"),
        (5, "a,b", 'q"x'),
    ]
    assert on_spark.sql("SELECT * FROM c").columns == ["id", "name", "amt", "d", "note"]
    rows = on_spark.sql("SELECT fname, fsize FROM c WHERE id = 1").fetchall()
    assert rows == [("a b+c%41ü.csv", len(CSV_FILES["a b+c%41ü.csv"].encode()))]
    rows = on_spark.sql("SELECT id, `user`.name, tags FROM j WHERE id = 2").fetchall()
    assert rows == [(2, "bob", [])]


@pytest.mark.parametrize(
    ("sql", "scan", "pushed"),
    [
        ("SELECT id FROM c WHERE id > 2 AND name IS NOT NULL", "Scan csv", "GreaterThan(id,2)"),
        ("SELECT fname FROM c WHERE id > 2", "Scan csv", "GreaterThan(id,2)"),
        ("SELECT `user`.name FROM j WHERE id > 1", "Scan json", "GreaterThan(id,1)"),
        ("SELECT fname FROM users_meta WHERE id = 3", "Scan parquet", "EqualTo(id,3)"),
    ],
)
def test_text_files_are_read_by_spark(
    envs: tuple[cb.Environment, cb.Environment], sql: str, scan: str, pushed: str
) -> None:
    """CSV, JSON and Parquet files (metadata columns too) are Spark's own relations, the
    filters pushed into its readers; the declared schema is given, never inferred."""
    on_spark, _ = envs
    plan = on_spark.explain(sql)
    assert scan in plan, plan
    line = next(x for x in plan.splitlines() if "PushedFilters" in x)
    assert pushed in line, plan


def test_nested_filter_over_json_is_sparks(envs: tuple[cb.Environment, cb.Environment]) -> None:
    """Spark's JSON reader takes top-level filters only: a nested one runs right above it."""
    on_spark, _ = envs
    plan = on_spark.explain("SELECT id FROM j WHERE `user`.age < 30")
    assert "Scan json" in plan, plan
    assert re.search(r"Condition : .*\.age < 30\)", plan), plan


def test_csv_files_spark_cannot_read_as_ours_are_uploaded(
    envs: tuple[cb.Environment, cb.Environment],
) -> None:
    """A header naming the columns in another order is read by name here, by position by
    Spark: such files are read here and uploaded."""
    on_spark, _ = envs
    assert "Scan csv" not in on_spark.explain("SELECT id, name FROM reordered")
    assert "Scan csv" not in on_spark.explain("SELECT id, name FROM globbed")
    assert sorted(on_spark.sql("SELECT id, name FROM reordered").fetchall()) == [
        (1, "x"),
        (2, None),
    ]


@pytest.mark.parametrize(
    ("fmt", "option", "message"),
    [
        ("csv", "'csv.field-delimiter' = '\\'", "a backslash"),
        ("json", "'json.max-depth' = '5000'", "deeper than 1000"),
    ],
)
def test_options_spark_cannot_honour_are_refused(
    envs: tuple[cb.Environment, cb.Environment],
    text_folder: str,
    fmt: str,
    option: str,
    message: str,
) -> None:
    on_spark, _ = envs
    ddl = (
        f"CREATE TABLE opt_{fmt} (id INT) WITH ('connector' = 'filesystem', "
        f"'path' = '{text_folder}/{fmt}', 'format' = '{fmt}', {option})"
    )
    on_spark.execute(ddl)
    with pytest.raises(cb.UnsupportedError, match=message):
        on_spark.sql(f"SELECT id FROM opt_{fmt}").fetchall()
    on_spark.execute(f"DROP TABLE opt_{fmt}")


class RecordingSource(TableSource, SupportsFilterPushDown):
    """A source of a table that takes the filters pyarrow applies, nested ones too, and writes
    each negotiation to a file: it runs in Spark's Python workers, another process."""

    def __init__(self, table: pa.Table, log: str) -> None:
        self.table = table
        self.log = log

    def schema(self) -> pa.Schema:
        return self.table.schema

    def supports_nested_filters(self) -> bool:
        return True

    def apply_filters(self, filters: list[Any]) -> Any:
        result = split_filters(filters, self.table.schema)
        with open(self.log, "a", encoding="utf-8") as fh:
            for f in result.accepted:
                fh.write(f"accepted {f}\n")
            for f in result.remaining:
                fh.write(f"remaining {f}\n")
        return result

    def scan(self, request: Any) -> pa.Table:
        import pyarrow.dataset as ds

        flt = None
        for f in request.filters:
            flt = f.to_pyarrow() if flt is None else flt & f.to_pyarrow()
        return ds.dataset(self.table).to_table(filter=flt)


def test_python_source_through_sparks_data_source_api(
    spark: Any, tmp_path: pytest.TempPathFactory
) -> None:
    """A Python source reaches Spark as a Python data source; the nested filter Spark pushes
    (``('user', 'age')``) is offered to the source's own filter negotiation, which accepts it."""
    from pyspark import cloudpickle

    # Spark's Python workers cannot import this test module (pytest put its folder on the
    # path): its source class travels by value, as a class of a user's __main__ does.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    log = str(tmp_path) + "/filters.log"  # type: ignore[operator]
    config = {"table.local-time-zone": ZONE}
    on_spark = cb.connect(backend="spark", spark=spark, config=config)
    reference = cb.connect(backend="enumerable", config=config)
    for env in (on_spark, reference):
        env.register_source("u", RecordingSource(USERS, log))
    sql = "SELECT id, `user`.name FROM u WHERE `user`.age < 30"
    plan = on_spark.explain(sql)
    assert "BatchScan calcite_bridge_" in plan, plan
    pushed = next(line for line in plan.splitlines() if "PushedFilters" in line)
    assert "LessThan(user.age,30)" in pushed, plan
    got = sorted(on_spark.sql(sql).fetchall())
    assert got == sorted(reference.sql(sql).fetchall()) == [(1, "ann"), (5, "dee")]
    with open(log, encoding="utf-8") as fh:
        assert "accepted <(user.age, 30)" in fh.read().splitlines()
    on_spark.close()
    reference.close()


def test_json_depth_limit_is_checked_before_spark_reads(
    envs: tuple[cb.Environment, cb.Environment], text_folder: str
) -> None:
    """'json.max-depth' (at most Spark's own 1000) refuses a deeper file as our reader does."""
    on_spark, reference = envs
    ddl = (
        "CREATE TABLE shallow (id BIGINT, `user` ROW<name STRING, age INT>) WITH "
        f"('connector' = 'filesystem', 'path' = '{text_folder}/json', 'format' = 'json', "
        "'json.max-depth' = '1')"
    )
    for env in (on_spark, reference):
        env.execute(ddl)
        with pytest.raises(cb.SourceError, match="nested 2 levels deep"):
            env.sql("SELECT id FROM shallow").fetchall()
        env.execute("DROP TABLE shallow")
