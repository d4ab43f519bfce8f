"""Runs Flink's own SQL-client and SQL-gateway scripts (``.q`` files) and says how many of their
statements calcite-bridge handles as Flink does.

Usage::

    python tools/flink_q.py DIR_OR_FILE... [--details] [--timeout SECONDS]

The ``.q`` files are not part of this repository: give the directories that hold them. Each file
runs in one fresh environment (``cb.connect()``) in ``execution.runtime-mode`` STREAMING, the SQL
client's default, which the files' answers were made in; its statements in order.

The format (Flink's ``_HOW_TO_USE.md``): lines starting with ``#`` are comments. In the SQL
client's layout a statement runs up to the line that ends with ``;`` and Flink's output follows
it; in the SQL gateway's layout (a file with ``!output`` lines) the statement runs up to the line
``!output`` and the output follows that. The output is closed by a marker line: ``!ok`` (a result
table, ``Empty set`` or text), ``!info`` (a success message) or ``!error`` (the error's text
comes before it).

Each statement is classified:

- ``same``: Flink errors and we raise a calcite-bridge error (a typed subclass of ``cb.Error``);
  Flink succeeds with a message (``!info``, the gateway's ``OK`` table, a job id) and so do we;
  Flink shows rows and we give the same rows; Flink shows text (``EXPLAIN``, ``SHOW CREATE``)
  and our result's text is the same, whitespace collapsed.
- ``rows differ``: both give rows, not the same ones;
- ``we fail``: Flink succeeds and we raise (our error class and first line are kept);
- ``we accept``: Flink errors and we succeed;
- ``skipped``, counted apart and never as ``same``: statements that need what only Flink's test
  harness has. The harness's placeholders (``$VAR_...`` other than those of folders, which
  become temporary folders here, ``$VAR_X_RELATIVE_PATH`` the folder of ``$VAR_X_PATH`` relative
  to the working folder; and ``$internal.*`` keys, and answers that hold them); Flink's
  test jars (``ADD JAR``/``REMOVE JAR``/``SHOW JARS``, ``CREATE FUNCTION`` of a class such as
  ``LowerUDF``); Flink's test connectors and catalogs (``test-update-delete``,
  ``test_procedure_catalog``, ``test-catalog``, ``values`` with options) and Hive (module,
  catalog); and then every statement that names what those made, or that runs while such a
  catalog is the current one (but ``SET``, ``RESET``, ``SHOW CATALOGS``/``MODULES`` and
  statements on a three-part name of another catalog); queries whose Flink answer is a
  changelog with retractions (``-U``/``+U``/``-D`` rows of a streaming query); and, in the
  gateway's layout, a text of several statements sent as one request, which the gateway's REST
  protocol refuses ("only single statement supported") before any engine reads it.

Flink's ``values`` test connector with no option, an empty table, is read as our ``memory``
connector. The SQL client's ``BEGIN STATEMENT SET; ...; END;`` runs as the one statement it is
here, at its ``END``; a statement other than ``INSERT`` (or ``CREATE TABLE ... AS``) met inside
it is run as ``BEGIN STATEMENT SET; <it>; END``, as the client refuses it on its own.

Rows are compared as cell texts after trimming, as a multiset when the statement has no
``ORDER BY`` (a batch engine's row order is not part of its answer). Normalisations, all of
display format only:

- our NULL is Flink's ``<NULL>``, and also Flink's blank cell (its client prints the NULLs of
  ``DESCRIBE`` and ``SHOW COLUMNS`` as blanks);
- ``TRUE``/``FALSE`` compared without case (Flink's tableau prints BOOLEAN in capitals and
  ``SHOW FULL MODULES`` in lower case);
- a timestamp's or time's fractional seconds without trailing zeros on both sides (Flink pads
  to the type's precision, Python's text to six digits), and our ``T``-less text of a timestamp;
- Flink's ``op`` column of a streaming query's result dropped when all its rows are ``+I``
  (an insert-only changelog is its rows);
- a cell Flink cut to ``table.display.max-column-width`` (ending in ``...``) matches our cell
  that starts with the text before the ``...``;
- a cell of several lines (the SQL client's ``SHOW CREATE`` and ``EXPLAIN`` tables) is compared
  with its whitespace collapsed, as the gateway's text is (Flink's versions lay out
  ``SHOW CREATE TABLE`` as ``) WITH (`` or as ``)`` and ``WITH (`` on two lines), and the
  partitions of an ``EXPLAIN``'s scan (``partitions=[{y=2024}, {y=2023}]``) in sorted order on
  both sides (Flink lists them in the order its file system lists the folders);
- our ARRAY as ``[a, b]``, MAP as ``{k=v}``, ROW as ``(a, b)``, INTERVAL as ``+1 00:00:00.000``
  and ``+1-00``, as Flink prints them.

Prints one JSON line per file and one for the total; ``--details`` adds a line for each
statement that is not ``same``.
"""

