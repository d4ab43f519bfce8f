"""The fuzz loop: new random tables every few checks, a random FROM and predicate per check,
each oracle in turn; and the shrinking of a mismatch to a small repro."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TextIO

from . import gen, oracles

CHECKS_PER_TABLES = 12


@dataclass(frozen=True)
class Settings:
    seed: int
    seconds: float | None = None
    checks: int | None = None
    stop_at_first: bool = True


@dataclass
class Summary:
    seed: int
    counts: Counter[str] = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return (
            f"seed {self.seed}: {parts}; {len(self.mismatches)} mismatches ({self.seconds:.0f} s)"
        )


def run(settings: Settings, out: TextIO | None = None) -> Summary:
    rng = random.Random(settings.seed)
    summary = Summary(settings.seed)
    started = time.monotonic()
    done = 0

    def more() -> bool:
        if settings.checks is not None and done >= settings.checks:
            return False
        return settings.seconds is None or time.monotonic() - started < settings.seconds

    while more():
        tables = gen.tables(rng)
        memory = rng.random() < 0.5
        engines = oracles.Engines(tables, memory)
        try:
            for _ in range(CHECKS_PER_TABLES):
                if not more():
                    break
                oracle = oracles.ORACLES[done % len(oracles.ORACLES)]
                done += 1
                source = gen.from_clause(rng, tables)
                predicate = gen.Expressions(rng, source.scope, tables).boolean(rng.randint(1, 4))
                columns = ", ".join(name for name, _ in source.scope)
                result = oracles.check(engines, oracle, columns, source.sql, predicate.sql())
                if result is None:
                    summary.counts[oracle] += 1
                elif result is False:
                    summary.counts[f"{oracle} not applicable"] += 1
                else:
                    assert isinstance(result, oracles.Mismatch)
                    summary.counts[f"{oracle} MISMATCH"] += 1
                    repro = shrink(tables, memory, oracle, source, predicate)
                    summary.mismatches.append(repro)
                    if out is not None:
                        print(repro, file=out, flush=True)
                    if settings.stop_at_first:
                        summary.seconds = time.monotonic() - started
                        return summary
        finally:
            engines.close()
    summary.seconds = time.monotonic() - started
    return summary


def _fails(
    tables: list[gen.Table], memory: bool, oracle: str, source: gen.From, predicate: gen.Node
) -> oracles.Mismatch | None:
    engines = oracles.Engines(tables, memory)
    try:
        columns = ", ".join(name for name, _ in source.scope)
        result = oracles.check(engines, oracle, columns, source.sql, predicate.sql())
    finally:
        engines.close()
    return result if isinstance(result, oracles.Mismatch) else None


def shrink(
    tables: list[gen.Table], memory: bool, oracle: str, source: gen.From, predicate: gen.Node
) -> str:
    """A repro of the mismatch, after removing rows and simplifying the predicate while the
    mismatch still shows (bounded: at most a few hundred re-runs)."""
    budget = [300]

    def still(ts: list[gen.Table], p: gen.Node) -> oracles.Mismatch | None:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        hit = _fails(ts, memory, oracle, source, p)
        # Only the same failure counts: a simpler query that fails another way (an error where
        # rows differed, or another error) is a different bug.
        return hit if hit is not None and _kind(hit) == _kind(found) else None

    found = _fails(tables, memory, oracle, source, predicate)
    if found is None:
        where = predicate.sql()
        return f"mismatch ({oracle}) that does not reproduce in a fresh environment:\n  {where}"
    changed = True
    while changed and budget[0] > 0:
        changed = False
        for candidate in _simpler(predicate):
            hit = still(tables, candidate)
            if hit is not None:
                predicate, found, changed = candidate, hit, True
                break
        for i, table in enumerate(tables):
            for j in range(len(table.rows)):
                rows = table.rows[:j] + table.rows[j + 1 :]
                fewer = [*tables[:i], replace(table, rows=rows), *tables[i + 1 :]]
                hit = still(fewer, predicate)
                if hit is not None:
                    tables, found, changed = fewer, hit, True
                    break
    lines = [f"-- {oracle} mismatch: {found.detail}"]
    lines.append(f"-- tables as {'memory tables' if memory else 'register_arrow data'}")
    for table in tables:
        lines.append(table.ddl() + ";")
        insert = table.insert()
        if insert is not None:
            lines.append(insert + ";")
    lines.extend(q + ";" for q in found.queries)
    return "\n".join(lines)


def _kind(mismatch: oracles.Mismatch) -> str:
    """What kind of failure: wrong rows, or an error with its first words."""
    if "error:" in mismatch.detail or ": Error" in mismatch.detail or "fail" in mismatch.detail:
        return mismatch.detail[:60]
    return "rows"


def _simpler(node: gen.Node) -> Iterator[gen.Node]:
    """Trees one step simpler than ``node``: a node replaced by a child of its type, by a
    column or a literal."""
    for child in node.children:
        if child.kind == node.kind and not node.scoped:
            yield child
    if node.children:
        yield gen.Node(node.kind, "TRUE" if node.kind == "BOOLEAN" else _null(node.kind))
    for i, child in enumerate(node.children):
        for simpler in _simpler(child):
            kids = [*node.children[:i], simpler, *node.children[i + 1 :]]
            yield gen.Node(node.kind, node.template, kids, node.scoped)


def _null(kind: str) -> str:
    return gen.literal(None, kind)
