"""Scripts of Flink statements give Flink's answers, statement by statement.

Each script of ``tests/flink/scripts/`` runs in one fresh environment (``cb.connect()``), its
statements split and run as the CLI runs a file (``calcite_bridge.script.split_all``, then
``env.execute`` per statement), ``${tmp}`` replaced by a new empty folder (holding the folders
that the script's ``-- folders:`` lines name). Each statement is
compared with the answer PyFlink gave (``tests/flink/golden/scripts/``, written by ``make
golden-flink``; PyFlink is not needed here):

- Flink refused it: any typed ``cb`` error is the same answer (never the base ``cb.Error``, nor
  an exception that is no ``cb.Error``);
- Flink ran it without rows (DDL, SET, an INSERT or statement set): it runs here;
- Flink answered with rows: the same column names and the same rows after display
  normalisation only (``tools/flink_q.py``: ``flink_text`` and ``rows_same``; the whitespace of
  a cell of several lines, a ``SHOW CREATE``'s, collapsed), a query's rows in order when it has
  an ORDER BY, those of SHOW and DESCRIBE in Flink's order.

A statement that differs must be listed in ``tests/flink/scripts_expected.tsv`` with the
difference and the reason; a listed statement that no longer differs fails too, so the list
only shrinks.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tests.flink import oracle

import calcite_bridge as cb
from calcite_bridge.script import split_all

TOOL = Path(__file__).resolve().parent.parent / "tools" / "flink_q.py"


def _flink_q() -> ModuleType:
    spec = importlib.util.spec_from_file_location("flink_q_for_scripts", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


FLINK_Q = _flink_q()
KNOWN = oracle.load_known_statements()
NAMES = oracle.script_names()


def _first_line(e: BaseException) -> str:
    text = str(e).strip().split("\n")[0]
    return f"{type(e).__name__}: {text}"[:200]


def _text(rows: list[list[str]]) -> list[list[str]]:
    """Cells of more than one line (SHOW CREATE) with their whitespace collapsed, as
    tools/flink_q.py compares Flink's text answers."""
    return [[" ".join(c.split()) if "\n" in c else c for c in row] for row in rows]


def _difference(  # noqa: PLR0911
    golden: oracle.StatementGolden, answer: Any
) -> tuple[str, str] | None:
    """How our answer (an exception, or (columns, rows as Flink's text)) differs from Flink's:
    (difference, detail), or None when it is the same."""
    if isinstance(answer, BaseException):
        if not isinstance(answer, cb.Error) or type(answer) is cb.Error:
            return "untyped", _first_line(answer)
        if golden.outcome == "error":
            return None
        return "we fail", _first_line(answer)
    if golden.outcome == "error":
        return "we accept", f"Flink: {golden.result}"
    if golden.outcome == "ok":
        return None
    columns, rows = answer
    flink_columns, flink_rows = golden.table
    ordered = oracle.is_ordered(golden.sql)
    if columns == flink_columns and FLINK_Q.rows_same(_text(flink_rows), _text(rows), ordered):
        return None
    return "rows", (
        f"Flink {json.dumps(flink_columns)} {json.dumps(flink_rows)[:300]}; "
        f"ours {json.dumps(columns)} {json.dumps(rows)[:300]}"
    )


def _run(name: str, tmp: Path) -> list[tuple[oracle.StatementGolden, tuple[str, str] | None]]:
    return [(golden, _difference(golden, answer)) for golden, answer in _answers(name, tmp)]


def _answers(name: str, tmp: Path) -> list[tuple[oracle.StatementGolden, Any]]:
    """Each statement's golden and our answer: an exception, or (columns, rows as text)."""
    goldens = oracle.load_script_golden(name)
    text = (oracle.SCRIPTS / f"{name}.sql").read_text()
    statements = split_all(text)
    assert [(s.line, s.text) for s in statements] == [(g.line, g.sql) for g in goldens], (
        f"tests/flink/scripts/{name}.sql changed since its golden was written: run "
        f"`make golden-flink` (or `.flink-venv/bin/python tools/flink_golden.py scripts {name}`)"
    )
    for folder in oracle.script_folders(text):
        (tmp / folder).mkdir(parents=True)
    out = []
    env = cb.connect()
    try:
        for statement, golden in zip(statements, goldens, strict=True):
            sql = statement.positioned().replace(oracle.TMP, str(tmp))
            answer: Any
            try:
                result = env.execute(sql)
                rows = [[FLINK_Q.flink_text(v) for v in r] for r in result.fetchall()]
                answer = (result.columns, rows)
            except Exception as e:  # every error is an answer
                answer = e
            out.append((golden, answer))
    finally:
        env.close()
    return out