from __future__ import annotations

import argparse
import datetime
import decimal
import itertools
import json
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MARKER = re.compile(r"^!([a-z]+)\s*$")
FOOTER = re.compile(
    r"^(?:\d+ rows? in set|Received a total of \d+ rows?|Empty set)$", re.IGNORECASE
)
BORDER = re.compile(r"^\+(?:-+\+)+$")


@dataclass
class Case:
    """One statement of a .q file and Flink's answer to it."""

    sql: str
    line: int
    marker: str  # ok, info, error, output, ...
    output: str  # Flink's printed output, without the marker line
    gateway: bool = False  # from a file of the SQL gateway's layout: one request per statement

    @property
    def table(self) -> list[list[str]] | None:
        """Flink's result rows (cell texts, trimmed), [] for ``Empty set``, None for no table."""
        return parse_table(self.output)


def parse_q(text: str) -> list[Case]:
    """The statements of a .q text with Flink's output after each.

    Two layouts: the SQL client's (the output follows the statement, which ends at the line
    ending in ``;``) and the SQL gateway's (the statement runs up to a line ``!output``, then
    the output up to the closing marker); a file with any ``!output`` line has the second."""
    cases: list[Case] = []
    lines = text.split("\n")
    gateway = any(ln.strip() == "!output" for ln in lines)
    i = 0
    n = len(lines)
    while i < n:
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#") or MARKER.match(stripped):
            i += 1
            continue
        start = i
        sql_lines = []
        while i < n:
            line = lines[i]
            if gateway and line.strip() == "!output":
                i += 1
                break
            sql_lines.append(line)
            i += 1
            if not gateway and line.rstrip().endswith(";"):
                break
        out_lines = []
        marker = ""
        while i < n:
            m = MARKER.match(lines[i].strip())
            i += 1
            if m and m.group(1) != "output":
                marker = m.group(1)
                break
            if not m:
                out_lines.append(lines[i - 1])
        sql = "\n".join(sql_lines).strip()
        if sql.endswith(";"):
            sql = sql[:-1].rstrip()
        cases.append(Case(sql, start + 1, marker, "\n".join(out_lines).strip("\n"), gateway))
    return cases


def _columns(border: str) -> list[tuple[int, int]]:
    plus = [k for k, c in enumerate(border) if c == "+"]
    return list(itertools.pairwise(plus))


def _cells(row: str, spans: list[tuple[int, int]]) -> list[str]:
    if len(spans) == 1:
        inner = row.strip()
        return [inner[1:-1].strip()]
    if len(row) == spans[-1][1] + 1:
        return [row[a + 1 : b].strip() for a, b in spans]
    return [c.strip() for c in row.strip()[1:-1].split(" | ")]


def parse_table(output: str) -> list[list[str]] | None:
    """The rows of a table Flink printed (header dropped), [] for ``Empty set``, None when the
    output is no table. A cell may span lines (``SHOW CREATE TABLE``)."""
    lines = [ln for ln in output.split("\n")]
    body = [ln for ln in lines if ln.strip() and not FOOTER.match(ln.strip())]
    if any(ln.strip() == "Empty set" for ln in lines) and not body:
        return []
    if not body or not BORDER.match(body[0].strip()):
        return None
    spans = _columns(body[0].strip())
    borders = [k for k, ln in enumerate(body) if BORDER.match(ln.strip())]
    if len(borders) < 3:
        return None
    header_end, last = borders[1], borders[-1]
    header = _cells(" ".join(body[1:header_end]), spans)
    rows: list[list[str]] = []
    pending: list[str] = []
    for ln in body[header_end + 1 : last]:
        pending.append(ln)
        if ln.rstrip().endswith("|"):
            text = "\n".join(pending)
            pending = []
            rows.append(_cells(text, spans))
    if header and header[0] == "op":
        ops = {r[0] for r in rows}
        if ops <= {"+I"}:
            rows = [r[1:] for r in rows]
    return rows


