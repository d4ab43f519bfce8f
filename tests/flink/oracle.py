"""Flink's built-in functions as an oracle: cases, golden answers, known differences.

``tests/flink/cases/<category>.sql`` hold the cases. ``-- function: NAME`` starts the cases of
one function; every other line that is neither blank nor a comment is one case: an expression,
run as ``SELECT <expression>``, or a whole query (a line starting with SELECT, VALUES or WITH).
A line ``-- table.local-time-zone: ZONE`` sets the session time zone of every case of the file
(UTC otherwise), in Flink and here (:func:`zone_of`).

``tools/flink_golden.py`` runs every case in PyFlink and writes
``tests/flink/golden/<category>.tsv`` (``function  sql  type  result``): Flink's result type
and its rows as text (:func:`render`), or ``error: <message>`` when Flink refuses the query.
``tests/flink/functions.tsv`` lists the functions Flink's SQL has, with their kind.

``tests/flink/expected.tsv`` lists the cases known to differ here, per backend (``*`` for
all), with the outcome (:data:`OUTCOMES`), the kind of difference (:data:`KINDS`) and the
reason. ``tests/test_flink_functions.py``
fails on a difference that is not listed and on a listed one that no longer happens, so the list
only shrinks. ``docs/flink-compatibility.md`` is rendered from the same files (:func:`render_docs`).

This module needs neither PyFlink nor calcite_bridge.
"""

from __future__ import annotations

import datetime
import decimal
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
GOLDEN = HERE / "golden"
FUNCTIONS = HERE / "functions.tsv"
EXPECTED = HERE / "expected.tsv"
ROOT = HERE.parent.parent
DOCS = ROOT / "docs" / "flink-compatibility.md"

BACKENDS = ("auto", "enumerable", "duckdb")

#: How a case can differ from Flink's answer.
OUTCOMES = {
    "missing": "the function does not exist here",
    "error": "an error here where Flink answers",
    "no-error": "an answer here where Flink raises an error",
    "value": "a different value",
    "type": "the same value with a different type",
    "error-class": (
        "an error of another class than Flink's (refused before running, or failed while running)"
    ),
}

#: Flink's errors that refuse a query before it runs (parsing, validation, planning), and those
#: raised while it runs; others (IllegalArgumentException, CompileException: Flink's internal
#: failures at either stage) are not compared by class.
_FLINK_REFUSED = frozenset(
    "ValidationException SqlValidatorException CalciteContextException SqlParserException "
    "SqlParseException ParseException TableException".split()
)
_FLINK_FAILED = frozenset(
    "TableRuntimeException RuntimeException FlinkRuntimeException VariantTypeException "
    "UnsupportedEncodingException JsonParseException BufferUnderflowException "
    "NullPointerException EnforcerException ArithmeticException NumberFormatException "
    "DateTimeException DateTimeParseException".split()
)
#: The errors here that refuse a query before it runs; every other is raised while it runs.
_REFUSED = frozenset(
    "SqlParseError SqlValidationError UnsupportedError CatalogError ConfigError".split()
)

#: Why a case differs. A line of ``expected.tsv`` without a kind counts as a gap.
KINDS = {
    "flink-defect": "Flink fails, or contradicts its own documentation; here the documented answer",
    "deliberate": "a deliberate difference: integer overflow raises an error here",
    "gap": "here differs, and Flink is right",
}

