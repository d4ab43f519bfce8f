"""The crash and internal-error fuzzer: ``python -m tests.fuzz.crash [--seed S] [--minutes M |
--statements N]`` (``make fuzz-errors MINUTES=5 SEED=1``).

Statements come from two generators, over one table ``t`` with a column of every type (and an
empty copy ``e``): mutations of the queries of ``tests/fixtures/*.sql`` (operators, functions,
literals, types and columns swapped, tokens dropped or inserted, operands nested in expressions)
and random expression trees in every clause. Two oracles judge each statement:

- **crash**: the process must not die (a segfault, an abort) nor hang. Statements run in a child
  process per batch, so the parent sees the death and names the statement that caused it;
- **internal error**: every exception must be a ``cb.Error`` *subclass*, never the base
  ``cb.Error`` (an internal error) nor any other exception, and its message must name the
  problem, not a Java class or a raw Java failure.

A finding prints a minimised repro (the table DDL and the statement). The exit status is 1 when
there is a finding.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"

TABLES = """
CREATE TABLE t (i INT, b BIGINT, d DOUBLE, m DECIMAL(10, 2), s STRING, bo BOOLEAN, dt DATE,
  ts TIMESTAMP(3), tl TIMESTAMP_LTZ(3), arr ARRAY<INT>, mp MAP<STRING, INT>,
  r ROW<a INT, b STRING>, bt BYTES) WITH ('connector' = 'memory');
INSERT INTO t VALUES
  (1, CAST(5000000000 AS BIGINT), 1.5, 2.50, 'a', TRUE, DATE '2024-01-01',
   TIMESTAMP '2024-01-01 10:00:00', CAST(TIMESTAMP '2024-01-01 10:00:00' AS TIMESTAMP_LTZ(3)),
   ARRAY[1, 2], MAP['k', 1], ROW(1, 'x'), X'0102'),
  (-2, CAST(-1 AS BIGINT), -0.0, -1.25, '', FALSE, DATE '1999-12-31',
   TIMESTAMP '1999-12-31 23:59:59.999', CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(3)),
   ARRAY[CAST(NULL AS INT)], MAP['a', CAST(NULL AS INT)], ROW(CAST(NULL AS INT), 'y'), X''),
  (CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)),
   CAST(NULL AS STRING), CAST(NULL AS BOOLEAN), CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP(3)),
   CAST(NULL AS TIMESTAMP_LTZ(3)), CAST(NULL AS ARRAY<INT>), CAST(NULL AS MAP<STRING, INT>),
   CAST(NULL AS ROW<a INT, b STRING>), CAST(NULL AS BYTES));
CREATE TABLE e (i INT, b BIGINT, d DOUBLE, m DECIMAL(10, 2), s STRING, bo BOOLEAN, dt DATE,
  ts TIMESTAMP(3), tl TIMESTAMP_LTZ(3), arr ARRAY<INT>, mp MAP<STRING, INT>,
  r ROW<a INT, b STRING>, bt BYTES) WITH ('connector' = 'memory')
