"""The sqllogictest file format: records, result formatting, sorting and hashing.

Written from the format's description (sqlite.org/sqllogictest, "about.wiki"). A file is a
sequence of records separated by blank lines:

- ``statement ok`` / ``statement error`` followed by one SQL statement;
- ``query <types> [nosort|rowsort|valuesort] [label]`` followed by the SQL, a ``----`` line and
  the expected values, one per line, or ``N values hashing to <md5>``;
- ``hash-threshold N``: results with more than N values are compared by their MD5;
- ``halt``: stop reading the file;
- ``skipif <engine>`` / ``onlyif <engine>`` lines before a record, which skip it for an engine.

``#`` starts a comment line. Types are one letter per column: ``I`` integer, ``R`` real
(printed with three decimals), ``T`` text (the empty string is ``(empty)``, characters outside
printable ASCII become ``@``). NULL is ``NULL`` whatever the type.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

ENGINE = "calcite-bridge"
"""The engine name ``skipif``/``onlyif`` lines are matched against; no file names it, so every
``onlyif`` record is skipped and every ``skipif`` record runs."""


@dataclass(frozen=True)
class Statement:
    line: int
    sql: str
    expect_ok: bool


@dataclass(frozen=True)
class Query:
    line: int
    sql: str
    types: str
    sort: str
    label: str | None
    expected: tuple[str, ...] = ()
    """The expected values, one per entry, when the file lists them."""
    expected_hash: tuple[int, str] | None = None
    """``(count, md5)`` when the file gives ``N values hashing to H``."""


@dataclass(frozen=True)
class HashThreshold:
    line: int
    value: int


@dataclass(frozen=True)
class Halt:
    line: int


@dataclass(frozen=True)
class Skipped:
    """A record ``skipif``/``onlyif`` excludes for this engine."""

    line: int
    kind: str


Record = Statement | Query | HashThreshold | Halt | Skipped


@dataclass
class _Lines:
    lines: list[str]
    pos: int = 0
    comments: list[str] = field(default_factory=list)

    def at_end(self) -> bool:
        return self.pos >= len(self.lines)

    def peek(self) -> str:
        return self.lines[self.pos].rstrip("\r\n")

    def take(self) -> str:
        line = self.peek()
        self.pos += 1
        return line


def parse(text: str, engine: str = ENGINE) -> Iterator[Record]:
    """The records of a sqllogictest file, with ``skipif``/``onlyif`` applied for ``engine``."""
    src = _Lines(text.split("\n"))
    while not src.at_end():
        line = src.peek()
        if not line.strip() or line.lstrip().startswith("#"):
            src.take()
            continue
        start = src.pos + 1
        skip = False
        tokens = line.split()
        while tokens and tokens[0] in ("skipif", "onlyif"):
            src.take()
            names = tokens[1] if len(tokens) > 1 else ""
            match = names.lower() == engine.lower()
            if (tokens[0] == "skipif" and match) or (tokens[0] == "onlyif" and not match):
                skip = True
            tokens = src.peek().split() if not src.at_end() else []
        if not tokens:
            continue
        src.take()
        kind = tokens[0]
        body = _block(src)
        if skip:
            if kind == "halt":
                continue
            yield Skipped(start, kind)
            continue
        if kind == "statement":
            yield Statement(start, "\n".join(body), expect_ok=tokens[1] == "ok")
        elif kind == "query":
            yield _query(start, tokens, body)
        elif kind == "hash-threshold":
            yield HashThreshold(start, int(tokens[1]))
        elif kind == "halt":
            yield Halt(start)
            return
        else:
            raise ValueError(f"line {start}: unknown record {kind!r}")


def _block(src: _Lines) -> list[str]:
    body: list[str] = []
    while not src.at_end() and src.peek().strip():
        body.append(src.take())
    return body


def _query(line: int, tokens: list[str], body: list[str]) -> Query:
    types = tokens[1]
    sort = tokens[2] if len(tokens) > 2 else "nosort"
    label = tokens[3] if len(tokens) > 3 else None
    if "----" in body:
        cut = body.index("----")
        sql, results = body[:cut], body[cut + 1 :]
    else:
        sql, results = body, []
    found = re.fullmatch(r"(\d+) values hashing to ([0-9a-f]{32})", results[0]) if results else None
    if found is not None:
        return Query(line, "\n".join(sql), types, sort, label, (), (int(found[1]), found[2]))
    # One value per line, as the reference runner writes them.
    return Query(line, "\n".join(sql), types, sort, label, tuple(results))


def format_value(value: object, kind: str) -> str:
    """One result value as the reference runner prints it for column type ``kind``."""
    if value is None:
        return "NULL"
    if kind == "I":
        return str(_as_int(value))
    if kind == "R":
        return f"{_as_float(value):.3f}"
    text = _as_text(value)
    if text == "":
        return "(empty)"
    return "".join(c if " " <= c <= "~" else "@" for c in text)


def _as_int(value: object) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, (float, Decimal)):
        return 0 if isinstance(value, float) and not math.isfinite(value) else int(value)
    found = re.match(r"\s*[-+]?\d+", str(value))
    return int(found[0]) if found else 0


def _as_float(value: object) -> float:
    if isinstance(value, (bool, int, float, Decimal)):
        return float(value)
    found = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", str(value))
    return float(found[0]) if found else 0.0


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return str(value)


def arrange(values: list[str], columns: int, sort: str) -> list[str]:
    """The values in the order the file compares them, after ``rowsort`` or ``valuesort``."""
    if sort == "valuesort":
        return sorted(values)
    if sort == "rowsort" and columns > 0:
        rows = [values[i : i + columns] for i in range(0, len(values), columns)]
        return [v for row in sorted(rows) for v in row]
    return values


def digest(values: Sequence[str]) -> str:
    md5 = hashlib.md5()
    for value in values:
        md5.update(value.encode())
        md5.update(b"\n")
    return md5.hexdigest()


def read(path: Path) -> list[Record]:
    return list(parse(path.read_text(encoding="utf-8", errors="replace")))
