"""Flink's answers to the cases of tests/flink/cases/, and the compatibility page made from them.

``python tools/flink_golden.py flink`` runs in an environment with PyFlink (``pip install
apache-flink==2.3.0``, Java 17; never the project's own). It starts one batch-mode
TableEnvironment (parallelism 1; the session time zone is the case file's, UTC unless it says
otherwise), runs every case in it and writes
``tests/flink/golden/<category>.tsv`` with each case's result type (from the resolved schema) and
rows as text, or the error Flink raised, and ``tests/flink/functions.tsv`` (Flink's functions).

``python tools/flink_golden.py docs`` needs neither PyFlink nor the project: it writes
``docs/flink-compatibility.md`` from the golden files and ``tests/flink/expected.tsv``.

``python tools/flink_golden.py scripts [NAME...]`` runs the scripts of Flink statements,
``tests/flink/scripts/<name>.sql``, in PyFlink: each script in one fresh batch-mode
TableEnvironment (parallelism 1, session time zone UTC; batch is calcite-bridge's default
``execution.runtime-mode``, which tests/test_flink_scripts.py runs the scripts in), or a
streaming-mode one when the script sets ``execution.runtime-mode`` to ``streaming`` before its
other statements (the SQL client's default; a TableEnvironment takes the mode only when it is
made, so a script that changes it after another statement is refused), its statements in
order, split as calcite-bridge's client splits them (``calcite_bridge/script.py``), ``${tmp}``
replaced by a new empty folder (holding the folders that the script's ``-- folders:`` lines
name). A script's
``-- jars: ARTIFACT...`` lines name Flink connector jars (``flink-sql-connector-kafka``) that the
TableEnvironment loads (``pipeline.jars``) before the first statement; each is the newest version
of ``org.apache.flink:ARTIFACT`` in the local Maven repository (``~/.m2``), fetched beforehand
with ``mvn dependency:get -Dartifact=org.apache.flink:ARTIFACT:VERSION -Dtransitive=false``
(``flink-sql-connector-kafka:5.0.0-2.2`` for Flink 2.x). Each statement
goes to ``execute_sql`` (a query's rows are collected, an INSERT's job is waited for), except
the SQL client's own statements, which a TableEnvironment does not take and which are mapped to
what the client does with them:

- ``SET 'key' = 'value'`` and the client's unquoted ``SET key = value``: ``TableConfig.set``;
- ``RESET 'key'`` / ``RESET key``: the key removed from the TableConfig (the session's own
  ``parallelism.default`` and ``table.local-time-zone`` set back to 1 and UTC); ``RESET``: every
  key the script set, so;
- ``BEGIN STATEMENT SET; INSERT ...; ...; END;``: a ``StatementSet`` with each INSERT added
  (``add_insert_sql``), executed as one job at the ``END``.

``EXECUTE STATEMENT SET BEGIN ...; END`` goes to ``execute_sql`` as it is. It writes
``tests/flink/golden/scripts/<name>.tsv``: per statement ``ok`` (an INSERT's or statement set's
row of counts is Flink's placeholder -1, and is not kept), the rows (column names and cells as
Flink's client prints them), or the error (Flink's exception class and the first line of its
message). A query's rows are sorted unless it has an ORDER BY; SHOW's and DESCRIBE's keep
Flink's order.

``make golden-flink`` runs all three. See tests/flink/oracle.py for the formats.
"""

from __future__ import annotations

import argparse
import datetime
import decimal
import re
import sys
import zoneinfo
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.flink import oracle

FLINK_VERSION = "2.3.0"

# Names of Flink's built-in function definitions kept in functions.tsv: SQL function names, not
# operator symbols (`+`, `IS NULL`), and not the definitions that are syntax rather than functions
# (AND, BETWEEN, CAST as written with AS, ...), Table API names or internal helpers.
_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")
_NOT_FUNCTIONS = frozenset(
    "AND OR NOT IFTHENELSE BETWEEN NOTBETWEEN LIKE IN AS ASSIGNMENT DEFAULT REINTERPRET_CAST "
    "LOWERCASE UPPERCASE TEMPORALOVERLAPS STREAMRECORDTIMESTAMP AT DISTINCT SUM0 "
    "AGG_DECIMAL_PLUS HIVE_AGG_DECIMAL_PLUS".split()
)
# SQL names that the definitions spell otherwise.
_RENAMED = {"CURRENTDATABASE": "CURRENT_DATABASE"}