"""

COLUMNS = {
    "i": "INT",
    "b": "BIGINT",
    "d": "DOUBLE",
    "m": "DECIMAL",
    "s": "STRING",
    "bo": "BOOLEAN",
    "dt": "DATE",
    "ts": "TIMESTAMP",
    "tl": "TIMESTAMP_LTZ",
    "arr": "ARRAY",
    "mp": "MAP",
    "r": "ROW",
    "bt": "BYTES",
}
TYPE_NAMES = (
    "INT",
    "BIGINT",
    "SMALLINT",
    "TINYINT",
    "DOUBLE",
    "FLOAT",
    "DECIMAL(10, 2)",
    "DECIMAL(38, 10)",
    "STRING",
    "VARCHAR(3)",
    "CHAR(2)",
    "BOOLEAN",
    "DATE",
    "TIME",
    "TIMESTAMP(3)",
    "TIMESTAMP_LTZ(3)",
    "BYTES",
    "ARRAY<INT>",
    "ARRAY<STRING>",
    "MAP<STRING, INT>",
    "ROW<a INT, b STRING>",
)
LITERALS = (
    "NULL",
    "0",
    "1",
    "-1",
    "2147483647",
    "9223372036854775807",
    "1.5",
    "-0.0E0",
    "1e308",
    "''",
    "'a'",
    "'%'",
    "'2024-01-01'",
    "TRUE",
    "FALSE",
    "UNKNOWN",
    "DATE '2024-02-29'",
    "TIME '10:00:00'",
    "TIMESTAMP '2024-01-01 10:00:00'",
    "INTERVAL '1' DAY",
    "INTERVAL '3' HOUR",
    "INTERVAL '2' MONTH",
    "X'00'",
    "ARRAY[1, NULL]",
    "ARRAY['a']",
    "MAP['k', 1]",
    "ROW(1, 'a')",
    "CAST(NULL AS INT)",
    "CAST(NULL AS STRING)",
    "CAST(NULL AS BOOLEAN)",
    "CAST(NULL AS ROW<a INT, b STRING>)",
    "CAST(NULL AS ARRAY<INT>)",
)
BINARY = (
    "+",
    "-",
    "*",
    "/",
    "%",
    "||",
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "AND",
    "OR",
    "LIKE",
    "IS DISTINCT FROM",
    "IS NOT DISTINCT FROM",
)
PREFIX = ("NOT", "-", "+", "EXISTS")
POSTFIX = ("IS NULL", "IS NOT NULL", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS UNKNOWN")
# name: arity (None: one to three arguments)
FUNCTIONS: dict[str, int | None] = {
    "ABS": 1,
    "LN": 1,
    "EXP": 1,
    "SQRT": 1,
    "FLOOR": 1,
    "CEIL": 1,
    "ROUND": 2,
    "MOD": 2,
    "POWER": 2,
    "SIGN": 1,
    "UPPER": 1,
    "LOWER": 1,
    "TRIM": 1,
    "CHAR_LENGTH": 1,
    "SUBSTRING": 2,
    "CONCAT": None,
    "REPLACE": 3,
    "POSITION": 2,
    "COALESCE": None,
    "NULLIF": 2,
    "GREATEST": None,
    "LEAST": None,
    "CARDINALITY": 1,
    "ELEMENT": 1,
    "EXTRACT": 1,
    "YEAR": 1,
    "IF": 3,
    "DATE_FORMAT": 2,
    "TO_DATE": 1,
    "ROW": None,
    "ARRAY": None,
    "MAP": 2,
    "HEX": 1,
    "MD5": 1,
    "REGEXP": 2,
    "JSON_VALUE": 2,
}
AGGREGATES = (
    "COUNT",
    "SUM",
    "AVG",
    "MIN",
    "MAX",
    "STDDEV_POP",
    "VAR_SAMP",
    "BIT_AND",
    "BIT_OR",
    "LISTAGG",
    "COLLECT",
    "ARRAY_AGG",
    "FIRST_VALUE",
    "LAST_VALUE",
)
WINDOW_ONLY = ("ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD", "NTILE", "CUME_DIST")
KEYWORDS = (
    "SELECT",
    "FROM",
    "WHERE",
    "GROUP BY",
    "HAVING",
    "ORDER BY",
    "LIMIT",
    "UNION",
    "JOIN",
    "ON",
    "AS",
    "CASE",
    "WHEN",
    "THEN",
    "END",
    "(",
    ")",
    ",",
    "*",
    "IN",
    "BETWEEN",
    "DISTINCT",
    "ALL",
    "NOT",
    "NULL",
    "CAST",
    ".",
    "[",
    "]",
)
BACKENDS = ("auto", "auto", "enumerable", "duckdb")

# Text that names Java's machinery, not the user's problem.
LEAKS = re.compile(
    r"java\.|javax\.|org\.apache\.|org\.codehaus\.|io\.calcitebridge\.|Exception:|Exception\b"
    r"|Error while applying rule|Unable to implement|NullPointer|ClassCast|IndexOutOfBounds"
    r"|IllegalState|IllegalArgument|AssertionError|StackOverflow|\$t\d|expr#\d|RelSubset"
    r"|CDataJni|errno=|Index \d+ out of bounds|does not compile|Conversion to relational algebra"
)


# Internal errors found and not fixed yet: counted and printed as known, not as findings. Each
# names its cause; remove the entry once it is fixed.
KNOWN: dict[str, str] = {
    # A message part of a finding not fixed yet: the name it is counted under. Empty: each
    # finding so far is fixed and has a case in tests/fixtures/internal_errors.sql.
}

# ---------------------------------------------------------------------------------------------
# Generation


_TOKEN = re.compile(
    r"""\s+|'(?:[^']|'')*'|`[^`]*`|X'[0-9A-Fa-f]*'|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+
    |[A-Za-z_][A-Za-z_0-9$]*|<>|<=|>=|\|\||!=|::|[^\s]""",
    re.VERBOSE,
)


def tokens(sql: str) -> list[str]:
    return [m.group() for m in _TOKEN.finditer(sql) if not m.group().isspace()]


def seed_queries() -> list[str]:
    """Every SELECT, WITH and VALUES statement of the fixture files, comments removed."""
    found: list[str] = []
    for path in sorted(FIXTURES.glob("*.sql")):
        text = "\n".join(
            line for line in path.read_text().splitlines() if not line.lstrip().startswith("--")
        )
        for statement in text.split(";"):
            sql = statement.strip()
            if re.match(r"(?is)^(SELECT|WITH|VALUES)\b", sql) and len(sql) < 2000:
                found.append(sql)
    return found


class Generator:
    def __init__(self, rng: random.Random, seeds: list[str]) -> None:
        self.rng = rng
        self.seeds = seeds

    def statement(self) -> str:
        roll = self.rng.random()
        if roll < 0.45 and self.seeds:
            return self.mutated()
        if roll < 0.005:
            return self.rng.choice(("", " ", ";", "-- only a comment"))
        return self.query()

    # random expression trees ------------------------------------------------------------

    def column(self) -> str:
        name = self.rng.choice(tuple(COLUMNS))
        roll = self.rng.random()
        if name == "r" and roll < 0.4:
            return self.rng.choice(("r.a", "r.b", "t.r.a"))
        if name == "arr" and roll < 0.4:
            return self.rng.choice(("arr[1]", "arr[0]", "arr[i]"))
        if name == "mp" and roll < 0.4:
            return self.rng.choice(("mp['k']", "mp[s]"))
        return name

    def expr(self, depth: int) -> str:  # noqa: PLR0911, PLR0912 (one return per shape)
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.column() if rng.random() < 0.6 else rng.choice(LITERALS)
        shape = rng.randrange(11)
        sub = depth - 1
        if shape == 0:
            return f"({self.expr(sub)} {rng.choice(BINARY)} {self.expr(sub)})"
        if shape == 1:
            return f"({rng.choice(PREFIX)} {self.expr(sub)})"
        if shape == 2:
            return f"({self.expr(sub)} {rng.choice(POSTFIX)})"
        if shape == 3:
            name, arity = rng.choice(tuple(FUNCTIONS.items()))
            n = arity if arity is not None else rng.randint(1, 3)
            if name == "EXTRACT":
                unit = rng.choice(("YEAR", "MONTH", "DAY", "HOUR", "EPOCH"))
                return f"EXTRACT({unit} FROM {self.expr(sub)})"
            if name in ("ARRAY", "MAP"):
                return f"{name}[{', '.join(self.expr(sub) for _ in range(n))}]"
            return f"{name}({', '.join(self.expr(sub) for _ in range(n))})"
        if shape == 4:
            return f"CAST({self.expr(sub)} AS {rng.choice(TYPE_NAMES)})"
        if shape == 5:
            whens = " ".join(
                f"WHEN {self.expr(sub)} THEN {self.expr(sub)}" for _ in range(rng.randint(1, 2))
            )
            tail = f" ELSE {self.expr(sub)}" if rng.random() < 0.5 else ""
            return f"(CASE {whens}{tail} END)"
        if shape == 6:
            items = ", ".join(self.expr(sub) for _ in range(rng.randint(1, 3)))
            neg = "NOT " if rng.random() < 0.3 else ""
            return f"({self.expr(sub)} {neg}IN ({items}))"
        if shape == 7:
            return f"({self.expr(sub)} BETWEEN {self.expr(sub)} AND {self.expr(sub)})"
        if shape == 8:
            inner = rng.choice(("t", "e"))
            if rng.random() < 0.5:
                return f"(SELECT {self.expr(sub)} FROM {inner} WHERE {self.expr(sub)})"
            return f"(EXISTS (SELECT {self.expr(sub)} FROM {inner}))"
        if shape == 9:
            return f"({self.expr(sub)} IN (SELECT {self.expr(sub)} FROM {rng.choice(('t', 'e'))}))"
        if rng.random() < 0.5:
            return f"ROW({self.expr(sub)}, {self.expr(sub)})"
        return f"ARRAY[{self.expr(sub)}]"

    def aggregate(self, depth: int) -> str:
        rng = self.rng
        name = rng.choice(AGGREGATES)
        arg = "*" if name == "COUNT" and rng.random() < 0.3 else self.expr(depth)
        distinct = "DISTINCT " if rng.random() < 0.2 and arg != "*" else ""
        call = f"{name}({distinct}{arg})"
        if rng.random() < 0.2:
            call += f" FILTER (WHERE {self.expr(depth)})"
        return call

    def window(self, depth: int) -> str:
        rng = self.rng
        if rng.random() < 0.4:
            name = rng.choice(WINDOW_ONLY)
            args = self.expr(depth) if name in ("LAG", "LEAD", "NTILE") else ""
            call = f"{name}({args})"
        else:
            call = self.aggregate(depth)
        parts = []
        if rng.random() < 0.6:
            parts.append(f"PARTITION BY {self.expr(depth)}")
        if rng.random() < 0.7:
            parts.append(f"ORDER BY {self.expr(depth)}")
        if rng.random() < 0.3:
            parts.append(
                rng.choice(
                    (
                        "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW",
                        "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                        "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
                    )
                )
            )
        return f"{call} OVER ({' '.join(parts)})"

    def query(self) -> str:
        rng = self.rng
        depth = rng.randint(1, 3)
        source = rng.choice(
            (
                "t",
                "t",
                "e",
                "t AS x JOIN t AS y ON x.i = y.i",
                "t LEFT JOIN e ON t.i = e.i",
                "(SELECT * FROM t UNION ALL SELECT * FROM e) AS t",
                "t CROSS JOIN UNNEST(t.arr) AS u(v)",
            )
        )
        roll = rng.random()
        if roll < 0.3:
            items = ", ".join(self.expr(depth) for _ in range(rng.randint(1, 3)))
            sql = f"SELECT {items} FROM {source}"
            if rng.random() < 0.7:
                sql += f" WHERE {self.expr(depth)}"
        elif roll < 0.45:
            sql = f"SELECT * FROM {source} WHERE {self.expr(depth)}"
        elif roll < 0.65:
            key = self.expr(depth - 1) if rng.random() < 0.7 else None
            items = ", ".join(self.aggregate(depth - 1) for _ in range(rng.randint(1, 2)))
            sql = f"SELECT {key + ', ' if key else ''}{items} FROM {source}"
            if rng.random() < 0.4:
                sql += f" WHERE {self.expr(depth)}"
            if key:
                sql += f" GROUP BY {key}"
            if rng.random() < 0.3:
                sql += f" HAVING {self.expr(depth - 1)}"
        elif roll < 0.75:
            sql = f"SELECT {self.window(depth - 1)} FROM {source}"
        elif roll < 0.85:
            sql = f"SELECT {self.expr(depth + 1)}"
        else:
            sql = f"SELECT {self.expr(depth)} AS c FROM {source}"
            sql += f" ORDER BY {self.expr(depth)}"
            if rng.random() < 0.5:
                sql += f" LIMIT {rng.choice(('0', '1', '2', '-1', 'NULL', '1 OFFSET 1'))}"
        if rng.random() < 0.1:
            sql = f"SELECT DISTINCT * FROM ({sql}) AS q"
        return sql

    # seed-query mutations ------------------------------------------------------------------

    def mutated(self) -> str:
        rng = self.rng
        toks = tokens(rng.choice(self.seeds))
        for _ in range(rng.randint(1, 3)):
            if not toks:
                break
            at = rng.randrange(len(toks))
            tok = toks[at]
            upper = tok.upper()
            kind = rng.randrange(8)
            if at > 0 and toks[at - 1].upper() in ("FROM", "JOIN") and rng.random() < 0.8:
                toks[at] = rng.choice(("t", "e"))
            elif (kind == 0 and upper in BINARY) or tok in ("=", "<", ">", "+", "-", "*", "/"):
                toks[at] = rng.choice(BINARY)
            elif (kind <= 1 and upper in FUNCTIONS) or upper in AGGREGATES:
                toks[at] = rng.choice((*FUNCTIONS, *AGGREGATES))
            elif kind <= 2 and (tok[0].isdigit() or tok[0] == "'" or upper in ("NULL", "TRUE")):
                toks[at] = rng.choice(LITERALS)
            elif kind <= 3 and re.fullmatch(r"[A-Za-z_]\w*", tok) and upper not in KEYWORDS:
                toks[at] = self.column() if rng.random() < 0.7 else self.expr(2)
            elif kind == 4:
                del toks[at]
            elif kind == 5:
                toks.insert(at, rng.choice((*KEYWORDS, *LITERALS, *COLUMNS)))
            elif kind == 6 and upper in ("INT", "STRING", "DOUBLE", "BIGINT", "BOOLEAN", "DATE"):
                toks[at] = rng.choice(TYPE_NAMES)
            else:
                toks.insert(at, self.expr(1) + rng.choice(BINARY))
        # Table names the fixtures use stand for t here, so most mutants reach the planner.
        return " ".join(toks)


# ---------------------------------------------------------------------------------------------
# Judging one statement (in the child)


@dataclass
class Outcome:
    verdict: str  # "ok", "typed" (a cb.Error subclass), "internal"
    kind: str = ""
    message: str = ""

    def key(self) -> str:
        """What tells two findings apart: the class and the message's shape."""
        text = re.sub(
            r"'[^']*'|`[^`]*`|\d+", "_", self.message.splitlines()[0] if self.message else ""
        )
        return f"{self.kind}: {text[:90]}"


