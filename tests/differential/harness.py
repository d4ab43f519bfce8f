"""Runs a query on the reference backend (Calcite's enumerable engine) and on another, and says
how their answers compare.

Outcomes: ``same`` (equal Arrow schemas and rows: as multisets, or in order under a top-level
ORDER BY, where rows that tie on the sort keys may come in any order; floats to a relative
1e-9; NULLs exactly at every nesting level), ``refused`` (the backend raised
``cb.UnsupportedError``: the construct it names is kept), ``both_fail`` (both raised an error of
the same class) and ``differs`` (anything else; the detail says what).
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
from tests.helpers.tables import ordered

import calcite_bridge as cb

REFERENCE = "enumerable"
BACKENDS = ("duckdb", "spark")
REL_TOL = 1e-9

HERE = Path(__file__).resolve().parent
DIFFERENCES = HERE / "differences.txt"

SAME, REFUSED, BOTH_FAIL, DIFFERS = "same", "refused", "both_fail", "differs"


@dataclass
class Outcome:
    """How one query did on one backend against the reference."""

    suite: str
    name: str
    sql: str
    backend: str
    status: str
    detail: str = ""
    construct: str | None = None

    @property
    def key(self) -> str:
        return f"{self.suite}:{self.name}"

    @property
    def listing(self) -> str:
        """Its key in differences.txt (:func:`listing`)."""
        return listing(self.backend, self.key)


def listing(backend: str, key: str) -> str:
    """A query's key in differences.txt: ``<file>:<case>`` for duckdb, prefixed with the
    backend for any other (``spark/<file>:<case>``)."""
    return key if backend == "duckdb" else f"{backend}/{key}"


def unlisted(entry: str) -> str:
    """The ``<file>:<case>`` of a differences.txt entry."""
    return entry.split("/", 1)[1] if "/" in entry.split(":", 1)[0] else entry


@dataclass
class Collector:
    """Every outcome of the run, for the summary and docs/backends.md."""

    outcomes: list[Outcome] = field(default_factory=list)
    listed: dict[str, str] = field(default_factory=dict)


COLLECTOR = Collector()


# --- running ---------------------------------------------------------------------------------


def run(env: cb.Environment, sql: str, backend: str) -> pa.Table | Exception:
    """The whole result of ``sql`` on ``backend``, or the error it raised."""
    try:
        return env.sql(sql, backend=backend).to_arrow_table()
    except Exception as e:
        return e


_CONSTRUCT = re.compile(r"backend cannot run (.+?)(?:\s+\(at line \d+.*)?$", re.S)


def construct_of(error: Exception) -> str:
    """The construct a refusal names (its message's first line, after ``cannot run``)."""
    first = str(error).splitlines()[0] if str(error) else type(error).__name__
    found = _CONSTRUCT.search(first)
    return found.group(1).strip() if found else first


def compare(  # noqa: PLR0911 (one return per outcome)
    env: cb.Environment, suite: str, name: str, sql: str, backend: str = "duckdb"
) -> Outcome:
    """Runs ``sql`` on the reference and on ``backend`` and classifies the pair."""
    ref = run(env, sql, REFERENCE)
    got = run(env, sql, backend)

    def outcome(status: str, detail: str = "", construct: str | None = None) -> Outcome:
        return Outcome(suite, name, sql, backend, status, detail, construct)

    if isinstance(got, cb.UnsupportedError):
        return outcome(REFUSED, str(got).splitlines()[0], construct_of(got))
    if isinstance(ref, Exception) and isinstance(got, Exception):
        if type(ref) is type(got):
            return outcome(BOTH_FAIL, f"{type(ref).__name__}: {first_line(ref)}")
        return outcome(
            DIFFERS,
            f"reference raised {type(ref).__name__}: {first_line(ref)}\n"
            f"{backend} raised {type(got).__name__}: {first_line(got)}",
        )
    if isinstance(ref, Exception):
        assert isinstance(got, pa.Table)
        return outcome(
            DIFFERS,
            f"reference raised {type(ref).__name__}: {first_line(ref)}\n"
            f"{backend} returned {show(rows_of(got))}",
        )
    if isinstance(got, Exception):
        return outcome(
            DIFFERS,
            f"reference returned {show(rows_of(ref))}\n"
            f"{backend} raised {type(got).__name__}: {first_line(got)}",
        )
    problem = schema_difference(ref.schema, got.schema)
    if problem is None:
        keys = sort_keys(env, sql, ref.num_columns)
        problem = row_difference(rows_of(ref), rows_of(got), keys)
    if problem is None:
        return outcome(SAME)
    return outcome(
        DIFFERS,
        f"{problem}\nreference: {show(rows_of(ref))}\n{backend}: {show(rows_of(got))}",
    )


def first_line(error: Exception) -> str:
    text = str(error)
    return text.splitlines()[0] if text else ""


def show(rows: list[tuple[Any, ...]], limit: int = 12) -> str:
    text = repr(rows[:limit])
    return text if len(rows) <= limit else f"{text[:-1]}, ... ({len(rows)} rows)]"


# --- comparing -------------------------------------------------------------------------------


def rows_of(table: pa.Table) -> list[tuple[Any, ...]]:
    columns = [column.to_pylist() for column in table.columns]
    return list(zip(*columns, strict=True)) if columns else []


def schema_difference(ref: pa.Schema, got: pa.Schema) -> str | None:
    """What differs between the schemas (names, types, nullability), or None."""
    if ref.names != got.names:
        return f"column names differ: {ref.names} vs {got.names}"
    for a, b in zip(ref, got, strict=True):
        if not a.type.equals(b.type):
            return f"type of {a.name!r} differs: {a.type} vs {b.type}"
        if a.nullable != b.nullable:
            return f"nullability of {a.name!r} differs: {a.nullable} vs {b.nullable}"
    return None


def equal(a: Any, b: Any) -> bool:  # noqa: PLR0911
    """Values equal: NULLs exactly, floats to a relative 1e-9, at every nesting level."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=0.0)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def canon(value: Any) -> str:
    """A sort key that puts equal values (floats to 9 significant digits) next to each other."""
    if value is None:
        return "\x00"
    if isinstance(value, float):
        return "f" + (repr(value) if not math.isfinite(value) else f"{value:.9g}")
    if isinstance(value, decimal.Decimal):
        return "d" + str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{canon(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canon(v) for v in value) + "]"
    return type(value).__name__ + ":" + repr(value)


def same_multiset(ref: list[tuple[Any, ...]], got: list[tuple[Any, ...]]) -> bool:
    if len(ref) != len(got):
        return False
    a = sorted(ref, key=canon)
    b = sorted(got, key=canon)
    return all(equal(x, y) for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class SortKeys:
    """The output columns a top-level ORDER BY sorts on, and whether a LIMIT or OFFSET cuts
    the sorted rows (then the rows that tie at a cut may be any of the tied ones)."""

    columns: tuple[int, ...]
    fetch: bool
    offset: bool


_SORT = re.compile(r"^\s*EnumerableSort\((.*)\)\s*$")
_KEY = re.compile(r"sort\d+=\[\$(\d+)\]")
_CALC_OUT = re.compile(r"(?:^|, )([^=,\s]+)=\[\$t(\d+)\]")
_INPUTS = re.compile(r"expr#0(?:\.\.(\d+))?=\[\{inputs\}\]")


def sort_keys(env: cb.Environment, sql: str, width: int) -> SortKeys | None:
    """The sort of a query with a top-level ORDER BY, read from its reference plan; None for a
    query without one. When the plan does not say which output columns hold the sort keys,
    every column is a key (the rows are compared strictly in order)."""
    if not ordered(sql):
        return None
    whole = SortKeys(tuple(range(width)), fetch=False, offset=False)
    try:
        plan = env.explain(sql, backend=REFERENCE)
    except cb.Error:
        return whole
    lines = plan.splitlines()
    fetch = offset = False
    calc: str | None = None
    for line in lines:
        node = line.strip()
        if node.startswith("EnumerableLimit("):
            fetch |= "fetch=" in node
            offset |= "offset=" in node
            continue
        if node.startswith("EnumerableCalc(") and calc is None:
            calc = node
            continue
        found = _SORT.match(line)
        if found is None:
            return whole
        fetch |= "fetch=" in node
        offset |= "offset=" in node
        keys = [int(k) for k in _KEY.findall(found.group(1))]
        if calc is not None:
            mapped = _through_calc(calc, keys)
            if mapped is None:
                return SortKeys(whole.columns, fetch, offset)
            keys = mapped
        return SortKeys(tuple(keys), fetch, offset)
    return whole


def _through_calc(calc: str, keys: list[int]) -> list[int] | None:
    """The output columns of a Calc that pass the input columns ``keys`` through unchanged."""
    inputs = _INPUTS.search(calc)
    if inputs is None:
        return None
    count = int(inputs.group(1) or 0) + 1
    body = calc[calc.index("(") + 1 : calc.rindex(")")]
    outputs = [
        (name, int(t)) for name, t in _CALC_OUT.findall(body) if not name.startswith("expr#")
    ]
    where = {t: i for i, (_, t) in reversed(list(enumerate(outputs))) if t < count}
    if not all(k in where for k in keys):
        return None
    return [where[k] for k in keys]


def row_difference(
    ref: list[tuple[Any, ...]], got: list[tuple[Any, ...]], keys: SortKeys | None
) -> str | None:
    """What differs between the row lists, or None."""
    if len(ref) != len(got):
        return f"{len(ref)} rows vs {len(got)}"
    if keys is None:
        return None if same_multiset(ref, got) else "the rows differ (as multisets)"

    def key(row: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(row[i] for i in keys.columns)

    for i, (a, b) in enumerate(zip(ref, got, strict=True)):
        if not equal(key(a), key(b)):
            return f"the sort keys differ at row {i}: {key(a)!r} vs {key(b)!r}"
    groups = list(_ties(ref, key))
    for n, (start, end) in enumerate(groups):
        at_cut = (n == 0 and keys.offset) or (n == len(groups) - 1 and keys.fetch)
        if not at_cut and not same_multiset(ref[start:end], got[start:end]):
            return f"the rows that tie on the sort keys at rows {start}..{end - 1} differ"
    return None


def _ties(
    rows: list[tuple[Any, ...]], key: Callable[[tuple[Any, ...]], tuple[Any, ...]]
) -> Iterator[tuple[int, int]]:
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or not equal(key(rows[i]), key(rows[start])):
            yield start, i
            start = i


# --- documented differences ------------------------------------------------------------------

_ENTRY = re.compile(r"^(\S+?\.(?:sql|md):\S+):\s+(.*)$")


def load_differences(path: Path = DIFFERENCES) -> dict[str, str]:
    """``[<backend>/]<file>:<case>`` to the reason it differs; a reason may go on over indented
    lines."""
    entries: dict[str, str] = {}
    last: str | None = None
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            last = None
            continue
        if raw[0].isspace():
            if last is None:
                raise ValueError(f"{path.name}:{n}: a continuation line without an entry")
            entries[last] += " " + raw.strip()
            continue
        found = _ENTRY.match(raw)
        if found is None:
            raise ValueError(f"{path.name}:{n}: expected '<file>:<case>: <reason>'")
        last = found.group(1)
        if last in entries:
            raise ValueError(f"{path.name}:{n}: {last} is listed twice")
        entries[last] = found.group(2).strip()
    return entries
