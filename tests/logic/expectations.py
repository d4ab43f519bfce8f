"""Which sqllogictest files run on which backends, and the records known to fail or not run.

``manifest.tsv``: one file per line, with the backends it runs on (comma-separated).
``expected.tsv``: ``file  backend  line  outcome  reason`` where backend is a name or ``*``
and outcome is ``fails`` (the record runs and must fail; the test notices when it is fixed) or
``not run`` (the record is not run, for example a query that takes minutes to plan).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    name: str
    backends: tuple[str, ...]


@dataclass
class Known:
    fails: set[int] = field(default_factory=set)
    not_run: frozenset[int] = frozenset()


def _rows(path: Path) -> list[list[str]]:
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append([cell.strip() for cell in line.split("\t")])
    return rows


def manifest() -> list[Case]:
    return [Case(r[0], tuple(r[1].split(","))) for r in _rows(HERE / "manifest.tsv")]


def known(name: str, backend: str) -> Known:
    result = Known()
    skipped: set[int] = set()
    for row in _rows(HERE / "expected.tsv"):
        file, where, line, outcome = row[0], row[1], int(row[2]), row[3]
        if file != name or where not in ("*", backend):
            continue
        if outcome == "fails":
            result.fails.add(line)
        elif outcome == "not run":
            skipped.add(line)
        else:
            raise ValueError(f"expected.tsv: unknown outcome {outcome!r}")
    result.not_run = frozenset(skipped)
    return result