# ---- our side ----------------------------------------------------------------------------


def _frac(text: str) -> str:
    """Fractional seconds without trailing zeros: ``12:00:01.100`` and ``12:00:01.1`` alike."""
    m = re.match(r"^(.*\d{2}:\d{2}:\d{2})\.(\d+)(.*)$", text)
    if not m:
        return text
    digits = m.group(2).rstrip("0")
    return m.group(1) + ("." + digits if digits else "") + m.group(3)


def flink_text(value: Any) -> str:  # noqa: PLR0911
    """A value as Flink's tableau prints it (up to the normalisations of the docstring)."""
    if value is None:
        return "<NULL>"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    interval = _interval(value)
    if interval is not None:
        return interval
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.replace(tzinfo=None)
        return _frac(value.isoformat(sep=" "))
    if isinstance(value, (datetime.date, datetime.time)):
        return _frac(value.isoformat())
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, bytes):
        return "x'" + value.hex() + "'"
    if isinstance(value, list):
        if value and all(isinstance(v, tuple) and len(v) == 2 for v in value):  # a MAP
            return "{" + ", ".join(f"{flink_text(k)}={flink_text(v)}" for k, v in value) + "}"
        return "[" + ", ".join(flink_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "(" + ", ".join(flink_text(v) for v in value.values()) + ")"
    return str(value)


_PARTITIONS = re.compile(r"partitions=\[((?:\{[^{}]*\}(?:, )?)*)\]")


def _ordered_partitions(m: re.Match[str]) -> str:
    return "partitions=[" + ", ".join(sorted(re.findall(r"\{[^{}]*\}", m.group(1)))) + "]"


def _norm(cell: str) -> str:
    cell = _PARTITIONS.sub(_ordered_partitions, cell.strip())
    if cell.upper() in ("TRUE", "FALSE"):
        return cell.upper()
    return _frac(cell)


def _cell_same(flink: str, ours: str) -> bool:
    flink, ours = _norm(flink), _norm(ours)
    if flink == ours or (flink == "" and ours == "<NULL>"):
        return True
    if "\n" in flink or "\n" in ours:
        # A text of several lines (SHOW CREATE, EXPLAIN in the client's table): whitespace
        # collapsed, as the gateway's text is compared.
        return _collapse(flink) == _collapse(ours)
    return flink.endswith("...") and ours.startswith(flink[:-3]) and len(ours) > len(flink) - 3


def rows_same(flink: list[list[str]], ours: list[list[str]], ordered: bool) -> bool:
    if len(flink) != len(ours):
        return False

    def same_row(a: list[str], b: list[str]) -> bool:
        return len(a) == len(b) and all(_cell_same(x, y) for x, y in zip(a, b, strict=True))

    if all(same_row(a, b) for a, b in zip(flink, ours, strict=True)):
        return True
    if ordered:
        return False
    left = list(ours)
    for row in flink:
        for k, cand in enumerate(left):
            if same_row(row, cand):
                del left[k]
                break
        else:
            return False
    return True


def _collapse(text: str) -> str:
    return " ".join(text.split())


# ---- classification -----------------------------------------------------------------------

SKIP_JAR = re.compile(r"^\s*(ADD|REMOVE)\s+JAR\b|^\s*SHOW\s+JARS\b", re.IGNORECASE)
BEGIN_SET = re.compile(r"^\s*BEGIN\s+STATEMENT\s+SET\s*$", re.IGNORECASE)
END = re.compile(r"^\s*END\s*$", re.IGNORECASE)
SET_MEMBER = re.compile(r"^\s*(INSERT\b|CREATE\s+TABLE\b[^(]*?\bAS\b)", re.IGNORECASE | re.DOTALL)
ORDER_BY = re.compile(r"\bORDER\s+BY\b", re.IGNORECASE)
VAR = re.compile(r"\$VAR_[A-Z0-9_]+")
PATH_VAR = re.compile(r"\$VAR_[A-Z0-9_]*PATH[0-9]*\b")
# Flink's own test connectors and catalogs, and Hive, which need Flink's test jars or a Hive
# installation: a statement that creates one is skipped and so is every later statement that
# names what it created (in its SQL or in Flink's answer).
TEST_OBJECT = re.compile(
    r"^\s*(?:CREATE|LOAD)\s+(?:TEMPORARY\s+)?(?:TABLE|CATALOG|MODULE)\s+"
    r"(?:IF\s+NOT\s+EXISTS\s+)?(?P<name>[`\w.]+)(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
TEST_KIND = re.compile(
    r"'(?:connector|type)'\s*=\s*'(?P<kind>values|test[-_][\w-]*|hive[\w-]*)'", re.IGNORECASE
)
# A Java class of Flink's test jars named by CREATE/ALTER FUNCTION.
TEST_FUNCTION = re.compile(
    r"^\s*(?:CREATE|ALTER)\s+(?:TEMPORARY\s+)?(?:SYSTEM\s+)?FUNCTION\s+(?:IF\s+NOT\s+EXISTS\s+)?"
    r"(?P<name>[`\w.]+)\s+AS\s+'(?P<cls>[^']*)'",
    re.IGNORECASE,
)
# Statements that do not touch the current catalog's objects.
CATALOG_FREE = re.compile(
    r"^\s*(SET|RESET|SHOW\s+(CATALOGS|MODULES|FULL\s+MODULES|JARS)|USE\s+CATALOG|HELP)\b",
    re.IGNORECASE,
)
QUALIFIED = re.compile(r"(?<![\w.`])([`\w]+)\.[`\w]+\.[`\w]+")
# A statement set written as one statement (EXECUTE|EXPLAIN|COMPILE ... STATEMENT SET BEGIN ...
# END): its semicolons are inside it.
SET_BLOCK = re.compile(r"\bSTATEMENT\s+SET\s+BEGIN\b", re.IGNORECASE)
USE_CATALOG = re.compile(r"^\s*USE\s+CATALOG\s+([`\w]+)\s*$", re.IGNORECASE)
ONLY_VALUES = re.compile(r"\bwith\s*\(\s*'connector'\s*=\s*'values'\s*\)", re.IGNORECASE)


@dataclass
class Outcome:
    file: str
    line: int
    sql: str
    kind: str  # same, rows differ, we fail, we accept, skipped
    detail: str = ""


def statement_count(sql: str) -> int:
    """How many statements ``sql`` holds: its non-blank parts between the semicolons outside
    quotes, backticks and ``--`` comments."""
    parts = []
    current: list[str] = []
    quote = ""
    i = 0
    while i < len(sql):
        c = sql[i]
        if quote:
            if c == quote:
                quote = ""
        elif c in "'`\"":
            quote = c
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            i = len(sql) if end < 0 else end
            continue
        elif c == ";":
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    parts.append("".join(current))
    return sum(1 for p in parts if p.strip())


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"\w+", text)}


