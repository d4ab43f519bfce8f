"""CSV and JSON-lines files of the ``filesystem`` connector read by DuckDB's own readers on the
duckdb backend (``sources/text_files.py``): the same answers as the reference, NULLs and
awkward rows included, the same ``cb.SourceError`` for a value our reader refuses, and today's
path for what ``read_csv``/``read_json`` cannot read the same (tests/fixtures/text_files.sql)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from tests.differential.harness import BOTH_FAIL, SAME, compare
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb
from calcite_bridge import _duckdb

CASES = load_cases("text_files.sql", keys={"reads", "fails"})

CSV_HEADER = "id,i,s,dec,f,b,d,ts,ts3\n"
CSV_FILES = {
    "part-0.csv": CSV_HEADER
    + '1,1,"a ""quoted"" word",1.50,0.5,true,2024-01-02,2024-01-02 03:04:05,'
    + "2024-01-02T03:04:05.123\n"
    + '2,,"",2.25,nan,True,2024-02-29,2024-01-02T03:04:05.123456,2024-01-02\n'
    + "3,3,,-3,inf,TRUE,,2024-03-01,\n"
    + "4,4,héllo wörld,0.1,-inf,1,2024-03-01,2024-03-01 10,2024-03-01 10:11\n"
    + '5,-5,"x,y",5,-0.0,false,2024-12-31,,2024-03-01 10:11:12\n',
    "part-1.csv": CSV_HEADER
    + "6,2,NA,  7.5 ,1e3,False,2024-01-05,1999-12-31 23:59:59.999999,1999-12-31 23:59:59.9\n"
    + "7,0,NULL,0,,FALSE,2024-01-06,2024-01-02,\n"
    + '8,2147483647,"it\'s ""é""",99999999.99,1.25,0,0001-01-01,2024-06-30 12:00,\n'
    + "\n"
    + "9,-2147483648,ünïcode ✓,,-1.5,,2024-01-07,2024-07-01T00:00:00.5,2024-07-01\n",
}
CSV_DDL = (
    "CREATE TABLE {name} (id BIGINT, i INT, s STRING, `dec` DECIMAL(10, 2), f DOUBLE, "
    "b BOOLEAN, d DATE, ts TIMESTAMP(6), ts3 TIMESTAMP(3), extra INT, "
    "fname STRING METADATA FROM 'file.name' VIRTUAL, "
    "fsize BIGINT METADATA FROM 'file.size' VIRTUAL) "
    "WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
)
JSON_FILES = {
    "part-0.json": '{"id": 1, "i": 10, "s": "a", "f": 0.5, "b": true}\n'
    '{"id": 2, "i": null, "s": "", "f": -1, "b": false, "other": [1, 2]}\n'
    '{"id": 3, "s": "line\\nbreak \\"q\\" \\u00e9", "b": null}\n',
    "part-1.json": '{"id": 4, "i": -7, "s": "ünïcode ✓", "f": 1e3, "b": true}\n'
    "\n"
    '{"id": 5, "i": 2147483647, "s": null, "f": NaN, "b": false, "S": "other case"}\n'
    '{"b": true, "id": 6, "f": -0.0}\n',
}
JSON_DDL = (
    "CREATE TABLE {name} (id BIGINT, i INT, s STRING, f DOUBLE, b BOOLEAN, extra INT, "
    "fname STRING METADATA FROM 'file.name' VIRTUAL) "
    "WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'json')"
)
# One-file tables, each with one value our reader refuses: (format, declaration, file).
BAD = {
    "bad_csv_int": ("csv", "id INT, s STRING", "id,s\n1,a\nx,b\n"),
    "bad_csv_plus": ("csv", "id INT, s STRING", "id,s\n1,a\n+2,b\n"),
    "bad_csv_dec": ("csv", "`dec` DECIMAL(10, 2), s STRING", "dec,s\n1.5,a\n1.555,b\n"),
    "bad_csv_ts": ("csv", "ts TIMESTAMP(6), s STRING", "ts,s\n2024-01-02 03:04:05+02:00,a\n"),
    "bad_csv_bool": ("csv", "b BOOLEAN, s STRING", "b,s\ntrue,a\nyes,b\n"),
    "bad_csv_date": ("csv", "d DATE, s STRING", "d,s\n2024-1-2,a\n"),
    "bad_csv_short": ("csv", "id INT, s STRING", "id,s\n1,a\n2\n"),
    "bad_csv_long": ("csv", "id INT, s STRING", "id,s\n1,a\n2,b,c\n"),
    "bad_csv_quoted": ("csv", "id INT, s STRING", 'id,s\n1,a\n"",b\n'),
    "bad_json_int": ("json", "i INT, s STRING", '{"i": 1}\n{"i": "2"}\n'),
    "bad_json_str": ("json", "i INT, s STRING", '{"s": "a"}\n{"s": 2}\n'),
    "bad_json_broken": ("json", "i INT, s STRING", '{"i": 1}\n{"i": 2\n'),
}