def write_functions() -> None:
    """tests/flink/functions.tsv: Flink's built-in functions that SQL calls, with their kind."""
    from pyflink.java_gateway import get_gateway

    defs = get_gateway().jvm.org.apache.flink.table.functions.BuiltInFunctionDefinitions
    functions: dict[str, str] = {}
    for d in defs.getDefinitions():
        kind = str(d.getKind()).lower()
        name = str(d.getSqlName() or d.getName()).upper()
        name = _RENAMED.get(name, name)
        if d.isInternal() or kind == "other" or name in _NOT_FUNCTIONS or not _NAME.match(name):
            continue
        functions[name] = kind.replace("process_table", "table")
    oracle.FUNCTIONS.write_text(
        f"# Flink's built-in functions called from SQL (BuiltInFunctionDefinitions of PyFlink\n"
        f"# {FLINK_VERSION}, by SQL name) and their kind; written by tools/flink_golden.py.\n"
        + "".join(f"{n}\t{functions[n]}\n" for n in sorted(functions))
    )


# The names SHOW FUNCTIONS lists for Flink's core module, read by the statement executor.
CORE_FUNCTIONS = (
    oracle.ROOT / "java/src/main/resources/io/calcitebridge/statement/flink-functions.txt"
)


def write_core_functions() -> None:
    """The function names of Flink's core module, as SHOW FUNCTIONS of a new session lists them
    (no user functions): SHOW FUNCTIONS here lists the same names."""
    from pyflink.table import EnvironmentSettings, TableEnvironment

    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    with env.execute_sql("SHOW FUNCTIONS").collect() as rows:
        names = [str(row[0]) for row in rows]
    CORE_FUNCTIONS.write_text(
        f"# The functions of Flink's core module as SHOW FUNCTIONS lists them (PyFlink\n"
        f"# {FLINK_VERSION}), one a line; written by tools/flink_golden.py flink.\n"
        + "".join(f"{n}\n" for n in names)
    )


def _flink_error(exc: BaseException) -> str:
    """The message of the innermost Java cause of a PyFlink error."""
    java = getattr(exc, "java_exception", None)
    if java is None:
        return oracle.render_error(f"{type(exc).__name__}: {exc}")
    cause: Any = java
    while cause.getCause() is not None and cause.getCause() is not cause:
        cause = cause.getCause()
    name = str(cause.getClass().getSimpleName())
    message = str(cause.getMessage() or "")
    return oracle.render_error(f"{name}: {message}")


def _row(row: Any) -> tuple[Any, ...]:
    return tuple(row[i] for i in range(len(row)))


CHUNK = 25