_QUERY = re.compile(r"^\s*(SELECT|VALUES|WITH)\b", re.IGNORECASE)
_MISSING = re.compile(
    r"No match found for function signature|Function '[^']*' not found|Unknown function",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Case:
    category: str
    function: str
    sql: str
    line: int
    #: Whether the line was an expression (run as ``SELECT <expression>``), not a whole query.
    expression: bool


@dataclass(frozen=True)
class Golden:
    category: str
    function: str
    sql: str
    type: str
    result: str

    @property
    def error(self) -> bool:
        return self.result.startswith("error: ")


@dataclass(frozen=True)
class Known:
    backend: str
    sql: str
    outcome: str
    reason: str
    kind: str = "gap"


_ZONE = re.compile(r"--\s*table\.local-time-zone:\s*(\S+)\s*$")


def zone_of(category: str, directory: Path = CASES) -> str:
    """The session time zone the cases of a category run in: the file's
    ``-- table.local-time-zone: ZONE`` line, or UTC."""
    path = directory / f"{category}.sql"
    for raw in path.read_text().splitlines() if path.exists() else []:
        m = _ZONE.match(raw.strip())
        if m:
            return m.group(1)
    return "UTC"


def load_cases(directory: Path = CASES) -> list[Case]:
    """Every case of every category file, in file order."""
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.sql")):
        function = ""
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.strip()
            where = f"{path.name}:{number}"
            if not line:
                continue
            if line.startswith("--"):
                m = re.match(r"--\s*function:\s*(\S+)\s*$", line)
                if m:
                    function = m.group(1).upper()
                continue
            if not function:
                raise ValueError(f"{where}: a case before the first '-- function:' line")
            expression = not _QUERY.match(line)
            sql = f"SELECT {line}" if expression else line
            if sql in seen:
                raise ValueError(f"{where}: the same case as {seen[sql]}")
            seen[sql] = where
            cases.append(Case(path.stem, function, sql, number, expression))
    return cases


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(m.group(1), m.group(1)), text)


GOLDEN_HEADER = (
    "# Flink's answers (PyFlink {version}, batch mode), written by tools/flink_golden.py from\n"
    "# tests/flink/cases/{category}.sql; do not edit.\n"
    "# function\tsql\ttype\tresult\n"
)


def write_golden(category: str, rows: Iterable[Golden], version: str) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    lines = [GOLDEN_HEADER.format(version=version, category=category)]
    for g in rows:
        cells = (g.function, g.sql, g.type, g.result)
        lines.append("\t".join(_escape(c) for c in cells) + "\n")
    (GOLDEN / f"{category}.tsv").write_text("".join(lines))


def load_golden(directory: Path = GOLDEN) -> list[Golden]:
    out: list[Golden] = []
    for path in sorted(directory.glob("*.tsv")):
        for line in path.read_text().splitlines():
            if not line or line.startswith("#"):
                continue
            function, sql, type_, result = (_unescape(c) for c in line.split("\t"))
            out.append(Golden(path.stem, function, sql, type_, result))
    return out


def load_functions() -> list[tuple[str, str]]:
    """Flink's functions: (name, kind) with kind ``scalar``, ``aggregate`` or ``table``."""
    out = []
    for line in FUNCTIONS.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, kind = line.partition("\t")
            out.append((name, kind))
    return out


def load_known(path: Path = EXPECTED) -> list[Known]:
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) == 5 and cells[3] in KINDS:
            backend, sql, outcome_, kind, reason = cells
        elif len(cells) == 4:
            (backend, sql, outcome_, reason), kind = cells, "gap"
        else:
            raise ValueError(
                f"{path.name}:{number}: expected 'backend  sql  outcome  kind  reason' with a kind"
                f" of {', '.join(KINDS)}"
            )
        if outcome_ not in OUTCOMES:
            raise ValueError(f"{path.name}:{number}: unknown outcome {outcome_!r}")
        out.append(Known(backend, sql, outcome_, reason, kind))
    return out


def known_for(known: Sequence[Known], sql: str, backend: str) -> Known | None:
    for k in known:
        if k.sql == sql and k.backend in ("*", backend):
            return k
    return None


# ---- values as text -------------------------------------------------------------------------


def render_value(value: object) -> str:  # noqa: PLR0911
    """One value as text, the same whichever side produced it."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bytes | bytearray | memoryview):
        return "X'" + bytes(value).hex().upper() + "'"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        pairs = sorted((render_value(k), render_value(v)) for k, v in value.items())
        inner = ", ".join(f"{k}: {v}" for k, v in pairs)
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(render_value(v) for v in value) + ")"
    return repr(value)


def render(rows: Sequence[Sequence[object]]) -> str:
    """A result's rows as text: one value per one-column row, rows sorted (Flink's order of VALUES
    rows is not stable) and separated by `` | ``."""
    out = []
    for row in rows:
        if len(row) == 1:
            out.append(render_value(row[0]))
        else:
            out.append("(" + ", ".join(render_value(v) for v in row) + ")")
    return " | ".join(sorted(out))


def render_error(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "error"
    return "error: " + first[:200]


def outcome(golden: Golden, type_: str | None, result: str | None, error: str | None) -> str | None:
    """How an answer here differs from Flink's; None when it is the same."""
    if error is not None:
        if golden.error:
            return None if _same_class(golden.result, error) else "error-class"
        return "missing" if _MISSING.search(error) else "error"
    if golden.error:
        return "no-error"
    if result != golden.result:
        return "value"
    if type_ != golden.type:
        return "type"
    return None


