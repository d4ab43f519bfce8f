"""The one reader of the SQL case files in ``tests/fixtures/`` (the format: docs/testing.md).

A case file is a list of named cases::

    -- name: partial_nested_only
    -- source: nested_only
    -- offered: <(user.age, 30)
    -- offered: >(id, 1)
    SELECT id, user.name FROM users WHERE user.age < 30 AND id > 1;

``-- name: x`` starts a case; the ``-- key: value`` lines right after it are its attributes (a
key may repeat: its values keep their order); the lines after them are the SQL, up to the line
that ends with ``;`` or the next ``-- name:``. Other ``--`` lines and blank lines between cases
are comments. A file of one-line cases (``one_per_line=True``) has no headers: every line that
is not blank and not a comment is the SQL of one case, named after its line number.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

_NAME = re.compile(r"^--\s*name:\s*(\S+)\s*$")
_HEADER = re.compile(r"^--\s*([a-z][a-z0-9_]*):(?:\s(.*))?$")


class FixtureError(ValueError):
    """A case file that does not follow the format; the message names the file and line."""


@dataclass(frozen=True)
class SqlCase:
    """One case: its name, SQL (without the final ``;``) and header attributes."""

    name: str
    sql: str
    attrs: dict[str, list[str]] = field(default_factory=dict)
    path: Path | None = None
    line: int = 0

    def has(self, key: str) -> bool:
        return key in self.attrs

    def get(self, key: str, default: str | None = None) -> str | None:
        """The value of a key given once (``default`` when it is not given)."""
        values = self.attrs.get(key)
        if values is None:
            return default
        if len(values) != 1:
            raise FixtureError(f"{self.where}: '{key}' is given {len(values)} times")
        return values[0]

    def all(self, key: str) -> list[str]:
        """Every value of a key, in file order (empty when it is not given)."""
        return list(self.attrs.get(key, []))

    def split(self, key: str, sep: str = ",") -> list[str]:
        """A key given once as a ``sep``-separated list, each item stripped."""
        value = self.get(key)
        return [] if value is None else [item.strip() for item in value.split(sep)]

    def flag(self, key: str) -> bool:
        """A yes/no key: ``true`` or ``false``; absent is false."""
        value = (self.get(key) or "false").lower()
        if value not in ("true", "false"):
            raise FixtureError(f"{self.where}: '{key}' must be true or false, not {value!r}")
        return value == "true"

    def literal(self, key: str, default: Any = None) -> Any:
        """A key given once as a Python literal (numbers, strings, tuples, sets, None)."""
        value = self.get(key)
        return default if value is None else _literal(value, self.where, key)

    def literals(self, key: str) -> list[Any]:
        """Every value of a repeated key, each a Python literal."""
        return [_literal(v, self.where, key) for v in self.all(key)]

    @property
    def where(self) -> str:
        return f"{self.path.name if self.path else '<text>'}:{self.line} ({self.name})"


def _literal(value: str, where: str, key: str) -> Any:
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError) as e:
        raise FixtureError(f"{where}: '{key}' is not a Python literal: {value!r}") from e


def load_cases(
    path: str | Path, *, one_per_line: bool = False, keys: set[str] | None = None
) -> list[SqlCase]:
    """The cases of a file (a name alone is taken in ``FIXTURES``).

    ``keys``, when given, are the only header keys allowed: a misspelt key is an error rather
    than a silently ignored attribute. Names must be unique.
    """
    file = Path(path) if Path(path).is_absolute() else FIXTURES / path
    text = file.read_text(encoding="utf-8")
    cases = _per_line(text, file) if one_per_line else _parse(text, file, keys)
    seen: set[str] = set()
    for case in cases:
        if case.name in seen:
            raise FixtureError(f"{case.where}: a second case named {case.name!r}")
        seen.add(case.name)
    return cases


def _per_line(text: str, file: Path) -> list[SqlCase]:
    cases = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if _NAME.match(line):
            raise FixtureError(f"{file.name}:{n}: '-- name:' in a file of one-line cases")
        if not line or line.startswith("--"):
            continue
        cases.append(SqlCase(f"line_{n}", line.rstrip(";").rstrip(), {}, file, n))
    return cases


def _parse(text: str, file: Path, keys: set[str] | None) -> list[SqlCase]:
    cases: list[SqlCase] = []
    name: str | None = None
    start = 0
    attrs: dict[str, list[str]] = {}
    sql: list[str] = []

    def close() -> None:
        nonlocal name
        if name is None:
            return
        body = "\n".join(sql).strip()
        if body.endswith(";"):
            body = body[:-1].rstrip()
        if not body:
            raise FixtureError(f"{file.name}:{start}: case {name!r} has no SQL")
        cases.append(SqlCase(name, body, attrs, file, start))
        name = None

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        stripped = line.strip()
        found = _NAME.match(stripped)
        if found:
            close()
            name, start, attrs, sql = found.group(1), n, {}, []
            continue
        if name is None:
            if stripped and not stripped.startswith("--"):
                raise FixtureError(f"{file.name}:{n}: SQL outside a case (no '-- name:' above)")
            continue
        header = _HEADER.match(stripped)
        if not sql and header:
            key = header.group(1)
            if keys is not None and key not in keys:
                allowed = ", ".join(sorted(keys))
                raise FixtureError(f"{file.name}:{n}: unknown key {key!r} (allowed: {allowed})")
            attrs.setdefault(key, []).append((header.group(2) or "").strip())
            continue
        if stripped.startswith("--") or (not sql and not stripped):
            continue
        sql.append(line)
        if stripped.endswith(";"):
            close()
    close()
    return cases