def judge(env: Any, sql: str, backend: str) -> Outcome:
    import calcite_bridge as cb

    try:
        if not sql.strip() or sql.strip().startswith((";", "--")):
            env.execute(sql)
        else:
            env.sql(sql, backend=None if backend == "auto" else backend).fetchall()
    except cb.Error as e:
        message = str(e)
        first = message.splitlines()[0] if message else ""
        if type(e) is cb.Error:
            return Outcome("internal", "cb.Error", first)
        if LEAKS.search(first):
            return Outcome("internal", f"cb.{type(e).__name__} with Java text", first)
        return Outcome("typed", type(e).__name__, first)
    except Exception as e:
        first = str(e).splitlines()[0] if str(e) else ""
        return Outcome("internal", f"{type(e).__module__}.{type(e).__name__}", first)
    return Outcome("ok")


def _candidates(toks: list[str]) -> Iterator[list[str]]:
    """Smaller variants of ``toks``: balanced parenthesised groups replaced by one of their
    operands or a literal, then single tokens dropped."""
    n = len(toks)
    for size in (8, 4, 2, 1):
        for at in range(0, n - size + 1):
            yield toks[:at] + toks[at + size :]
    for at, tok in enumerate(toks):
        if tok != "(":
            continue
        depth = 0
        for end in range(at, n):
            depth += toks[end] == "("
            depth -= toks[end] == ")"
            if depth == 0:
                break
        if depth == 0 and end - at > 2:
            for literal in ("NULL", "1", "i"):
                yield [*toks[:at], literal, *toks[end + 1 :]]