def _same_class(flink: str, error: str) -> bool:
    """Whether an error here (``SqlValidationError: ...``) is of the class of Flink's (``error:
    ValidationException: ...``): both refuse the query before it runs, or both fail while it runs.
    """
    name = flink.removeprefix("error: ").split(":", 1)[0].strip()
    refused = error.split(":", 1)[0].strip() in _REFUSED
    if name in _FLINK_REFUSED:
        return refused
    if name in _FLINK_FAILED:
        return not refused
    return True


# ---- the compatibility page -----------------------------------------------------------------


def function_status(
    goldens: Sequence[Golden], known: Sequence[Known], backend: str = "auto"
) -> dict[str, tuple[str, list[str]]]:
    """Per function with cases: (status, reasons). The status is ``same``, ``missing`` (every case
    is missing), or the kind (:data:`KINDS`) of its differing cases that weighs most: ``gap``, then
    ``deliberate``, then ``flink-defect``."""
    by_function: dict[str, list[Golden]] = {}
    for g in goldens:
        by_function.setdefault(g.function, []).append(g)
    out: dict[str, tuple[str, list[str]]] = {}
    for function, cases in by_function.items():
        hits = [k for g in cases if (k := known_for(known, g.sql, backend)) is not None]
        reasons = list(dict.fromkeys(k.reason for k in hits))
        if not hits:
            out[function] = ("same", [])
        elif len(hits) == len(cases) and all(k.outcome == "missing" for k in hits):
            out[function] = ("missing", reasons)
        else:
            kinds = {k.kind for k in hits}
            worst = next(k for k in ("gap", "deliberate", "flink-defect") if k in kinds)
            out[function] = (worst, reasons)
    return out


_STATUS_TEXT = {
    "same": "same result",
    "flink-defect": "differs only by a Flink defect",
    "deliberate": "deliberate difference",
    "gap": "gap",
    "missing": "missing",
    "untested": "no cases yet",
}


def _share(n: int, total: int) -> str:
    return f"{n} of {total} ({100 * n / total:.1f}%)" if total else "0"