def _write(directory: Path, files: dict[str, str]) -> Path:
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[cb.Environment]:
    root = tmp_path_factory.mktemp("text_files")
    e = cb.connect()
    e.execute(CSV_DDL.format(name="tc", path=_write(root / "tc", CSV_FILES)))
    other = {**CSV_FILES, "part-2.csv": "s,id\nz,10\n"}
    e.execute(CSV_DDL.format(name="tc_multi", path=_write(root / "tc_multi", other)))
    semi = _write(root / "tc_semi", {"x.csv": 'c;a;b\n"x;y";1;2024-01-01\n;3;\n"";2;\n'})
    e.execute(
        f"CREATE TABLE tc_semi (a INT, b DATE, c STRING) WITH ('connector' = 'filesystem', "
        f"'path' = '{semi}', 'format' = 'csv', 'csv.field-delimiter' = ';')"
    )
    e.execute(JSON_DDL.format(name="tj", path=_write(root / "tj", JSON_FILES)))
    row = _write(root / "tj_row", {"a.json": '{"id": 1, "r": {"x": 2}}\n{"id": 2}\n'})
    e.execute(
        f"CREATE TABLE tj_row (id BIGINT, r ROW<x INT>) WITH ('connector' = 'filesystem', "
        f"'path' = '{row}', 'format' = 'json')"
    )
    for name, (fmt, columns, text) in BAD.items():
        path = _write(root / name, {f"a.{fmt}": text})
        e.execute(
            f"CREATE TABLE {name} ({columns}) WITH ('connector' = 'filesystem', "
            f"'path' = '{path}', 'format' = '{fmt}')"
        )
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
    outcome = compare(env, "text_files.sql", case.name, case.sql)
    fails = case.get("fails")
    if fails is not None:
        assert outcome.status == BOTH_FAIL, outcome.detail
        assert outcome.detail.startswith(fails + ":"), outcome.detail
        assert scans == ["duckdb"], "the file was not handed to DuckDB's reader"
        return
    assert outcome.status == SAME, outcome.detail
    assert scans, "the query did not run on duckdb"
    expected = case.get("reads")
    assert ("pyarrow" if "pyarrow" in scans else "duckdb") == expected, scans


def test_a_refused_value_names_its_column(env: cb.Environment) -> None:
    with pytest.raises(cb.SourceError, match=r"an integer in column id: invalid value 'x'"):
        env.sql("SELECT id FROM bad_csv_int", backend="duckdb").fetchall()


def test_no_statement_text_reaches_the_reader(tmp_path: Path) -> None:
    """A column named like SQL is quoted in the query DuckDB runs, never spliced into it."""
    path = _write(tmp_path / "t", {"a.csv": '"x\') --",y\n1,2\n'})
    with cb.connect(backend="duckdb") as e:
        e.execute(
            f"CREATE TABLE t (`x') --` INT, y INT) WITH ('connector' = 'filesystem', "
            f"'path' = '{path}', 'format' = 'csv')"
        )
        assert e.sql("SELECT `x') --` AS x, y FROM t").to_pylist() == [{"x": 1, "y": 2}]