@dataclass
class Script:
    """The state of one file's run: the temporary folders that stand for the harness's path
    placeholders, and the names created with something this process cannot run."""

    tmp: Path
    unavailable: dict[str, str] = field(default_factory=dict)  # name -> why
    catalog: str | None = None  # the current catalog, when it is one we could not make

    def prepare(self, case: Case) -> tuple[str | None, str | None]:  # noqa: PLR0911, PLR0912
        """The SQL to run (placeholders of paths replaced, Flink's empty test table 'values'
        made a 'memory' one) and why the statement is skipped, if it is."""
        sql = case.sql
        for var in sorted(set(PATH_VAR.findall(sql)), key=len, reverse=True):
            if "JAR" in var:
                continue
            # $VAR_X_RELATIVE_PATH is the folder of $VAR_X_PATH, relative to the working folder.
            relative = "_RELATIVE_PATH" in var
            folder = self.tmp / var[5:].replace("_RELATIVE_PATH", "_PATH").lower()
            folder.mkdir(parents=True, exist_ok=True)
            sql = sql.replace(var, os.path.relpath(folder) if relative else str(folder))
        m = TEST_OBJECT.match(sql)
        if m and not ONLY_VALUES.search(sql):
            kind = TEST_KIND.search(m.group("rest"))
            module = sql.lstrip().upper().startswith("LOAD") and "hive" in m.group("name").lower()
            if kind or module:
                name = m.group("name").replace("`", "").split(".")[-1].lower()
                what = kind.group("kind") if kind else "hive"
                self.unavailable[name] = f"uses {name}, made with {what}"
                return None, f"needs Flink's test connector or Hive ({what})"
        if VAR.search(sql):
            return None, "placeholder of Flink's test harness ($VAR_...)"
        if case.gateway and statement_count(sql) > 1 and not SET_BLOCK.search(sql):
            # The gateway's REST protocol takes one statement a request and refuses a text of
            # several ("only single statement supported") before any engine reads it.
            return None, "several statements in one request to Flink's SQL gateway"
        if VAR.search(case.output):
            return None, "Flink's answer holds a placeholder of its test harness ($VAR_...)"
        if SKIP_JAR.match(sql):
            return None, "Flink's test jars (ADD/REMOVE/SHOW JARS)"
        if "$internal." in sql:
            return None, "setting of Flink's test harness ($internal.*)"
        use = USE_CATALOG.match(sql)
        if use:
            name = use.group(1).replace("`", "").lower()
            self.catalog = name if name in self.unavailable else None
        qualified = QUALIFIED.findall(sql)
        elsewhere = qualified and all(
            q.replace("`", "").lower() not in self.unavailable for q in qualified
        )
        if self.catalog is not None and not CATALOG_FREE.match(sql) and not elsewhere:
            return None, f"runs in catalog {self.catalog}, which needs Flink's test jars or Hive"
        if any(re.match(r"^\|\s*(-U|\+U|-D)\s*\|", ln) for ln in case.output.split("\n")):
            return None, "changelog with retractions of a streaming query"
        words = _words(sql) | _words(case.output)
        for name, why in self.unavailable.items():
            if name in words:
                return None, why
        sql = ONLY_VALUES.sub("WITH ('connector' = 'memory')", sql)
        m = TEST_FUNCTION.match(sql)
        if m and not m.group("cls").startswith("calcite_bridge"):
            name = m.group("name").replace("`", "").split(".")[-1].lower()
            self.unavailable[name] = f"uses {name}, a class of Flink's test jars"
            return None, f"class of Flink's test jars ({m.group('cls')})"
        return sql, None


