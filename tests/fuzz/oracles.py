"""The checks: ternary logic partitioning (TLP), non-optimizing reference engine construction
(NoREC), DuckDB as a second engine, and our two execution backends against each other.

- **TLP**: the rows of ``SELECT cols FROM f`` are exactly those of ``... WHERE p``,
  ``... WHERE NOT (p)`` and ``... WHERE (p) IS NULL`` together, as multisets.
- **NoREC**: ``SELECT COUNT(*) FROM f WHERE p`` equals
  ``SELECT SUM(CASE WHEN p THEN 1 ELSE 0 END) FROM f``, which no optimizer turns into a filter.
- **DuckDB**: ``... WHERE p`` gives the same rows in DuckDB over the same Arrow data.
- **backends**: ``... WHERE p`` gives the same rows on ``enumerable`` and on ``duckdb``
  (a query either backend refuses with ``cb.UnsupportedError`` is not compared).
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import duckdb

import calcite_bridge as cb

from .gen import Table

Rows = list[tuple[Any, ...]]
ORACLES = ("tlp", "norec", "duckdb", "backends")


@dataclass
class Mismatch:
    oracle: str
    queries: list[str]
    detail: str


def canon(value: Any) -> Any:
    """A value both engines agree on: -0.0 is 0.0, floats to 12 digits, decimals normalised."""
    if isinstance(value, float):
        return 0.0 if value == 0 else float(f"{value:.12g}")
    if isinstance(value, decimal.Decimal):
        return ("dec", str(value.normalize()) if value != 0 else "0")
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)
    return value


def bag(rows: Rows) -> Counter[tuple[Any, ...]]:
    return Counter(tuple(canon(v) for v in row) for row in rows)


class Engines:
    """Our Environments (one per backend) and a DuckDB connection over the same tables."""

    def __init__(self, tables: list[Table], use_memory_tables: bool) -> None:
        self.ours = {b: cb.connect(backend=b) for b in ("auto", "enumerable", "duckdb")}
        self.duck = duckdb.connect()
        self.setup: list[str] = []
        for table in tables:
            data = table.arrow()
            self.duck.register(table.name, data)
            for env in self.ours.values():
                if use_memory_tables:
                    env.execute(table.ddl())
                    insert = table.insert()
                    if insert is not None:
                        env.execute(insert)
                else:
                    env.register_arrow(table.name, data)
            self.setup.append(table.ddl())
            insert = table.insert()
            if insert is not None:
                self.setup.append(insert)

    def close(self) -> None:
        for env in self.ours.values():
            env.close()
        self.duck.close()

    def run(self, sql: str, backend: str = "auto") -> Rows:
        table = self.ours[backend].sql(sql).to_arrow_table()
        return [tuple(r.values()) for r in table.to_pylist()]

    def run_duck(self, sql: str) -> Rows:
        return [tuple(r) for r in self.duck.sql(sql).fetchall()]


def _ours(engines: Engines, sql: str, backend: str = "auto") -> Rows | str:
    try:
        return engines.run(sql, backend)
    except cb.Error as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"


Result = Mismatch | bool | None
"""None: the check passed; a Mismatch: it failed; False: it does not apply (the peer rejected
the query, or the backend refused it)."""


def check(engines: Engines, oracle: str, columns: str, source: str, predicate: str) -> Result:
    """Runs one check of ``oracle`` on ``SELECT columns FROM source`` filtered by ``predicate``."""
    return _CHECKS[oracle](engines, f"SELECT {columns} FROM {source}", source, predicate)


def _tlp(engines: Engines, base: str, source: str, predicate: str) -> Result:
    queries = [
        base,
        f"{base} WHERE {predicate}",
        f"{base} WHERE NOT ({predicate})",
        f"{base} WHERE ({predicate}) IS NULL",
    ]
    results = [_ours(engines, q) for q in queries]
    errors = [r for r in results if isinstance(r, str)]
    if errors:
        return Mismatch("tlp", queries, f"error: {errors[0]}")
    whole, *parts = (bag(r) for r in results if not isinstance(r, str))
    together = parts[0] + parts[1] + parts[2]
    if together == whole:
        return None
    return Mismatch("tlp", queries, _bags(whole, together, "all rows", "partitions"))


def _norec(engines: Engines, base: str, source: str, predicate: str) -> Result:
    counted = f"SELECT COUNT(*) FROM {source} WHERE {predicate}"
    summed = f"SELECT SUM(CASE WHEN {predicate} THEN 1 ELSE 0 END) FROM {source}"
    first, second = _ours(engines, counted), _ours(engines, summed)
    if isinstance(first, str) or isinstance(second, str):
        error = first if isinstance(first, str) else second
        return Mismatch("norec", [counted, summed], f"error: {error}")
    a, b = first[0][0], second[0][0] or 0
    if a == b:
        return None
    return Mismatch("norec", [counted, summed], f"COUNT(*) {a}, SUM(CASE) {b}")


def _duckdb(engines: Engines, base: str, source: str, predicate: str) -> Result:
    where = f"{base} WHERE {predicate}"
    try:
        peer = engines.run_duck(where)
    except duckdb.Error:
        return False
    got = _ours(engines, where)
    if isinstance(got, str):
        return Mismatch("duckdb", [where], f"DuckDB answers, we fail with {got}")
    if bag(got) == bag(peer):
        return None
    return Mismatch("duckdb", [where], _bags(bag(peer), bag(got), "DuckDB", "ours"))


def _backends(engines: Engines, base: str, source: str, predicate: str) -> Result:
    where = f"{base} WHERE {predicate}"
    reference = _ours(engines, where, "enumerable")
    other = _ours(engines, where, "duckdb")
    if any(isinstance(r, str) and r.startswith("UnsupportedError") for r in (reference, other)):
        return False
    if isinstance(reference, str) or isinstance(other, str):
        if reference == other:
            return None
        detail = f"enumerable: {_show(reference)}; duckdb: {_show(other)}"
        return Mismatch("backends", [where], detail)
    if bag(reference) == bag(other):
        return None
    return Mismatch("backends", [where], _bags(bag(reference), bag(other), "enumerable", "duckdb"))


_CHECKS: dict[str, Callable[[Engines, str, str, str], Result]] = {
    "tlp": _tlp,
    "norec": _norec,
    "duckdb": _duckdb,
    "backends": _backends,
}


def _show(result: Rows | str) -> str:
    return result if isinstance(result, str) else repr(result[:8])


def _bags(want: Counter[Any], got: Counter[Any], a: str, b: str) -> str:
    missing = list((want - got).elements())[:5]
    extra = list((got - want).elements())[:5]
    return (
        f"{a}: {sum(want.values())} rows, {b}: {sum(got.values())} rows; "
        f"only in {a}: {missing}; only in {b}: {extra}"
    )