def test_a_file_added_between_queries_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path / "t", {"a.csv": "id,s\n1,a\n2,b\n"})
    with cb.connect(backend="duckdb") as e:
        e.execute(
            f"CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', "
            f"'path' = '{path}', 'format' = 'csv')"
        )
        assert e.sql("SELECT COUNT(*) AS n FROM t").to_pylist() == [{"n": 2}]
        (path / "b.csv").write_text("id,s\n3,c\n", encoding="utf-8")
        assert e.sql("SELECT COUNT(*) AS n FROM t").to_pylist() == [{"n": 3}]


@pytest.mark.parametrize(
    ("fmt", "blank"),
    [("json", ""), ("json", "\n \n"), ("csv", ""), ("csv", "\n\n")],
    ids=["json-empty", "json-blank-lines", "csv-empty", "csv-blank-lines"],
)
@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_an_empty_file_holds_no_rows(tmp_path: Path, fmt: str, blank: str, backend: str) -> None:
    """A file of no bytes (or blank lines only) beside the others is a file of no rows, as DuckDB
    reads it, not a failure of the whole table (pyarrow refuses it: "Empty JSON stream")."""
    rows = '{"id": 1, "s": "a"}\n' if fmt == "json" else "id,s\n1,a\n"
    path = _write(tmp_path / "t", {f"a.{fmt}": blank, f"b.{fmt}": rows})
    with cb.connect() as e:
        e.execute(
            f"CREATE TABLE t (id INT, s STRING, fname STRING METADATA FROM 'file.name' VIRTUAL) "
            f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = '{fmt}')"
        )
        assert e.sql("SELECT id, s, fname FROM t", backend=backend).to_pylist() == [
            {"id": 1, "s": "a", "fname": f"b.{fmt}"}
        ]
        assert e.sql("SELECT COUNT(*) AS n FROM t", backend=backend).to_pylist() == [{"n": 1}]
        lone = _write(tmp_path / "lone", {f"a.{fmt}": blank})
        e.execute(
            f"CREATE TABLE lone (id INT, s STRING) WITH ('connector' = 'filesystem', "
            f"'path' = '{lone / f'a.{fmt}'}', 'format' = '{fmt}', "
            f"'source.missing-columns' = 'null')"
        )
        assert e.sql("SELECT id FROM lone WHERE id > 0", backend=backend).to_pylist() == []


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_a_blank_file_that_gets_rows_is_read(tmp_path: Path, fmt: str, backend: str) -> None:
    """Whether a file is blank is kept between scans only while the file is unchanged: rows
    written into a blank file (or an empty one) are read by the next query, and a file emptied
    is left out again."""
    rows = '{"id": 1, "s": "a"}\n' if fmt == "json" else "id,s\n1,a\n"
    path = _write(tmp_path / "t", {f"a.{fmt}": "\n", f"b.{fmt}": ""})
    with cb.connect() as e:
        e.execute(
            f"CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', "
            f"'path' = '{path}', 'format' = '{fmt}', 'source.missing-columns' = 'null')"
        )
        query = "SELECT id, s FROM t ORDER BY id"
        assert e.sql(query, backend=backend).to_pylist() == []
        (path / f"a.{fmt}").write_text(rows)
        (path / f"b.{fmt}").write_text(rows.replace("1", "2"))
        assert e.sql(query, backend=backend).to_pylist() == [
            {"id": 1, "s": "a"},
            {"id": 2, "s": "a"},
        ]
        (path / f"a.{fmt}").write_text("\n" * len(rows))
        assert e.sql(query, backend=backend).to_pylist() == [{"id": 2, "s": "a"}]