def _first_line(e: BaseException) -> str:
    text = str(e).strip().split("\n")[0]
    return f"{type(e).__name__}: {text}"[:200]


def _interval(value: Any) -> str | None:
    """Flink's text of an INTERVAL: ``+1 00:00:00.000`` (day-time), ``+1-00`` (year-month)."""
    if isinstance(value, datetime.timedelta):
        total = value.total_seconds()
        sign = "-" if total < 0 else "+"
        ms = round(abs(total) * 1000)
        days, ms = divmod(ms, 86_400_000)
        h, ms = divmod(ms, 3_600_000)
        m, ms = divmod(ms, 60_000)
        sec, ms = divmod(ms, 1000)
        return f"{sign}{days} {h:02d}:{m:02d}:{sec:02d}.{ms:03d}"
    months = getattr(value, "months", None)
    if months is not None and getattr(value, "days", 0) == 0:
        sign = "-" if months < 0 else "+"
        y, mo = divmod(abs(months), 12)
        return f"{sign}{y}-{mo:02d}"
    return None


@dataclass
class Runner:
    timeout: float
    outcomes: list[Outcome] = field(default_factory=list)

    def run_file(self, path: Path, name: str) -> list[Outcome]:
        import tempfile

        import calcite_bridge as cb

        cases = parse_q(path.read_text(encoding="utf-8"))
        out: list[Outcome] = []
        env = cb.connect()
        # The SQL client's default mode, which the scripts' answers were made in (a script that
        # sets execution.runtime-mode itself sets it here too); calcite-bridge's is batch.
        env.config.set("execution.runtime-mode", "streaming")
        pending: list[tuple[Case, str]] | None = None  # an open BEGIN STATEMENT SET
        with tempfile.TemporaryDirectory(prefix="flink-q-") as tmp:
            script = Script(Path(tmp))
            try:
                for case in cases:
                    sql, reason = script.prepare(case)
                    if reason or sql is None:
                        out.append(Outcome(name, case.line, case.sql, "skipped", reason or ""))
                        continue
                    if pending is not None:
                        if END.match(sql):
                            out.extend(self._run_set(env, name, pending, case))
                            pending = None
                        elif SET_MEMBER.match(sql):
                            pending.append((case, sql))
                        else:
                            # Only INSERT (and CTAS) may be added to a statement set.
                            text = f"BEGIN STATEMENT SET;\n{sql};\nEND"
                            out.append(self._run(env, name, case, text))
                        continue
                    if BEGIN_SET.match(sql):
                        pending = [(case, sql)]
                        continue
                    out.append(self._run(env, name, case, sql))
                if pending is not None:
                    out.extend(self._run_set(env, name, pending, None))
            finally:
                env.close()
        return out

    def _run_set(
        self, env: Any, name: str, members: list[tuple[Case, str]], end: Case | None
    ) -> list[Outcome]:
        """The SQL client's ``BEGIN STATEMENT SET; ...; END;`` runs as one statement at its
        END; the BEGIN, each INSERT and the END are judged by how that statement ran."""
        inserts = [sql for _, sql in members[1:]]
        text = "BEGIN STATEMENT SET;\n" + "".join(f"{s};\n" for s in inserts) + "END"
        error: BaseException | None = None
        try:
            env.execute(text, timeout=self.timeout).fetchall()
        except Exception as e:  # any error is an outcome
            error = e
        cases = [c for c, _ in members] + ([end] if end else [])
        return [self._judge(name, c, error, None) for c in cases]

    def _run(self, env: Any, name: str, case: Case, sql: str) -> Outcome:
        error: BaseException | None = None
        rows: list[list[str]] | None = None
        try:
            result = env.execute(sql, timeout=self.timeout)
            rows = [[flink_text(v) for v in r] for r in result.fetchall()]
        except Exception as e:  # any error is an outcome
            error = e
        return self._judge(name, case, error, rows)

    def _judge(  # noqa: PLR0911
        self,
        name: str,
        case: Case,
        error: BaseException | None,
        rows: list[list[str]] | None,
    ) -> Outcome:
        import calcite_bridge as cb

        def outcome(kind: str, detail: str = "") -> Outcome:
            return Outcome(name, case.line, case.sql, kind, detail)

        if case.marker == "error":
            if error is None:
                return outcome("we accept", case.output.split("\n")[-1][:200])
            if isinstance(error, cb.Error) and type(error) is not cb.Error:
                return outcome("same")
            return outcome("we fail", "untyped error " + _first_line(error))
        if error is not None:
            return outcome("we fail", _first_line(error))
        table = case.table
        # Success messages: !info, a gateway's OK table, a job submitted (its id).
        job = re.search(r"^\|\s*job id\s*\|$", case.output, re.MULTILINE)
        if case.marker == "info" or rows is None or table == [["OK"]] or job:
            return outcome("same")
        if table is None:
            # Text (EXPLAIN, SHOW CREATE, HELP): compared with our result's text.
            ours = "\n".join(" ".join(r) for r in rows)
            if _collapse(ours) == _collapse(case.output):
                return outcome("same")
            return outcome("rows differ", "text: " + _collapse(ours)[:120])
        if rows == [["OK"]]:
            rows = []  # a DDL's or SET's acknowledgement is no row of Flink's
        ordered = bool(ORDER_BY.search(case.sql))
        if rows_same(table, rows, ordered):
            return outcome("same")
        return outcome(
            "rows differ",
            f"flink {len(table)} rows {json.dumps(table[:2])[:150]}; "
            f"ours {len(rows)} rows {json.dumps(rows[:2])[:150]}",
        )