@pytest.mark.parametrize("name", NAMES)
def test_script_answers_as_flink(name: str, tmp_path: Path) -> None:
    known = {k.line: k for k in KNOWN if k.script == name}
    unlisted, wrong, fixed = [], [], []
    for golden, difference in _run(name, tmp_path):
        k = known.pop(golden.line, None)
        where = f"{name}.sql:{golden.line} {' '.join(golden.sql.split())[:100]}"
        if difference is None:
            if k is not None:
                fixed.append(f"{where}: listed as '{k.difference}', now the same as Flink")
        elif k is None:
            unlisted.append(f"{where}: {difference[0]}: {difference[1]}")
        elif k.difference != difference[0]:
            wrong.append(f"{where}: listed as '{k.difference}', is '{difference[0]}'")
    stale = [f"{name}.sql:{k.line}: listed, but no statement starts there" for k in known.values()]
    problems = unlisted + wrong + fixed + stale
    assert not problems, "\n".join(problems)


def test_kafka_metadata_explain_is_flinks_text(tmp_path: Path) -> None:
    """FLIP-348's example: under each table.column-expansion-strategy, EXPLAIN prints exactly
    Flink's text: the abstract syntax tree with the connector's metadata keys and the casts of
    metadata columns, and the physical plans with Flink's operators and the source's fields."""
    explains = 0
    for golden, answer in _answers("kafka_metadata", tmp_path):
        if not golden.sql.startswith("EXPLAIN") or golden.outcome != "rows":
            continue
        explains += 1
        assert not isinstance(answer, BaseException), f"{golden.sql}: {answer}"
        assert answer[0] == golden.table[0] == ["result"]
        assert answer[1][0][0] == golden.table[1][0][0], golden.sql
    assert explains == 11


def test_expected_differences_name_their_statements() -> None:
    """Each line of scripts_expected.tsv names a statement of its script by its first words."""
    for k in KNOWN:
        assert k.script in NAMES, f"{k.script}: no such script"
        goldens = {g.line: g for g in oracle.load_script_golden(k.script)}
        assert k.line in goldens, f"{k.script}.sql:{k.line}: no statement starts there"
        text = " ".join(goldens[k.line].sql.split())
        assert text.startswith(" ".join(k.sql.split())), (
            f"{k.script}.sql:{k.line} is {text[:80]!r}, listed as {k.sql!r}"
        )
        assert k.reason.strip(), f"{k.script}.sql:{k.line}: no reason given"


def test_every_script_has_a_golden() -> None:
    assert NAMES
    for name in NAMES:
        assert (oracle.SCRIPT_GOLDEN / f"{name}.tsv").exists(), f"{name}: run make golden-flink"


def _golden_tool() -> ModuleType:
    path = TOOL.parent / "flink_golden.py"
    spec = importlib.util.spec_from_file_location("flink_golden_for_scripts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("sql", "key", "value"),
    [
        ("SET 'table.dml-sync' = 'true'", "table.dml-sync", "true"),
        (
            "SET table.exec.mini-batch.allow-latency = 5s",
            "table.exec.mini-batch.allow-latency",
            "5s",
        ),
        ("SET 'pipeline.name' = 'it''s'", "pipeline.name", "it''s"),
    ],
)
def test_golden_tool_reads_the_clients_set(sql: str, key: str, value: str) -> None:
    """The client's SET forms, which the golden tool maps to TableConfig.set under PyFlink."""
    m = _golden_tool()._SET.match(sql)
    assert m is not None
    assert (m.group("qk") or m.group("k"), m.group("qv") or m.group("v")) == (key, value)


def test_golden_tool_reads_the_clients_reset_and_statement_set() -> None:
    tool = _golden_tool()
    assert tool._RESET.match("RESET 'table.dml-sync'").group("qk") == "table.dml-sync"
    assert tool._RESET.match("RESET table.dml-sync").group("k") == "table.dml-sync"
    bare = tool._RESET.match("RESET")
    assert bare is not None and bare.group("k") is None and bare.group("qk") is None
    body = tool._BEGIN_SET.match("BEGIN STATEMENT SET;\nINSERT INTO a VALUES (1);\nEND")
    assert [s.text for s in split_all(body.group("body"))] == ["INSERT INTO a VALUES (1)"]
    assert tool._SET.match("RESET 'a'") is None


@pytest.mark.parametrize(
    ("sql", "ordered"),
    [
        ("SELECT a FROM t", False),
        ("SELECT a FROM t ORDER BY a", True),
        ("SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) FROM t", False),
        ("SELECT ROW_NUMBER() OVER (ORDER BY b) AS r FROM t ORDER BY r", True),
        ("WITH x AS (SELECT 1 AS a) SELECT * FROM x", False),
        ("SHOW COLUMNS FROM t", True),
        ("DESCRIBE t", True),
    ],
)
def test_a_querys_rows_are_ordered_only_by_its_own_order_by(sql: str, ordered: bool) -> None:
    assert oracle.is_ordered(sql) is ordered


def test_a_script_names_its_folders() -> None:
    text = "-- folders: a b\nSELECT 1;\n-- folders: c\n"
    assert oracle.script_folders(text) == ["a", "b", "c"]
