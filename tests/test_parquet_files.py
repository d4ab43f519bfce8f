"""Parquet files of the ``filesystem`` connector read by DuckDB's own reader on the duckdb
backend (``sources/parquet_files.py``): the same answers as the reference, NULLs included, and
today's path for every scan that ``read_parquet`` cannot give the same
(tests/fixtures/parquet_files.sql)."""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.differential.harness import BOTH_FAIL, SAME, compare
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb
from calcite_bridge import _duckdb
from calcite_bridge.expressions import Call, FieldReference, Literal, NestedFieldReference
from calcite_bridge.sources.base import ScanRequest
from calcite_bridge.sources.parquet_files import FILE_COLUMN, parquet_files

CASES = load_cases("parquet_files.sql", keys={"reads"})

SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("i", pa.int32()),
        ("s", pa.string()),
        ("d", pa.date32()),
        ("dec", pa.decimal128(10, 2)),
        ("f", pa.float64()),
        ("b", pa.bool_()),
        ("ts", pa.timestamp("us")),
        ("u", pa.struct([("a", pa.int32()), ("t", pa.string())])),
        ("arr", pa.list_(pa.string())),
    ]
)
DDL = (
    "CREATE TABLE {name} (id BIGINT, i INT, s STRING, d DATE, `dec` DECIMAL(10, 2), f DOUBLE, "
    "b BOOLEAN, ts TIMESTAMP(6), u ROW<a INT, t STRING>, arr ARRAY<STRING>,{extra} "
    "fname STRING METADATA FROM 'file.name' VIRTUAL, "
    "fpath STRING METADATA FROM 'file.path' VIRTUAL, "
    "fsize BIGINT METADATA FROM 'file.size' VIRTUAL, "
    "fmtime TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time' VIRTUAL) "
    "WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')"
)