def minimise(check: Callable[[str], bool], sql: str, budget: float = 20.0) -> str:
    """The shortest statement found, by dropping tokens, on which ``check`` still holds."""
    toks = tokens(sql)
    deadline = time.monotonic() + budget
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in _candidates(toks):
            if time.monotonic() > deadline:
                break
            if len(candidate) < len(toks) and check(" ".join(candidate)):
                toks = candidate
                improved = True
                break
    return " ".join(toks)


def child(seed: int, batch: int, count: int) -> int:
    """Runs one batch and writes one JSON line per event to stdout."""
    import calcite_bridge as cb

    rng = random.Random(f"{seed}:{batch}")
    gen = Generator(rng, seed_queries())
    env = cb.connect()
    for statement in TABLES.strip().split(";\n"):
        env.execute(statement)

    crash_on = os.environ.get("CALCITE_BRIDGE_FUZZ_CRASH_ON")

    def emit(**event: Any) -> None:
        sys.stdout.write(json.dumps(event) + "\n")
        sys.stdout.flush()

    for n in range(count):
        sql = gen.statement()
        backend = rng.choice(BACKENDS)
        emit(event="start", n=n, sql=sql, backend=backend)
        if crash_on and crash_on in sql:
            os.kill(os.getpid(), signal.SIGKILL)  # how the tests check that a crash is seen
        outcome = judge(env, sql, backend)
        if outcome.verdict == "internal":
            key = outcome.key()

            def same(candidate: str, key: str = key, backend: str = backend) -> bool:
                o = judge(env, candidate, backend)
                return o.verdict == "internal" and o.key() == key

            small = minimise(same, sql)
            emit(
                event="finding",
                n=n,
                sql=sql,
                backend=backend,
                kind=outcome.kind,
                message=outcome.message,
                key=key,
                minimal=small,
            )
        emit(event="done", n=n, verdict=outcome.verdict)
    env.close()
    emit(event="end")
    return 0


