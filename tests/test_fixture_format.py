"""The case-file format of tests/fixtures/ and the golden-plan files of tests/golden/."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tests.helpers import golden
from tests.helpers.fixtures import FIXTURES, FixtureError, load_cases

# Case files and how they are read; cli_catalog.sql is a catalog script the CLI runs
# (`--catalog`), not a case file.
CASE_FILES = {
    "queries.sql": False,
    "column_expansion.sql": False,
    "pushdown.sql": False,
    "nested_projection.sql": False,
    "limit_pushdown.sql": False,
    "discovery.sql": False,
    "dyncol_cases.sql": True,
    "dyncol_spark_cases.sql": True,
    "backend_cases.sql": False,
    "parquet_files.sql": False,
    "correctness.sql": False,
    "sandbox_escapes.sql": False,
    "row_level.sql": False,
    "parse_errors.sql": False,
    "internal_errors.sql": False,
    "flink_ddl.sql": False,
    "flink_settings.sql": False,
    "flink_catalogs.sql": False,
    "flink_explain.sql": False,
    "functions.sql": False,
    "flink_statements.sql": False,
    "flink_alter.sql": False,
    "flink_insert_overwrite.sql": False,
    "flink_connectors.sql": False,
    "text_files.sql": False,
    "hive_partitions.sql": False,
    "spark_files.sql": False,
    "parameter_values.sql": False,
}
# Fixture files whose optimized plans are kept in tests/golden/.
GOLDEN_FILES = [
    "column_expansion.sql",
    "pushdown.sql",
    "nested_projection.sql",
    "limit_pushdown.sql",
    "discovery.sql",
]

SAMPLE = """-- A comment about the file.

-- name: first
-- source: nested_only
-- offered: <(user.age, 30)
-- offered: >(id, 1)
-- strategy:
-- null_ids: {3, None}
SELECT id
FROM users;

-- A comment between cases.
-- name: second
SELECT 1
-- name: third
-- above: true
SELECT 'a;b' ; -- not the end: ';' ends a case only at the end of a line
  ;
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cases.sql"
    path.write_text(text, encoding="utf-8")
    return path


def test_headers_sql_and_ends(tmp_path: Path) -> None:
    first, second, third = load_cases(write(tmp_path, SAMPLE))
    assert (first.name, first.sql, first.line) == ("first", "SELECT id\nFROM users", 3)
    assert first.get("source") == "nested_only"
    assert first.all("offered") == ["<(user.age, 30)", ">(id, 1)"]
    assert first.get("strategy") == ""
    assert first.literal("null_ids") == {3, None}
    assert first.get("nope", "x") == "x" and first.all("nope") == [] and not first.flag("nope")
    assert (second.name, second.sql, second.attrs) == ("second", "SELECT 1", {})
    assert third.flag("above")
    assert third.sql == "SELECT 'a;b' ; -- not the end: ';' ends a case only at the end of a line"


def test_one_case_per_line(tmp_path: Path) -> None:
    path = write(tmp_path, "-- header: not a key here\nSELECT 1\n\n-- group\n  1 + 1;\n")
    cases = load_cases(path, one_per_line=True)
    assert [(c.name, c.sql) for c in cases] == [("line_2", "SELECT 1"), ("line_5", "1 + 1")]


@pytest.mark.parametrize(
    ("text", "kwargs", "message"),
    [
        ("SELECT 1;\n", {}, "cases.sql:1: SQL outside a case"),
        ("-- name: a\nSELECT 1;\nSELECT 2;\n", {}, "cases.sql:3: SQL outside a case"),
        ("-- name: a\n-- colour: red\nSELECT 1;\n", {"keys": {"color"}}, "unknown key 'colour'"),
        ("-- name: a\n-- name: b\nSELECT 1;\n", {}, "case 'a' has no SQL"),
        ("-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;\n", {}, "a second case named 'a'"),
        ("-- name: a\nSELECT 1;\n", {"one_per_line": True}, "'-- name:' in a file of one-line"),
    ],
    ids=["no_name", "after_the_end", "unknown_key", "no_sql", "same_name", "name_per_line"],
)
def test_mistakes_name_the_line(
    tmp_path: Path, text: str, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(FixtureError, match=message.replace("(", r"\(")):
        load_cases(write(tmp_path, text), **kwargs)


def test_values_are_checked(tmp_path: Path) -> None:
    (case,) = load_cases(write(tmp_path, "-- name: a\n-- k: 1\n-- k: 2\n-- f: yes\nSELECT 1;"))
    with pytest.raises(FixtureError, match=r"cases.sql:1 \(a\): 'k' is given 2 times"):
        case.get("k")
    with pytest.raises(FixtureError, match="'f' must be true or false"):
        case.flag("f")
    with pytest.raises(FixtureError, match="'f' is not a Python literal"):
        case.literal("f")


@pytest.mark.parametrize(("name", "per_line"), CASE_FILES.items())
def test_every_case_file_loads(name: str, per_line: bool) -> None:
    cases = load_cases(name, one_per_line=per_line)
    assert cases and all(c.sql and not c.sql.endswith(";") for c in cases)


def test_every_fixture_file_is_known() -> None:
    assert {p.name for p in FIXTURES.glob("*.sql")} == {*CASE_FILES, "cli_catalog.sql"}


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_golden_file_has_every_case_in_order(name: str) -> None:
    path = golden.golden_path(name)
    plans = golden.parse(path.read_text(encoding="utf-8"))
    assert list(plans) == [c.name for c in load_cases(name)]
    assert all("BridgeTableScan(table=[[" in plan for plan in plans.values())


def test_golden_render_and_parse_round_trip() -> None:
    plans = {"a": "X\n  Y(z=[1])", "b": "Z"}
    assert golden.parse(golden.render("f.sql", plans)) == plans


def test_normalise_removes_volatile_text() -> None:
    plan = "Scan(path=[/tmp/pytest-7/x], obj=[Foo@1a2b3c4d])  \n"
    assert (
        golden.normalise(plan, {"/tmp/pytest-7": "<tmp>"}) == "Scan(path=[<tmp>/x], obj=[Foo@<id>])"
    )


def fake_config(update: bool) -> Any:
    return SimpleNamespace(getoption=lambda name: update if name == "update_golden" else None)


def test_check_fails_with_a_diff_naming_the_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    golden.check(fake_config(True), "x.sql", {"a": "P\n  Q", "b": "R"})
    golden.check(fake_config(False), "x.sql", {"a": "P\n  Q", "b": "R"})
    with pytest.raises(pytest.fail.Exception) as info:
        golden.check(fake_config(False), "x.sql", {"a": "P\n  Q2", "c": "S"})
    text = str(info.value)
    assert "3 plan(s) differ from tests/golden/x.plan" in text
    assert "--- tests/golden/x.plan [a]\n+++ plan of a\n@@" in text
    assert "-  Q\n+  Q2" in text
    assert "+++ plan of b (no such case any more)" in text
    assert "--- tests/golden/x.plan [c] (not in the file)" in text
    with pytest.raises(pytest.fail.Exception, match="another order"):
        golden.check(fake_config(False), "x.sql", {"b": "R", "a": "P\n  Q"})