KINDS = ("same", "rows differ", "we fail", "we accept", "skipped")


def _summary(name: str, outcomes: list[Outcome]) -> dict[str, Any]:
    counts = Counter(o.kind for o in outcomes)
    total = len(outcomes)
    run = total - counts["skipped"]
    return {
        "file": name,
        "total": total,
        **{k: counts[k] for k in KINDS},
        "same_pct": round(100 * counts["same"] / total, 1) if total else None,
        "same_pct_of_run": round(100 * counts["same"] / run, 1) if run else None,
    }


def _files(paths: list[str]) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for p in map(Path, paths):
        if p.is_dir():
            found += [(f, f"{p.name}/{f.relative_to(p)}") for f in sorted(p.rglob("*.q"))]
        else:
            found.append((p, p.name))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help=".q files or directories holding them")
    parser.add_argument("--details", action="store_true", help="print each non-same statement")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per statement")
    args = parser.parse_args(argv)
    runner = Runner(args.timeout)
    everything: list[Outcome] = []
    for path, name in _files(args.paths):
        outcomes = runner.run_file(path, name)
        everything += outcomes
        print(json.dumps(_summary(name, outcomes)), flush=True)
        if args.details:
            for o in outcomes:
                if o.kind != "same":
                    sql = " ".join(o.sql.split())[:160]
                    print(
                        json.dumps(
                            {"file": o.file, "line": o.line, "kind": o.kind, "sql": sql}
                            | {"detail": o.detail}
                        ),
                        flush=True,
                    )
    print(json.dumps(_summary("TOTAL", everything)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