FLINK_CSV = {
    # As Flink's csv format writes a table (id INT, name STRING, score DOUBLE): no header, the
    # fields in the table's order, NULL an empty field, quotes where a value needs them.
    "part-0.csv": '1,alice,10.5\n2,"b,ob",\n3,,-1.0\n',
    # Beside it a file with a header, in another order.
    "part-1.csv": "score,id,name\n7.5,4,dave\n",
}


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "auto"])
def test_a_csv_file_without_a_header_is_read_by_position(tmp_path: Path, backend: str) -> None:
    """Flink's csv format has no header: a file whose first line names none of the table's
    columns, with a field for each, is read by position (it read as all NULLs, with a warning,
    and INSERT wrote a header Flink reads as a row)."""
    path = _write(tmp_path / "t", FLINK_CSV)
    with cb.connect() as e:
        e.execute(
            "CREATE TABLE t (id INT, name STRING, score DOUBLE, "
            "f STRING METADATA FROM 'file.name' VIRTUAL) "
            f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no missing-column warning
            rows = e.sql("SELECT id, name, score, f FROM t ORDER BY id", backend=backend)
            assert rows.fetchall() == [
                (1, "alice", 10.5, "part-0.csv"),
                (2, "b,ob", None, "part-0.csv"),
                (3, None, -1.0, "part-0.csv"),
                (4, "dave", 7.5, "part-1.csv"),
            ]
            found = e.sql("SELECT id FROM t WHERE score > 0 AND name <> 'x'", backend=backend)
            assert sorted(found.fetchall()) == [(1,), (4,)]
            assert e.sql("SELECT COUNT(*) AS n FROM t", backend=backend).fetchall() == [(4,)]


def test_insert_writes_no_header_where_the_files_have_none(tmp_path: Path) -> None:
    """INSERT writes a header into a table of header files or of none, and no header into a
    table whose files have none (Flink's), so Flink can read what it adds."""
    flink = _write(tmp_path / "flink", {"part-0.csv": "1,a\n"})
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    with cb.connect() as e:
        for name, path in (("flink", flink), ("fresh", fresh)):
            e.execute(
                f"CREATE TABLE {name} (id INT, s STRING) "
                f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
            )
            e.execute(f"INSERT INTO {name} VALUES (2, 'b'), (3, CAST(NULL AS STRING))")
        (written,) = [p for p in flink.iterdir() if p.name != "part-0.csv"]
        assert written.read_text().splitlines() == ['"2","b"', '"3",']
        (first,) = fresh.iterdir()
        assert first.read_text().splitlines()[0] == '"id","s"'
        assert e.sql("SELECT id, s FROM flink ORDER BY id").fetchall() == [
            (1, "a"),
            (2, "b"),
            (3, None),
        ]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_a_first_line_that_names_a_column_is_a_header(tmp_path: Path, backend: str) -> None:
    """A first line naming any of the table's columns is a header, even with other names in it:
    those columns read as NULL, with the missing-column warning."""
    path = _write(tmp_path / "t", {"a.csv": "id,other\n1,x\n"})
    with cb.connect() as e:
        e.execute(
            "CREATE TABLE t (id INT, s STRING) "
            f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
        )
        with pytest.warns(cb.MissingColumnWarning, match="'s'"):
            rows = e.sql("SELECT id, s FROM t", backend=backend).fetchall()
        assert rows == [(1, None)]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_a_partitioned_csv_table_without_headers(tmp_path: Path, backend: str) -> None:
    """A partitioned table's files without a header hold its columns but the partition
    columns, by position."""
    root = tmp_path / "t"
    root.mkdir()
    for day, text in (("2024-01-01", "1,a\n2,\n"), ("2024-01-02", '3,"c,d"\n')):
        _write(root / f"dt={day}", {"part-0.csv": text})
    with cb.connect() as e:
        e.execute(
            "CREATE TABLE t (id INT, s STRING, dt STRING) PARTITIONED BY (dt) "
            f"WITH ('connector' = 'filesystem', 'path' = '{root}', 'format' = 'csv')"
        )
        rows = e.sql("SELECT id, s, dt FROM t ORDER BY id", backend=backend).fetchall()
        assert rows == [(1, "a", "2024-01-01"), (2, None, "2024-01-01"), (3, "c,d", "2024-01-02")]
        found = e.sql("SELECT id FROM t WHERE dt = '2024-01-02'", backend=backend).fetchall()
        assert found == [(3,)]
        e.execute("INSERT INTO t VALUES (4, 'e', '2024-01-03')")
        (added,) = (root / "dt=2024-01-03").iterdir()
        assert added.read_text() == '"4","e"\n'


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
def test_csv_nan_and_infinities_are_written_as_flink_writes_them(
    tmp_path: Path, backend: str
) -> None:
    """INSERT writes a DOUBLE's NaN and infinities as Java spells them (``NaN``, ``Infinity``,
    ``-Infinity``), which Flink's csv format reads (pyarrow wrote ``nan`` and ``inf``), and
    reads them back."""
    path = tmp_path / "f"
    path.mkdir()
    with cb.connect() as e:
        e.execute(
            "CREATE TABLE f (id INT, d DOUBLE, r FLOAT) "
            f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
        )
        e.execute(
            "INSERT INTO f VALUES (1, CAST('NaN' AS DOUBLE), CAST('Infinity' AS FLOAT)), "
            "(2, CAST('-Infinity' AS DOUBLE), CAST(1.5 AS FLOAT)), (3, NULL, NULL), "
            "(4, 0.1, CAST(-2 AS FLOAT))"
        )
        (written,) = path.iterdir()
        assert written.read_text().splitlines() == [
            '"id","d","r"',
            '"1","NaN","Infinity"',
            '"2","-Infinity","1.5"',
            '"3",,',
            '"4","0.1","-2"',
        ]
        rows = e.sql("SELECT id, d, r FROM f ORDER BY id", backend=backend).fetchall()
    assert math.isnan(rows[0][1])
    assert rows[0][2:] == (math.inf,)
    assert rows[1:] == [(2, -math.inf, 1.5), (3, None, None), (4, 0.1, -2.0)]


# Written by Flink's csv format (PyFlink 2.3) for INSERT INTO t VALUES (1, X'00FF41'),
# (2, X'6869'), (3, CAST(NULL AS BYTES)), (4, X''): BYTES in base64, NULL and b'' as empty fields.
FLINK_BYTES = Path(__file__).parent / "fixtures" / "flink_csv_bytes"
BYTES_ROWS = [(1, b"\x00\xffA"), (2, b"hi"), (3, b""), (4, b"")]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "spark"])
def test_csv_bytes_are_written_and_read_in_base64(tmp_path: Path, backend: str) -> None:
    """INSERT writes a BYTES column in base64, as Flink's csv format does (it wrote the bytes
    raw, and failed on bytes that are not UTF-8), and every backend reads them back; an empty
    field (NULL is written so) reads as ``b''``, as Flink reads it."""
    if backend == "spark":
        pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")
    path = tmp_path / "t"
    path.mkdir()
    with cb.connect() as e:
        e.execute(
            "CREATE TABLE t (id INT, b BYTES) "
            f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
        )
        e.execute(
            "INSERT INTO t VALUES (1, X'00FF41'), (2, X'6869'), (3, CAST(NULL AS BYTES)), (4, X'')"
        )
        (written,) = path.iterdir()
        assert written.read_text().splitlines() == [
            '"id","b"',
            '"1","AP9B"',
            '"2","aGk="',
            '"3",',
            '"4",""',
        ]
        rows = e.sql("SELECT id, b FROM t ORDER BY id", backend=backend).fetchall()
        assert rows == BYTES_ROWS
        found = e.sql("SELECT id FROM t WHERE b = X'6869'", backend=backend).fetchall()
        assert found == [(2,)]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "spark"])
def test_csv_bytes_of_a_file_flink_wrote(tmp_path: Path, backend: str) -> None:
    """A file of Flink's csv format reads as Flink reads it: base64 decoded, an empty field
    ``b''``; text that is not base64 is refused."""
    if backend == "spark":
        pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")
    path = _write(tmp_path / "t", {"part-0.csv": (FLINK_BYTES / "part-0.csv").read_text()})
    bad = _write(tmp_path / "bad", {"part-0.csv": "1,AP9B\n2,not base64!\n"})
    with cb.connect() as e:
        for name, where in (("t", path), ("bad", bad)):
            e.execute(
                f"CREATE TABLE {name} (id INT, b BYTES) "
                f"WITH ('connector' = 'filesystem', 'path' = '{where}', 'format' = 'csv')"
            )
        rows = e.sql("SELECT id, b FROM t ORDER BY id", backend=backend).fetchall()
        assert rows == BYTES_ROWS
        with pytest.raises(cb.SourceError, match="'not base64!' in column b"):
            e.sql("SELECT id, b FROM bad", backend=backend).fetchall()