def _run(env: Any, sql: str, zone: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The column types and the rows of one query.

    PyFlink cannot read some values back: a TIMESTAMP_LTZ (its pickler fails on an Instant), a
    TIMESTAMP(p) with p > 3 (read to the millisecond only), an array holding a NULL and a map
    holding a NULL value (EOFError). Such a column is read as
    Flink's text for it and made the value again (:func:`_from_text`): a TIMESTAMP_LTZ is the
    wall-clock time in the session zone ``zone``, made a datetime in that zone; a finer TIMESTAMP
    is a datetime, or a pandas Timestamp past microseconds; an array of numbers
    or strings is ``[1, NULL, 3]``, a map of them ``{a=1, b=NULL}``."""
    table = env.sql_query(sql)
    schema = table._j_table.getResolvedSchema()
    types = schema.getColumnDataTypes()
    names = [str(types.get(j).toString()) for j in range(types.size())]
    columns = [str(c) for c in schema.getColumnNames()]
    as_text = [n.startswith("TIMESTAMP_LTZ") or _FINE.match(n) is not None for n in names]
    try:
        return names, _collect(env, sql, table, columns, as_text, names, zone)
    except Exception:
        arrays = [_ARRAY.match(n) is not None or _MAP.match(n) is not None for n in names]
        if not any(arrays):
            raise
        as_text = [t or a for t, a in zip(as_text, arrays, strict=True)]
        return names, _collect(env, sql, None, columns, as_text, names, zone)


_ARRAY = re.compile(r"^ARRAY<(.*)>( NOT NULL)?$")
# A TIMESTAMP finer than milliseconds: PyFlink reads its value back to the millisecond only.
_FINE = re.compile(r"^TIMESTAMP\(([4-9])\)( NOT NULL)?$")
_MAP = re.compile(r"^MAP<([A-Z]+(?:\(\d+(?:, \d+)?\))?(?: NOT NULL)?), (.*)>( NOT NULL)?$")


def _collect(
    env: Any,
    sql: str,
    table: Any,
    columns: list[str],
    as_text: list[bool],
    types: list[str],
    zone: str,
) -> list[tuple[Any, ...]]:
    if any(as_text) or table is None:
        cols = ", ".join(
            f"CAST(`{c}` AS STRING)" if text else f"`{c}`"
            for c, text in zip(columns, as_text, strict=True)
        )
        table = env.sql_query(f"SELECT {cols} FROM ({sql})")
    with table.execute().collect() as results:
        rows = [_row(r) for r in results]
    return [
        tuple(
            _from_text(v, t, zone) if text else v
            for v, t, text in zip(row, types, as_text, strict=True)
        )
        for row in rows
    ]


def _from_text(text: str | None, type_: str, zone: str) -> Any:
    """A value from Flink's text for it (see :func:`_run`)."""
    if text is None:
        return None
    if type_.startswith("TIMESTAMP_LTZ"):
        return datetime.datetime.fromisoformat(text).replace(tzinfo=zoneinfo.ZoneInfo(zone))
    fine = _FINE.match(type_)
    if fine is not None:
        # As pyarrow gives a timestamp[ns] (pandas) or timestamp[us] (datetime) value.
        if int(fine.group(1)) > 6:
            import pandas

            return pandas.Timestamp(text)
        return datetime.datetime.fromisoformat(text)
    m = _MAP.match(type_)
    if m is not None:
        return _map_from_text(text, m.group(1), m.group(2))
    return _array_from_text(text, type_)


def _map_from_text(text: str, key_type: str, value_type: str) -> dict[Any, Any]:
    """A map of numbers or strings from Flink's text: ``{a=1, b=NULL}`` (keys and values
    holding none of ``=``, ``, ``)."""
    inner = text.strip()[1:-1]
    out: dict[Any, Any] = {}
    for part in inner.split(", ") if inner else []:
        key, _, value = part.partition("=")
        out[_scalar_from_text(key, key_type)] = _scalar_from_text(value, value_type)
    return out


def _scalar_from_text(part: str, type_: str) -> Any:
    element = type_.removesuffix(" NOT NULL")
    if part == "NULL":
        return None
    if element in ("INT", "BIGINT", "SMALLINT", "TINYINT"):
        return int(part)
    if element.startswith("DECIMAL"):
        return decimal.Decimal(part)
    if element in ("STRING",) or element.startswith(("CHAR", "VARCHAR")):
        return part
    raise ValueError(f"cannot read {type_} from text")


def _split_top(inner: str) -> list[str]:
    """The parts of a list's text between the commas outside nested brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 2 if inner[i + 1 : i + 2] == " " else i + 1
    parts.append(inner[start:])
    return parts


def _array_from_text(text: str, type_: str) -> Any:
    """An array of numbers, strings or such arrays from Flink's text: ``[1, NULL, 3]``,
    ``[NaN, NULL]``."""
    m = _ARRAY.match(type_)
    if m is None:
        raise ValueError(f"cannot read {type_} from text")
    element = m.group(1).removesuffix(" NOT NULL")
    inner = text.strip()[1:-1]
    if not inner:
        return []
    out: list[Any] = []
    for part in _split_top(inner):
        if part == "NULL":
            out.append(None)
        elif element.startswith("ARRAY<"):
            out.append(_array_from_text(part, element))
        elif element in ("INT", "BIGINT", "SMALLINT", "TINYINT"):
            out.append(int(part))
        elif element.startswith("DECIMAL"):
            out.append(decimal.Decimal(part))
        elif element in ("DOUBLE", "FLOAT"):
            out.append(float(part))  # NaN, Infinity and -Infinity as Java writes them
        elif element in ("STRING",) or element.startswith(("CHAR", "VARCHAR")):
            out.append(part)
        else:
            raise ValueError(f"cannot read {type_} from text")
    return out


def _run_cases(
    env: Any, cases: list[oracle.Case], zone: str, answers: dict[str, tuple[str, str]]
) -> None:
    # Constant expressions run as the columns of one query, a chunk at a time (a job takes a
    # second or two to start); a chunk that fails runs again as two halves, down to single cases.
    single = [c for c in cases if not c.expression]
    exprs = [c for c in cases if c.expression]
    pending = [exprs[i : i + CHUNK] for i in range(0, len(exprs), CHUNK)]
    while pending:
        chunk = pending.pop()
        if len(chunk) == 1:
            single.extend(chunk)
            continue
        sql = "SELECT " + ", ".join(c.sql[len("SELECT ") :] for c in chunk)
        try:
            types, rows = _run(env, sql, zone)
        except Exception:
            half = len(chunk) // 2
            pending += [chunk[:half], chunk[half:]]
            continue
        for j, c in enumerate(chunk):
            answers[c.sql] = (types[j], oracle.render([(r[j],) for r in rows]))
    for i, case in enumerate(single, 1):
        try:
            types, rows = _run(env, case.sql, zone)
            answers[case.sql] = (", ".join(types), oracle.render(rows))
        except Exception as exc:
            answers[case.sql] = ("", _flink_error(exc))
        print(f"[{i}/{len(single)}] {case.sql} -> {answers[case.sql]}", flush=True)


def run_flink(functions_only: bool = False, categories: list[str] | None = None) -> int:
    from pyflink.table import EnvironmentSettings, TableEnvironment

    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    config = env.get_config()
    config.set("parallelism.default", "1")

    write_functions()
    write_core_functions()
    if functions_only:
        return 0
    cases = oracle.load_cases()
    if categories:
        cases = [c for c in cases if c.category in categories]
    answers: dict[str, tuple[str, str]] = {}
    for zone in sorted({oracle.zone_of(c.category) for c in cases}):
        config.set("table.local-time-zone", zone)
        _run_cases(env, [c for c in cases if oracle.zone_of(c.category) == zone], zone, answers)
    by_category: dict[str, list[oracle.Golden]] = {}
    for case in cases:
        type_, result = answers[case.sql]
        by_category.setdefault(case.category, []).append(
            oracle.Golden(case.category, case.function, case.sql, type_, result)
        )
    for category, goldens in by_category.items():
        oracle.write_golden(category, goldens, FLINK_VERSION)
    return 0


# ---- scripts of statements ------------------------------------------------------------------

_SET = re.compile(
    r"^\s*SET\s+(?:'(?P<qk>[^']*)'|(?P<k>[^\s=]+))\s*=\s*(?:'(?P<qv>(?:[^']|'')*)'|(?P<v>.*?))\s*$",
    re.IGNORECASE | re.DOTALL,
)
_RESET = re.compile(r"^\s*RESET(?:\s+(?:'(?P<qk>[^']*)'|(?P<k>\S+)))?\s*$", re.IGNORECASE)
_BEGIN_SET = re.compile(r"^\s*BEGIN\s+STATEMENT\s+SET\s*;(?P<body>.*)\bEND\s*$", re.I | re.S)
# The settings each script's session starts with (RESET returns to them).
_SESSION = {"parallelism.default": "1", "table.local-time-zone": "UTC"}


def _script_module() -> Any:
    """calcite_bridge/script.py on its own (it needs nothing else of the package)."""
    import importlib.util

    path = oracle.ROOT / "python" / "calcite_bridge" / "script.py"
    spec = importlib.util.spec_from_file_location("cb_script", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cb_script"] = module
    spec.loader.exec_module(module)
    return module


def _flink_q() -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import flink_q

    return flink_q


def _cell(value: Any, flink_q: Any) -> str:
    """A value as Flink's client prints it: PyFlink's Row as ``(a, b)``, a MAP (a dict) as
    ``{k=v}``; the rest as tools/flink_q.py writes our values."""
    from pyflink.common import Row

    if isinstance(value, Row):
        return "(" + ", ".join(_cell(v, flink_q) for v in value) + ")"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{_cell(k, flink_q)}={_cell(v, flink_q)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v, flink_q) for v in value) + "]"
    return str(flink_q.flink_text(value))


def _statement_error(exc: BaseException) -> str:
    """``Class: first line`` of the exception, and of its innermost cause when that differs."""
    java = getattr(exc, "java_exception", None)
    if java is None:
        return _first(f"{type(exc).__name__}: {exc}")
    top = _first(f"{java.getClass().getSimpleName()}: {java.getMessage() or ''}")
    cause: Any = java
    while cause.getCause() is not None and cause.getCause() is not cause:
        cause = cause.getCause()
    root = _first(f"{cause.getClass().getSimpleName()}: {cause.getMessage() or ''}")
    return top if cause is java or root == top else f"{top} | caused by {root}"


def _first(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return (lines[0] if lines else text.strip())[:300]


def _execute(env: Any, sql: str, set_keys: set[str]) -> tuple[str, str]:
    """(outcome, result) of one statement: see tests/flink/oracle.py."""
    from pyflink.table import ResultKind

    flink_q = _flink_q()
    config = env.get_config()
    m = _SET.match(sql)
    if m:
        key = m.group("qk") if m.group("qk") is not None else m.group("k")
        value = m.group("qv").replace("''", "'") if m.group("qv") is not None else m.group("v")
        config.set(key, value)
        set_keys.add(key)
        return "ok", ""
    m = _RESET.match(sql)
    if m:
        key = m.group("qk") if m.group("qk") is not None else m.group("k")
        keys = [key] if key else sorted(set_keys)
        for k in keys:
            if k in _SESSION:
                # The planner keeps a removed key's last value: set the session's own again.
                config.set(k, _SESSION[k])
            else:
                # The TableConfig's own Configuration (get_configuration() gives a copy).
                config._j_table_config.getConfiguration().removeKey(k)
            set_keys.discard(k)
        return "ok", ""
    m = _BEGIN_SET.match(sql)
    if m:
        statements = env.create_statement_set()
        for member in _script_module().split_all(m.group("body")):
            statements.add_insert_sql(member.text)
        statements.execute().wait()
        return "ok", ""
    result = env.execute_sql(sql)
    if result.get_result_kind() == ResultKind.SUCCESS or _is_write(sql):
        # DDL, or a job that writes (INSERT, a statement set, CREATE TABLE ... AS): its row of
        # counts is Flink's placeholder (-1), not an answer.
        result.wait()
        return "ok", ""
    schema = result._j_table_result.getResolvedSchema()
    columns = [str(c) for c in schema.getColumnNames()]
    with result.collect() as it:
        rows = [[_cell(r[i], flink_q) for i in range(len(r))] for r in it]
    if not oracle.is_ordered(sql):
        rows.sort()
    return "rows", oracle.rows_json(columns, rows)


_WRITE = re.compile(
    r"^\s*(INSERT|EXECUTE\s+STATEMENT\s+SET|CREATE\s+(OR\s+REPLACE\s+)?TABLE\b.*\bAS\s+SELECT|"
    r"REPLACE\s+TABLE)",
    re.IGNORECASE | re.DOTALL,
)


def _is_write(sql: str) -> bool:
    return bool(_WRITE.match(sql))


def _jar(artifact: str) -> str:
    """The ``file:`` URL of the newest ``org.apache.flink:ARTIFACT`` jar in ~/.m2."""
    folder = Path.home() / ".m2" / "repository" / "org" / "apache" / "flink" / artifact
    jars = sorted(folder.glob(f"*/{artifact}-*.jar"), key=lambda p: p.parent.name)
    if not jars:
        raise SystemExit(
            f"{artifact} is not in {folder}: mvn dependency:get "
            f"-Dartifact=org.apache.flink:{artifact}:VERSION -Dtransitive=false"
        )
    return jars[-1].resolve().as_uri()


def _runtime_mode(sql: str, mode: str) -> str:
    """The session's ``execution.runtime-mode`` after ``sql`` (``mode`` before it): a ``SET`` of
    the key changes it, a ``RESET`` of it (or of every key) returns to batch, this tool's and
    calcite-bridge's default."""
    m = _SET.match(sql)
    if m:
        key = m.group("qk") if m.group("qk") is not None else m.group("k")
        value = m.group("qv") if m.group("qv") is not None else m.group("v")
        if key == "execution.runtime-mode":
            return "streaming" if value.strip().lower() == "streaming" else "batch"
        return mode
    m = _RESET.match(sql)
    if m:
        key = m.group("qk") if m.group("qk") is not None else m.group("k")
        return "batch" if key in (None, "execution.runtime-mode") else mode
    return mode


def _script_env(mode: str, jars: list[str]) -> Any:
    from pyflink.table import EnvironmentSettings, TableEnvironment

    settings = (
        EnvironmentSettings.in_streaming_mode()
        if mode == "streaming"
        else EnvironmentSettings.in_batch_mode()
    )
    env = TableEnvironment.create(settings)
    for key, value in _SESSION.items():
        env.get_config().set(key, value)
    if jars:
        env.get_config().set("pipeline.jars", ";".join(jars))
    return env


def run_scripts(names: list[str]) -> int:
    import tempfile

    split_all = _script_module().split_all
    for name in names or oracle.script_names():
        text = (oracle.SCRIPTS / f"{name}.sql").read_text()
        jars = [_jar(artifact) for artifact in oracle.script_jars(text)]
        mode = "batch"
        env = _script_env(mode, jars)
        goldens: list[oracle.StatementGolden] = []
        set_keys: set[str] = set()
        settings_only: list[str] = []  # the statements so far, while all are SET or RESET
        with tempfile.TemporaryDirectory(prefix="flink-script-") as tmp:
            for folder in oracle.script_folders(text):
                (Path(tmp) / folder).mkdir(parents=True)
            for number, statement in enumerate(split_all(text), 1):
                sql = statement.text.replace(oracle.TMP, tmp)
                new_mode = _runtime_mode(sql, mode)
                if new_mode != mode:
                    # The SQL client reads the mode again at each statement; a TableEnvironment
                    # only when it is made. So the mode is set before any other statement, and
                    # the environment is made anew in it with the settings so far.
                    if len(settings_only) < number - 1:
                        raise SystemExit(
                            f"{name}.sql:{statement.line}: execution.runtime-mode changes after"
                            " a statement other than SET or RESET, which a TableEnvironment"
                            " cannot follow: set it before every other statement"
                        )
                    mode = new_mode
                    env = _script_env(mode, jars)
                    set_keys.clear()
                    for earlier in settings_only:
                        _execute(env, earlier, set_keys)
                if _SET.match(sql) or _RESET.match(sql):
                    settings_only.append(sql)
                try:
                    outcome, result = _execute(env, sql, set_keys)
                except Exception as exc:  # every error is an answer
                    outcome, result = "error", _statement_error(exc)
                result = result.replace(tmp, oracle.TMP)
                goldens.append(
                    oracle.StatementGolden(
                        name, number, statement.line, statement.text, outcome, result
                    )
                )
                print(f"{name}:{statement.line} {outcome} {result[:160]}", flush=True)
        oracle.write_script_golden(name, goldens, FLINK_VERSION)
    return 0


def write_docs() -> int:
    text = oracle.render_docs(oracle.load_golden(), oracle.load_known(), oracle.load_functions())
    oracle.DOCS.write_text(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("what", choices=["flink", "docs", "scripts"])
    parser.add_argument(
        "--functions-only", action="store_true", help="only write tests/flink/functions.tsv"
    )
    parser.add_argument(
        "categories",
        nargs="*",
        help="only these case files or scripts (default: all), e.g. timezone",
    )
    args = parser.parse_args(argv)
    if args.what == "docs":
        return write_docs()
    if args.what == "scripts":
        return run_scripts(args.categories)
    return run_flink(args.functions_only, args.categories)


if __name__ == "__main__":
    sys.exit(main())
