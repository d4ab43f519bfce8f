"""Splitting a SQL script into statements, for ``calcite-bridge -f`` and the shell.

A ``;`` ends a statement unless it is inside a string literal (``'it''s;'``), a quoted
identifier (```a;b``` or ``"a;b"``), a comment (``-- ;`` and ``/* ; */``), or Flink's
``EXECUTE STATEMENT SET BEGIN ...; ...; END``, the SQL client's ``BEGIN STATEMENT SET; ...;
END`` and ``EXPLAIN [EXECUTE] STATEMENT SET BEGIN ...; END``, whose ``;`` after ``END`` ends
it. Each statement
keeps the line and column where it starts, so an error can be reported at its place in the
script rather than in the statement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STATEMENT_SET = re.compile(
    r"(?:EXPLAIN\s+(?:[A-Za-z_]+\s*(?:,\s*[A-Za-z_]+\s*)*)?)?(?:EXECUTE\s+|BEGIN\s+)?"
    r"STATEMENT\s+SET\b",
    re.IGNORECASE,
)
_END = re.compile(r"\bEND\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """One statement of a script: its text (without the ``;``) and where it starts (1-based)."""

    text: str
    line: int
    column: int

    def positioned(self) -> str:
        """The text preceded by blank lines and spaces, so that the positions of an error in
        it are its positions in the script."""
        return "\n" * (self.line - 1) + " " * (self.column - 1) + self.text


def _skip_blank(text: str, i: int, end: int) -> int:
    """The index of the first character at or after ``i`` that is not a blank or a comment."""
    while i < end:
        if text[i].isspace():
            i += 1
        elif text.startswith("--", i):
            stop = text.find("\n", i, end)
            i = end if stop < 0 else stop + 1
        elif text.startswith("/*", i):
            stop = text.find("*/", i + 2, end)
            i = end if stop < 0 else stop + 2
        else:
            return i
    return end


def _only_comments(text: str) -> bool:
    return _skip_blank(text, 0, len(text)) == len(text)


def split(script: str) -> tuple[list[Statement], str]:
    """The complete statements of ``script`` and the text after the last ``;`` (an unfinished
    statement, or only blanks and comments)."""
    statements: list[Statement] = []
    i, n = 0, len(script)
    start = 0
    quote: str | None = None  # ', " or ` while inside one
    while i < n:
        ch = script[i]
        if quote is not None:
            if ch == quote:
                if i + 1 < n and script[i + 1] == quote:  # doubled: an escaped quote
                    i += 2
                    continue
                quote = None
            i += 1
        elif ch in "'\"`":
            quote = ch
            i += 1
        elif script.startswith("--", i):
            end = script.find("\n", i)
            i = n if end < 0 else end + 1
        elif script.startswith("/*", i):
            end = script.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch == ";" and _inside_statement_set(script, start, i):
            i += 1
        elif ch == ";":
            _add(statements, script, start, i)
            start = i + 1
            i += 1
        else:
            i += 1
    return statements, script[start:]


def _inside_statement_set(script: str, start: int, end: int) -> bool:
    """Whether ``script[start:end]`` is an EXECUTE STATEMENT SET that has not reached END."""
    begin = _skip_blank(script, start, end)
    return bool(_STATEMENT_SET.match(script, begin, end)) and not _END.search(script[begin:end])


def split_all(script: str) -> list[Statement]:
    """Every statement of ``script``; the last one may lack its ``;``."""
    statements, rest = split(script)
    _add(statements, script, len(script) - len(rest), len(script))
    return statements


def _add(statements: list[Statement], script: str, start: int, end: int) -> None:
    begin = _skip_blank(script, start, end)
    if begin == end:
        return
    line = script.count("\n", 0, begin) + 1
    column = begin - (script.rfind("\n", 0, begin) + 1) + 1
    statements.append(Statement(script[begin:end].rstrip(), line, column))


def is_complete(text: str) -> bool:
    """Whether ``text`` ends its last statement with ``;`` (the shell then runs it)."""
    statements, rest = split(text)
    return bool(statements) and _only_comments(rest)