# ---------------------------------------------------------------------------------------------
# The parent: batches in child processes


@dataclass
class Report:
    seed: int
    statements: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    findings: dict[str, dict[str, Any]] = field(default_factory=dict)
    known: Counter[str] = field(default_factory=Counter)
    finding_count: int = 0
    crashes: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        v = self.verdicts
        return (
            f"seed {self.seed}: {self.statements} statements ({v['ok']} ran, {v['typed']} typed "
            f"errors), {self.finding_count} internal errors ({len(self.findings)} distinct), "
            f"{len(self.crashes)} crashes, {len(self.hangs)} hangs, {sum(self.known.values())}"
            f" known internal errors not fixed yet ({self.seconds:.0f} s)"
        )

    @property
    def failed(self) -> bool:
        return bool(self.findings or self.crashes or self.hangs)


def repro(sql: str, backend: str) -> str:
    run = "" if backend == "auto" else f"  -- on backend {backend}"
    return f"{TABLES.strip()};\n{sql};{run}"


def run_batches(  # noqa: PLR0912, PLR0915 (one loop reads a batch's events)
    seed: int,
    seconds: float | None = None,
    statements: int | None = None,
    batch_size: int = 150,
    hang_seconds: float = 60.0,
    out: Any = None,
) -> Report:
    report = Report(seed)
    started = time.monotonic()
    batch = 0

    def more() -> bool:
        if statements is not None and report.statements >= statements:
            return False
        return seconds is None or time.monotonic() - started < seconds

    # A JVM that crashes writes its report to the temporary directory, not into the work tree.
    jvm_options = " ".join(
        (
            os.environ.get("CALCITE_BRIDGE_JVM_OPTIONS", ""),
            f"-XX:ErrorFile={tempfile.gettempdir()}/calcite-bridge-fuzz-hs_err_%p.log",
        )
    ).strip()
    while more():
        size = batch_size if statements is None else min(batch_size, statements - report.statements)
        with tempfile.TemporaryFile("w+") as log:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.fuzz.crash",
                    "--child",
                    str(seed),
                    str(batch),
                    str(size),
                ],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "CALCITE_BRIDGE_JVM_OPTIONS": jvm_options},
            )
            # A batch may take as long as its statements at hang_seconds each, but a statement
            # that takes longer than that is a hang.
            last_size = -1
            idle_since = time.monotonic()
            hung = False
            while proc.poll() is None:
                time.sleep(0.2)
                size_now = os.fstat(log.fileno()).st_size
                if size_now != last_size:
                    last_size, idle_since = size_now, time.monotonic()
                elif time.monotonic() - idle_since > hang_seconds:
                    hung = True
                    proc.kill()
                    proc.wait()
            log.seek(0)
            events = [json.loads(x) for x in log.read().splitlines() if x.startswith("{")]
        last_start = None
        ended = False
        for ev in events:
            if ev["event"] == "start":
                last_start = ev
            elif ev["event"] == "done":
                report.statements += 1
                report.verdicts[ev["verdict"]] += 1
                last_start = None
            elif ev["event"] == "finding":
                known = next((v for k, v in KNOWN.items() if k in ev["message"]), None)
                if known is not None:
                    report.known[known] += 1
                    continue
                report.finding_count += 1
                if ev["key"] not in report.findings:
                    report.findings[ev["key"]] = ev
                    if out is not None:
                        print(
                            f"INTERNAL ERROR {ev['kind']}: {ev['message'][:300]}\n"
                            f"  repro (minimised): {ev['minimal']};"
                            + ("" if ev["backend"] == "auto" else f"  -- backend {ev['backend']}")
                            + f"\n  original: {ev['sql']}",
                            file=out,
                            flush=True,
                        )
            elif ev["event"] == "end":
                ended = True
        if not ended:
            culprit = last_start or {"sql": "(before the first statement)", "backend": "auto"}
            report.statements += 1 if last_start else 0
            text = repro(culprit["sql"], culprit["backend"])
            if hung:
                report.hangs.append(text)
                label = f"HANG (no progress in {hang_seconds:.0f} s)"
            else:
                report.crashes.append(text)
                label = f"CRASH (exit status {proc.returncode})"
            if out is not None:
                print(f"{label}; repro:\n{text}", file=out, flush=True)
        batch += 1
    report.seconds = time.monotonic() - started
    return report


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return child(int(argv[1]), int(argv[2]), int(argv[3]))
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.crash")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--statements", type=int, default=None)
    parser.add_argument("--batch", type=int, default=150, help="statements per child process")
    args = parser.parse_args(argv)
    if args.minutes is None and args.statements is None:
        args.minutes = 1.0
    report = run_batches(
        args.seed,
        seconds=None if args.minutes is None else args.minutes * 60,
        statements=args.statements,
        batch_size=args.batch,
        out=sys.stdout,
    )
    print(report.line(), flush=True)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