def render_docs(
    goldens: Sequence[Golden], known: Sequence[Known], functions: Sequence[tuple[str, str]]
) -> str:
    status = function_status(goldens, known)
    categories: dict[str, str] = {}
    counts: dict[str, int] = {}
    for g in goldens:
        categories.setdefault(g.function, g.category)
        counts[g.function] = counts.get(g.function, 0) + 1
    kinds = dict(functions)
    names = sorted(set(kinds) | set(status))
    tally = {s: 0 for s in _STATUS_TEXT}
    for n in names:
        tally[status.get(n, ("untested", []))[0]] += 1
    tested = len(status)
    lines = [
        "# Flink SQL functions: compatibility",
        "",
        "<!-- Generated by `make golden-flink` (tools/flink_golden.py) from tests/flink/; "
        "do not edit. -->",
        "",
        "Every built-in function of Flink 2.3 that SQL calls (the built-in function definitions "
        "of PyFlink 2.3.0 with a SQL name, in `tests/flink/functions.tsv`) and how it "
        "runs here. Each function with cases in `tests/flink/cases/` is run in Flink, whose "
        "value and type are kept in `tests/flink/golden/`; `tests/test_flink_functions.py` runs "
        "the same cases here, on every backend, and compares both. A function has the *same "
        "result* when every case gives Flink's value and type on the default backend; the "
        "cases that differ are listed, with the kind of difference and the reason, in "
        "`tests/flink/expected.tsv`. A function that differs is counted by the kind of its "
        "differences that weighs most: a *gap* (here differs, and Flink is right), a "
        "*deliberate* difference (integer overflow raises an error here, where Flink wraps "
        "around; see [Differences from Flink SQL](flink.md)), or a *Flink defect* (Flink fails "
        "on the case, or contradicts its own documentation, and the answer here is the "
        "documented one). "
        "Operators written as symbols (`+`, `=`, ...) and syntax (`AND`, `BETWEEN`, `LIKE`) "
        "are not listed; functions of Calcite's standard that cases cover (`NULLIF`) are.",
        "",
        f"Functions: {len(names)}. With cases: {tested}. No cases yet: {tally['untested']}.",
        "",
        "| status | functions |",
        "| --- | --- |",
        f"| the same result as Flink on every case | {tally['same']} |",
        f"| differs only by a Flink defect | {tally['flink-defect']} |",
        f"| deliberate difference | {tally['deliberate']} |",
        f"| gap | {tally['gap']} |",
        f"| missing | {tally['missing']} |",
        f"| no cases yet | {tally['untested']} |",
        "",
        "Matching Flink or its documentation on every case: "
        f"{_share(tally['same'] + tally['flink-defect'], len(names))}. "
        f"The same as Flink on every case (strict): {_share(tally['same'], len(names))}.",
        "",
        "| function | kind | category | cases | status | why |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for n in names:
        st, reasons = status.get(n, ("untested", []))
        why = "; ".join(reasons).replace("|", "\\|")
        lines.append(
            f"| `{n}` | {kinds.get(n, '')} | {categories.get(n, '')} | {counts.get(n, 0)} "
            f"| {_STATUS_TEXT[st]} | {why} |"
        )
    return "\n".join(lines) + "\n"


# ---- Flink statements: scripts -------------------------------------------------------------
#
# ``tests/flink/scripts/<name>.sql`` are scripts of Flink statements, each run in order in one
# fresh environment, as Flink's SQL client runs a file; statements are split as
# ``calcite_bridge.script.split_all`` splits them (the client's ``BEGIN STATEMENT SET; ...;
# END;`` is one statement). ``${tmp}`` stands for a new empty folder of each run.
#
# ``tools/flink_golden.py scripts`` runs them in PyFlink and writes
# ``tests/flink/golden/scripts/<name>.tsv``, one line per statement:
# ``number  line  statement  outcome  result`` (tab-separated, ``\t``, ``\n`` and ``\\``
# escaped), where ``outcome`` is
#   - ``ok``: the statement succeeded without rows (DDL, SET, an INSERT or statement set whose
#     job finished); ``result`` is empty;
#   - ``rows``: ``result`` is ``{"columns": [...], "rows": [[cell, ...], ...]}`` (JSON), each
#     cell as Flink's client prints it (``tools/flink_q.py``'s ``flink_text``); a query's rows
#     sorted unless it has an ORDER BY of its own (:func:`is_ordered`), other statements' rows
#     (SHOW, DESCRIBE) in Flink's order;
#   - ``error``: ``result`` is ``Class: first line of the message`` of the exception
#     ``execute_sql`` raised, followed by `` | caused by Class: first line`` of its innermost
#     cause when that says something else.
# A script line ``-- folders: a b`` makes the folders ``${tmp}/a`` and ``${tmp}/b`` before the
# script runs (the filesystem connector's paths; here a missing path is refused).
# ``tests/flink/scripts_expected.tsv`` lists the statements known to differ here, with why.

SCRIPTS = HERE / "scripts"
SCRIPT_GOLDEN = GOLDEN / "scripts"
SCRIPT_EXPECTED = HERE / "scripts_expected.tsv"
TMP = "${tmp}"

SCRIPT_OUTCOMES = ("ok", "rows", "error")

#: How a statement here can differ from Flink's answer (the ``difference`` column).
SCRIPT_DIFFERENCES = {
    "we fail": "Flink runs the statement; here it is refused",
    "we accept": "Flink refuses the statement; here it runs",
    "rows": "both answer with rows, not the same ones (or other column names)",
    "untyped": "refused here with the base cb.Error or an exception that is no cb.Error",
}


@dataclass(frozen=True)
class StatementGolden:
    script: str
    number: int  # the statement's place in its script, from 1
    line: int  # the script line it starts on
    sql: str
    outcome: str
    result: str

    @property
    def table(self) -> tuple[list[str], list[list[str]]]:
        data = json.loads(self.result)
        return data["columns"], data["rows"]


@dataclass(frozen=True)
class KnownStatement:
    script: str
    line: int
    sql: str  # the statement's start, as the line of scripts_expected.tsv gives it
    difference: str
    kind: str
    reason: str


SCRIPT_GOLDEN_HEADER = (
    "# Flink's answers (PyFlink {version}, batch mode, parallelism 1), written by\n"
    "# tools/flink_golden.py scripts from tests/flink/scripts/{name}.sql; do not edit.\n"
    "# number\tline\tstatement\toutcome\tresult\n"
)


def rows_json(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return json.dumps(
        {"columns": list(columns), "rows": [list(r) for r in rows]}, ensure_ascii=False
    )


def write_script_golden(name: str, rows: Iterable[StatementGolden], version: str) -> None:
    SCRIPT_GOLDEN.mkdir(parents=True, exist_ok=True)
    lines = [SCRIPT_GOLDEN_HEADER.format(version=version, name=name)]
    for g in rows:
        cells = (str(g.number), str(g.line), g.sql, g.outcome, g.result)
        lines.append("\t".join(_escape(c) for c in cells) + "\n")
    (SCRIPT_GOLDEN / f"{name}.tsv").write_text("".join(lines))


def load_script_golden(name: str) -> list[StatementGolden]:
    out = []
    for raw in (SCRIPT_GOLDEN / f"{name}.tsv").read_text().splitlines():
        if not raw or raw.startswith("#"):
            continue
        number, line, sql, outcome_, result = (_unescape(c) for c in raw.split("\t"))
        if outcome_ not in SCRIPT_OUTCOMES:
            raise ValueError(f"{name}.tsv: unknown outcome {outcome_!r}")
        out.append(StatementGolden(name, int(number), int(line), sql, outcome_, result))
    return out


def script_names() -> list[str]:
    return sorted(p.stem for p in SCRIPTS.glob("*.sql"))


def load_known_statements(path: Path = SCRIPT_EXPECTED) -> list[KnownStatement]:
    """The lines of scripts_expected.tsv: ``script  line  statement  difference  kind  reason``,
    where ``statement`` is the start of the statement (enough to read which it is)."""
    out = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = raw.split("\t")
        if len(cells) != 6:
            raise ValueError(
                f"{path.name}:{number}: expected 'script  line  statement  difference  kind  "
                f"reason', not {len(cells)} cells"
            )
        script, line, sql, difference, kind, reason = cells
        if difference not in SCRIPT_DIFFERENCES:
            raise ValueError(f"{path.name}:{number}: unknown difference {difference!r}")
        if kind not in KINDS:
            raise ValueError(f"{path.name}:{number}: unknown kind {kind!r}")
        out.append(KnownStatement(script, int(line), sql, difference, kind, reason))
    return out


_QUERY_START = re.compile(r"^\s*(SELECT|WITH|VALUES|\()", re.IGNORECASE)
_OVER = re.compile(r"\bOVER\s*\([^()]*\)", re.IGNORECASE)
_ORDER_BY = re.compile(r"\bORDER\s+BY\b", re.IGNORECASE)


def is_ordered(sql: str) -> bool:
    """Whether a statement's rows come in an order that is part of its answer: a query's when it
    has an ORDER BY outside its windows (``OVER (... ORDER BY ...)`` orders no rows), every
    other statement's (SHOW and DESCRIBE list in their order)."""
    if not _QUERY_START.match(sql):
        return True
    return bool(_ORDER_BY.search(_OVER.sub("", sql)))


_FOLDERS = re.compile(r"^--\s*folders:(.*)$", re.MULTILINE)
_JARS = re.compile(r"^--\s*jars:(.*)$", re.MULTILINE)


def script_jars(text: str) -> list[str]:
    """The Flink connector artifacts a script's ``-- jars:`` lines ask PyFlink to load
    (tools/flink_golden.py); the project's own run needs none."""
    return [name for m in _JARS.finditer(text) for name in m.group(1).split()]


def script_folders(text: str) -> list[str]:
    """The folders a script's ``-- folders:`` lines ask for, under ``${tmp}``."""
    return [name for m in _FOLDERS.finditer(text) for name in m.group(1).split()]
