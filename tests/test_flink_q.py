"""The .q script reader and runner of tools/flink_q.py, over small scripts written here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "flink_q.py"

CLIENT_SCRIPT = """\
# a comment, then a statement over two lines
SELECT a, b
FROM (VALUES (1, 'x'), (2, 'y')) AS t(a, b);
+---+---+
| a | b |
+---+---+
| 1 | x |
| 2 | y |
+---+---+
2 rows in set
!ok

CREATE TEMPORARY VIEW v AS SELECT 1 AS x1;
[INFO] Execute statement succeeded.
!info

SELECT * FROM no_such_table;
[ERROR] Could not execute SQL statement. Reason:
SomeException: Object 'no_such_table' not found
!error

SHOW CREATE VIEW v;
+---------------------+
|              result |
+---------------------+
| CREATE VIEW v (
  `x1`
)
AS SELECT 1
 |
+---------------------+
1 row in set
!ok

SELECT a FROM (VALUES (1)) AS t(a) WHERE a > 1;
Empty set
!ok
"""

GATEWAY_SCRIPT = """\
SET 'table.local-time-zone' = 'UTC';
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

BEGIN STATEMENT SET;
INSERT INTO t VALUES (1);
END;
!output
SomeException: only single statement supported
!error

SELECT TRUE AS flag, CAST(NULL AS INT) AS n, TIMESTAMP '2024-01-02 03:04:05.100' AS ts;
!output
+----+------+--------+-------------------------+
| op | flag |      n |                      ts |
+----+------+--------+-------------------------+
| +I | TRUE | <NULL> | 2024-01-02 03:04:05.100 |
+----+------+--------+-------------------------+
1 row in set
!ok
"""


@pytest.fixture(scope="module")
def flink_q() -> ModuleType:
    spec = importlib.util.spec_from_file_location("flink_q", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def test_client_layout_statements_markers_and_tables(flink_q: ModuleType) -> None:
    cases = flink_q.parse_q(CLIENT_SCRIPT)
    assert [c.marker for c in cases] == ["ok", "info", "error", "ok", "ok"]
    assert cases[0].sql == "SELECT a, b\nFROM (VALUES (1, 'x'), (2, 'y')) AS t(a, b)"
    assert cases[0].line == 2
    assert cases[0].table == [["1", "x"], ["2", "y"]]
    assert cases[1].table is None
    assert cases[2].output.endswith("Object 'no_such_table' not found")
    # A cell over several lines is one cell.
    assert cases[3].table == [["CREATE VIEW v (\n  `x1`\n)\nAS SELECT 1"]]
    assert cases[4].table == []


def test_gateway_layout_runs_the_statement_up_to_output(flink_q: ModuleType) -> None:
    cases = flink_q.parse_q(GATEWAY_SCRIPT)
    assert [c.marker for c in cases] == ["ok", "error", "ok"]
    assert cases[1].sql == "BEGIN STATEMENT SET;\nINSERT INTO t VALUES (1);\nEND"
    assert cases[0].table == [["OK"]]
    # The op column of an insert-only changelog is dropped.
    assert cases[2].table == [["TRUE", "<NULL>", "2024-01-02 03:04:05.100"]]


def test_rows_compare_after_display_normalisation(flink_q: ModuleType) -> None:
    same = flink_q.rows_same
    assert same([["true", "2024-01-02 03:04:05.100"]], [["TRUE", "2024-01-02 03:04:05.1"]], True)
    assert same([["abc..."]], [["abcdef"]], True)  # cut to the display width
    assert same([["", "x"]], [["<NULL>", "x"]], True)  # a blank NULL of DESCRIBE
    # a text of several lines: whitespace collapsed, as the gateway's text
    assert same(
        [["CREATE TABLE t (\n  a INT\n) WITH (\n  'k' = 'v'\n)"]],
        [["CREATE TABLE t (\n  a INT\n)\nWITH (\n  'k' = 'v'\n)\n"]],
        True,
    )
    assert not same([["CREATE TABLE t (\n  a INT\n)"]], [["CREATE TABLE t (\n  b INT\n)"]], True)
    assert same([["1"], ["2"]], [["2"], ["1"]], False)  # no ORDER BY: any order
    assert not same([["1"], ["2"]], [["2"], ["1"]], True)
    assert not same([["1"]], [["1"], ["1"]], False)


def test_a_run_classifies_each_statement(flink_q: ModuleType, tmp_path: Path) -> None:
    script = tmp_path / "ours.q"
    script.write_text(
        CLIENT_SCRIPT
        + """
SELECT 2;
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok

ADD JAR '$VAR_UDF_JAR_PATH';
[INFO] Execute statement succeeded.
!info
"""
    )
    outcomes = flink_q.Runner(timeout=60).run_file(script, script.name)
    kinds = [o.kind for o in outcomes]
    assert kinds[:3] == ["same", "same", "same"]
    assert kinds[4] == "same"  # Empty set
    assert kinds[5] == "rows differ"  # 2, not Flink's 3 of this made-up answer
    assert kinds[6] == "skipped"  # a jar of Flink's tests
    assert outcomes[6].detail.startswith("placeholder")


def test_a_gateway_request_of_several_statements_is_skipped(
    flink_q: ModuleType, tmp_path: Path
) -> None:
    assert flink_q.statement_count("BEGIN STATEMENT SET;\nINSERT INTO t VALUES (1);\nEND") == 3
    assert flink_q.statement_count("SELECT ';' AS `a;b` -- x; y\n") == 1
    block = "EXECUTE STATEMENT SET BEGIN INSERT INTO t VALUES (1); END"
    assert flink_q.statement_count(block) == 2 and flink_q.SET_BLOCK.search(block)
    script = tmp_path / "gateway.q"
    script.write_text(GATEWAY_SCRIPT)
    outcomes = flink_q.Runner(timeout=60).run_file(script, script.name)
    assert [o.kind for o in outcomes] == ["same", "skipped", "same"]
    assert outcomes[1].detail.startswith("several statements in one request")