def _rows(first: int, count: int) -> pa.Table:
    ids = list(range(first, first + count))

    def pick(values: list[Any]) -> list[Any]:
        return [values[(k - 1) % len(values)] for k in ids]

    return pa.table(
        {
            "id": ids,
            "i": pick([1, None, 3, 4, 2]),
            "s": pick(["a", "b", None, "it's", "d", "b"]),
            "d": pick([dt.date(2024, 1, 1), dt.date(2024, 1, 4), None, dt.date(2024, 1, 7)]),
            "dec": pick([decimal.Decimal("1.25"), None, decimal.Decimal("3.00")]),
            "f": pick([0.5, float("nan"), None, 2.5, -1.0]),
            "b": pick([True, False, None]),
            "ts": pick([dt.datetime(2024, 1, 2, 12, 0, 0, 1), None, dt.datetime(2024, 1, 1)]),
            "u": pick([{"a": 1, "t": "x"}, None, {"a": 3, "t": None}]),
            "arr": pick([["a", None], None, [], ["it's"]]),
        },
        schema=SCHEMA,
    )


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[cb.Environment]:
    root = tmp_path_factory.mktemp("parquet_files")
    (root / "pf").mkdir()
    pq.write_table(_rows(1, 7), root / "pf" / "part-0.parquet", row_group_size=3)
    pq.write_table(_rows(8, 6), root / "pf" / "part-1.parquet")
    (root / "pf_mixed").mkdir()
    pq.write_table(_rows(1, 5), root / "pf_mixed" / "part-0.parquet")
    reordered = _rows(6, 5)
    pq.write_table(
        reordered.select(reordered.schema.names[::-1]), root / "pf_mixed" / "part-1.parquet"
    )
    e = cb.connect()
    for name in ("pf", "pf_mixed"):
        e.execute(DDL.format(name=name, path=root / name, extra=""))
    e.execute(DDL.format(name="pf_extra", path=root / "pf", extra=" extra INT,"))
    yield e
    e.close()


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kind of every scan the duckdb backend runs over: ``duckdb`` or ``pyarrow``."""
    seen: list[str] = []
    run = _duckdb.run

    def spy(
        sql: str, scan_list: list[Any], schema: pa.Schema, statement: str | None, *rest: Any
    ) -> Any:
        seen.extend("duckdb" if isinstance(s, _duckdb.Query) else "pyarrow" for s in scan_list)
        return run(sql, scan_list, schema, statement, *rest)

    monkeypatch.setattr(_duckdb, "run", spy)
    return seen


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_answers_as_the_reference(env: cb.Environment, scans: list[str], case: Any) -> None:
    outcome = compare(env, "parquet_files.sql", case.name, case.sql)
    assert outcome.status in (SAME, BOTH_FAIL), outcome.detail
    assert outcome.status == SAME, outcome.detail
    assert scans, "the query did not run on duckdb"
    expected = case.get("reads")
    assert ("pyarrow" if "pyarrow" in scans else "duckdb") == expected, scans


def test_a_file_replaced_between_queries_is_read_afresh(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    pq.write_table(_rows(1, 4), tmp_path / "t" / "part-0.parquet")
    with cb.connect(backend="duckdb") as e:
        e.execute(DDL.format(name="t", path=tmp_path / "t", extra=""))
        sql = "SELECT COUNT(*) AS n FROM t WHERE id > 1"
        assert e.sql(sql).to_pylist() == [{"n": 3}]
        pq.write_table(_rows(1, 9), tmp_path / "t" / "part-1.parquet")
        assert e.sql(sql).to_pylist() == [{"n": 3 + 8}]


def test_a_broken_file_is_an_execution_error(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    pq.write_table(_rows(1, 4), tmp_path / "t" / "part-0.parquet")
    with cb.connect(backend="duckdb") as e:
        e.execute(DDL.format(name="t", path=tmp_path / "t", extra=""))
        sql = "SELECT SUM(i) AS n FROM t WHERE id > 1"
        assert e.sql(sql).to_pylist() == [{"n": 7}]
        (tmp_path / "t" / "part-1.parquet").write_bytes(b"PAR1 not really")
        with pytest.raises((cb.SourceError, cb.ExecutionError)):
            e.sql(sql).to_pylist()


def test_no_extension_is_installed_or_loaded_from_the_network() -> None:
    with cb.connect(backend="duckdb") as e:
        e.sql("SELECT 1 AS x").to_pylist()
    assert _duckdb._databases
    for database in list(_duckdb._databases.values()):
        cursor = database.connection.cursor()
        try:
            settings = dict(
                cursor.execute(
                    "SELECT name, value FROM duckdb_settings() WHERE name IN "
                    "('autoinstall_known_extensions', 'autoload_known_extensions', "
                    "'lock_configuration')"
                ).fetchall()
            )
        finally:
            cursor.close()
        assert settings == {
            "autoinstall_known_extensions": "false",
            "autoload_known_extensions": "false",
            "lock_configuration": "true",
        }


def _request(**kwargs: Any) -> ScanRequest:
    return ScanRequest(**kwargs)


def test_the_query_names_the_files_columns_and_filters(tmp_path: Path) -> None:
    pq.write_table(_rows(1, 3), tmp_path / "b.parquet")
    pq.write_table(_rows(4, 3), tmp_path / "a.parquet")
    pq.write_table(_rows(4, 3), tmp_path / ".tmp-1-x.parquet")
    flt = Call(">=", (FieldReference("i", "INTEGER"), Literal(3, "INTEGER NOT NULL")), "BOOLEAN")
    found = parquet_files(
        str(tmp_path), SCHEMA, _request(columns=("s", "id"), filters=(flt,)), [".tmp-"]
    )
    assert found is not None
    assert found.files == (str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet"))
    assert found.columns == ("s", "id")
    assert found.types == (pa.string(), pa.int64())
    assert found.select.startswith('SELECT "s", "id" FROM read_parquet([')
    assert found.select.endswith('WHERE ("i" >= CAST(3 AS INTEGER))')


def test_a_double_filter_compares_nan_as_flink(tmp_path: Path) -> None:
    """NaN is greater than no value in Flink, and greater than every value in DuckDB."""
    pq.write_table(_rows(1, 3), tmp_path / "a.parquet")
    f = FieldReference("f", "DOUBLE")
    one = Literal(1.0, "DOUBLE")
    request_ = ScanRequest(
        columns=("id",),
        filters=(Call(">", (f, one), "BOOLEAN"), Call(">=", (one, f), "BOOLEAN")),
    )
    found = parquet_files(str(tmp_path), SCHEMA, request_, [])
    assert found is not None
    assert found.select.endswith(
        'WHERE ("f" > CAST(\'1.0\' AS DOUBLE) AND NOT isnan("f"))'
        " AND (CAST('1.0' AS DOUBLE) >= \"f\")"
    )


@pytest.mark.parametrize(
    "request_",
    [
        ScanRequest(columns=()),
        ScanRequest(columns=("id",), metadata_keys=("file.name",)),
        ScanRequest(
            columns=("id",),
            filters=(
                Call(
                    "<", (FieldReference("f", "DOUBLE"), Literal(float("nan"), "DOUBLE")), "BOOLEAN"
                ),
            ),
        ),
        ScanRequest(
            columns=("id",),
            filters=(
                Call(
                    ">", (FieldReference("f", "DOUBLE"), FieldReference("f", "DOUBLE")), "BOOLEAN"
                ),
            ),
        ),
        ScanRequest(
            columns=("id",),
            filters=(
                Call("=", (FieldReference("s", "VARCHAR"), Literal(None, "VARCHAR")), "BOOLEAN"),
            ),
        ),
        ScanRequest(
            columns=("id",),
            filters=(Call("UPPER", (FieldReference("s", "VARCHAR"),), "VARCHAR"),),
        ),
    ],
    ids=[
        "no_columns",
        "metadata_without_values",
        "double_against_nan",
        "double_against_a_double_column",
        "null_literal",
        "call",
    ],
)
def test_what_read_parquet_cannot_give_the_same_is_left_to_the_connector(
    tmp_path: Path, request_: ScanRequest
) -> None:
    pq.write_table(_rows(1, 3), tmp_path / "a.parquet")
    assert parquet_files(str(tmp_path), SCHEMA, request_, []) is None


def _names(path: str) -> list[pa.Scalar]:
    return [pa.scalar(Path(path).name)]


def test_fields_rows_arrays_and_metadata_are_read_by_duckdb(tmp_path: Path) -> None:
    pq.write_table(_rows(1, 3), tmp_path / "a.parquet")
    nested = Call(
        "<",
        (NestedFieldReference(("u", "a"), (8, 0), "INTEGER"), Literal(3, "INTEGER NOT NULL")),
        "BOOLEAN",
    )
    request = ScanRequest(projection=((8, 1), (8,), (9,)), filters=(nested,), metadata_keys=("k",))
    found = parquet_files(str(tmp_path), SCHEMA, request, [], [pa.field("k", pa.string())], _names)
    assert found is not None
    assert found.columns == ("u.t", "u", "arr", "k")
    file = tmp_path / "a.parquet"
    assert found.select.startswith(
        'SELECT struct_extract("u", \'t\') AS "u.t", "u", "arr", '
        f"CASE \"{FILE_COLUMN}\" WHEN '{file}' THEN 'a.parquet' END AS \"k\" "
        "FROM read_parquet(["
    )
    assert found.select.endswith("WHERE (struct_extract(\"u\", 'a') < CAST(3 AS INTEGER))")


def test_a_column_of_another_type_in_a_file_is_left_to_the_connector(tmp_path: Path) -> None:
    table = _rows(1, 3)
    pq.write_table(
        table.set_column(1, "i", table.column("i").cast(pa.int64())), tmp_path / "a.parquet"
    )
    assert parquet_files(str(tmp_path), SCHEMA, ScanRequest(columns=("i",)), []) is None
    assert parquet_files(str(tmp_path), SCHEMA, ScanRequest(columns=("id",)), []) is not None


def test_a_file_name_with_a_wildcard_character_is_left_to_the_connector(tmp_path: Path) -> None:
    pq.write_table(_rows(1, 3), tmp_path / "part[1].parquet")
    assert parquet_files(str(tmp_path), SCHEMA, ScanRequest(columns=("id",)), []) is None
    with cb.connect(backend="duckdb") as e:
        e.execute(DDL.format(name="t", path=tmp_path, extra=""))
        assert e.sql("SELECT SUM(id) AS n FROM t WHERE id > 1").to_pylist() == [{"n": 5}]


def test_files_with_names_that_differ_only_in_case_are_left_to_the_connector(
    tmp_path: Path,
) -> None:
    table = pa.table({"id": [1, 2, 3], "ID": [10, 20, 30]})
    pq.write_table(table, tmp_path / "a.parquet")
    schema = pa.schema([("id", pa.int64()), ("ID", pa.int64())])
    assert parquet_files(str(tmp_path), schema, ScanRequest(columns=("ID",)), []) is None
    with cb.connect(backend="duckdb") as e:
        e.execute(
            f"CREATE TABLE t (id BIGINT, `ID` BIGINT) WITH ('connector' = 'filesystem', "
            f"'path' = '{tmp_path}', 'format' = 'parquet')"
        )
        assert e.sql("SELECT SUM(`ID`) AS n FROM t WHERE id > 1").to_pylist() == [{"n": 50}]


def test_metadata_of_a_confined_table_read_through_a_link_are_the_tables_own(
    tmp_path: Path, scans: list[str]
) -> None:
    root = tmp_path / "allowed"
    (root / "data").mkdir(parents=True)
    pq.write_table(_rows(1, 5), root / "data" / "part-0.parquet")
    pq.write_table(_rows(6, 3), root / "data" / "part-1.parquet")
    (root / "link").symlink_to(root / "data")
    sql = (
        "SELECT fpath, fname, COUNT(*) AS n, SUM(u.a) AS a FROM t WHERE u.t IS NULL "
        "GROUP BY fpath, fname"
    )
    answers = {}
    for backend in ("enumerable", "duckdb"):
        with cb.connect(backend=backend, config={"filesystem.allowed-paths": str(root)}) as e:
            e.execute(DDL.format(name="t", path=root / "link", extra=""))
            answers[backend] = sorted(e.sql(sql).fetchall())
    assert scans == ["duckdb"]
    assert answers["duckdb"] == answers["enumerable"]
    assert [r[:2] for r in answers["duckdb"]] == [
        (str(root / "link" / "part-0.parquet"), "part-0.parquet"),
        (str(root / "link" / "part-1.parquet"), "part-1.parquet"),
    ]


@pytest.mark.jpype_only(reason="DuckDB runs in the process that reads the results")
def test_execution_threads_sets_duckdbs_threads(tmp_path: Path) -> None:
    pq.write_table(_rows(1, 5), tmp_path / "part-0.parquet")
    with cb.connect(backend="duckdb", config={"execution.threads": "1"}) as e:
        e.execute(DDL.format(name="t", path=tmp_path, extra=""))
        assert e.sql("SELECT COUNT(*) AS n FROM t WHERE u.a > 0").fetchall() == [(3,)]
    threads = []
    for database in list(_duckdb._databases.values()):
        cursor = database.connection.cursor()
        try:
            threads.append(cursor.execute("SELECT current_setting('threads')").fetchone()[0])
        finally:
            cursor.close()
    assert 1 in threads
    with cb.connect() as e:
        assert int(e.config.get("execution.threads")) >= 1
        with pytest.raises(cb.ConfigError, match=r"execution\.threads"):
            e.config.set("execution.threads", "0")
        with pytest.raises(cb.ConfigError, match=r"execution\.threads"):
            e.execute("SET 'execution.threads' = 'many'")


def test_a_row_whose_field_names_differ_only_in_case_is_left_to_the_connector(
    tmp_path: Path,
) -> None:
    row = pa.struct([("a", pa.int32()), ("A", pa.int32())])
    schema = pa.schema([("id", pa.int64()), ("r", row)])
    pq.write_table(
        pa.table({"id": [1, 2], "r": [{"a": 1, "A": 10}, {"a": 2, "A": 20}]}, schema=schema),
        tmp_path / "a.parquet",
    )
    nested = Call(
        ">",
        (NestedFieldReference(("r", "A"), (1, 1), "INTEGER"), Literal(15, "INTEGER NOT NULL")),
        "BOOLEAN",
    )
    for request in (
        ScanRequest(projection=((1,),)),
        ScanRequest(columns=("id",), filters=(nested,)),
    ):
        assert parquet_files(str(tmp_path), schema, request, []) is None
    assert parquet_files(str(tmp_path), schema, ScanRequest(columns=("id",)), []) is not None
