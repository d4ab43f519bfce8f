"""Random tables with NULLs and random typed expressions over them, as SQL both engines read.

Every construct generated here has one meaning in Flink SQL, in DuckDB and in the SQL standard,
so any disagreement is a bug. Left out on purpose: division (``INT / INT`` truncates in Flink
and not in DuckDB), NaN (ordered differently), arithmetic that can overflow (values stay small),
and string/number comparisons (implicit casts differ).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import pyarrow as pa

NUMERIC = ("INT", "BIGINT", "DOUBLE", "DECIMAL")
TYPES = (*NUMERIC, "STRING", "BOOLEAN", "DATE", "TIMESTAMP")

SQL_TYPE = {
    "INT": "INT",
    "BIGINT": "BIGINT",
    "DOUBLE": "DOUBLE",
    "DECIMAL": "DECIMAL(10, 2)",
    "STRING": "STRING",
    "BOOLEAN": "BOOLEAN",
    "DATE": "DATE",
    "TIMESTAMP": "TIMESTAMP(3)",
}
ARROW_TYPE = {
    "INT": pa.int32(),
    "BIGINT": pa.int64(),
    "DOUBLE": pa.float64(),
    "DECIMAL": pa.decimal128(10, 2),
    "STRING": pa.string(),
    "BOOLEAN": pa.bool_(),
    "DATE": pa.date32(),
    "TIMESTAMP": pa.timestamp("ms"),
}

_DAY = dt.date(2024, 1, 1)
_TS = dt.datetime(2024, 1, 1, 10, 0, 0)


def _value(rng: random.Random, kind: str) -> object:  # noqa: PLR0911 (one return per type)
    """A non-NULL value of ``kind``, biased to small values, zero and ties."""
    if kind == "INT":
        return rng.choice([0, 1, -1, 2, 3, 5, 10, -7, 99, rng.randint(-20, 20)])
    if kind == "BIGINT":
        return rng.choice([0, 1, -1, 3, 5000000000, -5000000000, rng.randint(-20, 20)])
    if kind == "DOUBLE":
        return rng.choice([0.0, -0.0, 1.0, 1.5, -2.5, 3.0, 0.1, 1e10, float(rng.randint(-5, 5))])
    if kind == "DECIMAL":
        return Decimal(rng.choice(["0.00", "1.00", "1.50", "-2.50", "3.00", "0.10", "99.99"]))
    if kind == "STRING":
        return rng.choice(["", "a", "b", "ab", "A", " a", "abc", "b%", "1"])
    if kind == "BOOLEAN":
        return rng.choice([True, False])
    if kind == "DATE":
        return _DAY + dt.timedelta(days=rng.choice([0, 1, -1, 31, 366, -400]))
    return _TS + dt.timedelta(seconds=rng.choice([0, 1, -1, 3600, 86400, 0.5]))


def literal(value: object, kind: str) -> str:  # noqa: PLR0911 (one return per type)
    """``value`` as a SQL literal of ``kind`` (NULL as a typed CAST)."""
    if value is None:
        return f"CAST(NULL AS {SQL_TYPE[kind]})"
    if kind == "INT":
        return str(value)
    if kind == "BIGINT":
        return f"CAST({value} AS BIGINT)"
    if kind == "DOUBLE":
        assert isinstance(value, float)
        return f"CAST({value!r} AS DOUBLE)" if value != 0 or str(value) != "-0.0" else "-0.0E0"
    if kind == "DECIMAL":
        return f"CAST({value} AS DECIMAL(10, 2))"
    if kind == "STRING":
        assert isinstance(value, str)
        return "'" + value.replace("'", "''") + "'"
    if kind == "BOOLEAN":
        return "TRUE" if value else "FALSE"
    if kind == "DATE":
        return f"DATE '{value}'"
    assert isinstance(value, dt.datetime)
    return f"TIMESTAMP '{value:%Y-%m-%d %H:%M:%S.%f}'"[:-4] + "'"


@dataclass
class Table:
    name: str
    columns: list[tuple[str, str]]
    rows: list[tuple[object, ...]]

    def arrow(self) -> pa.Table:
        return pa.table(
            {
                col: pa.array([r[i] for r in self.rows], ARROW_TYPE[kind])
                for i, (col, kind) in enumerate(self.columns)
            }
        )

    def ddl(self) -> str:
        cols = ", ".join(f"{c} {SQL_TYPE[k]}" for c, k in self.columns)
        return f"CREATE TABLE {self.name} ({cols}) WITH ('connector' = 'memory')"

    def insert(self) -> str | None:
        if not self.rows:
            return None
        values = ", ".join(
            "(" + ", ".join(literal(v, k) for v, (_, k) in zip(r, self.columns, strict=True)) + ")"
            for r in self.rows
        )
        return f"INSERT INTO {self.name} VALUES {values}"


def tables(rng: random.Random, count: int = 3) -> list[Table]:
    """``count`` tables ``t0``.. of 2 to 5 columns and 0 to 8 rows, a third of values NULL."""
    out = []
    for t in range(count):
        kinds = [rng.choice(TYPES) for _ in range(rng.randint(2, 5))]
        columns = [(f"c{t}_{i}", k) for i, k in enumerate(kinds)]
        rows = [
            tuple(None if rng.random() < 0.3 else _value(rng, k) for k in kinds)
            for _ in range(rng.choice([0, 1, 2, 3, 5, 8]))
        ]
        out.append(Table(f"t{t}", columns, rows))
    return out


@dataclass
class Node:
    """An expression: SQL text built from a template and children, with its type."""

    kind: str
    template: str
    children: list[Node] = field(default_factory=list)
    scoped: bool = False
    """A sub-query: its children use the sub-query's columns and cannot stand in for it."""

    def sql(self) -> str:
        return self.template.format(*(c.sql() for c in self.children))

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children)


class Expressions:
    """Typed random expressions over the columns in scope (and sub-queries over ``tables``)."""

    def __init__(
        self, rng: random.Random, scope: list[tuple[str, str]], tables: list[Table]
    ) -> None:
        self.rng = rng
        self.scope = scope
        self.tables = tables

    def columns(self, kind: str) -> list[str]:
        return [name for name, k in self.scope if k == kind]

    def boolean(self, depth: int = 3) -> Node:
        r = self.rng
        if depth <= 0:
            return self._comparison(0)
        builders: list[Callable[[int], Node]] = [
            self._comparison,
            self._comparison,
            self._logic,
            self._logic,
            self._null_test,
            self._between,
            self._in_list,
            self._distinct,
            self._not,
            self._like,
            self._in_subquery,
            self._exists,
            self._case_boolean,
        ]
        return r.choice(builders)(depth - 1)

    def scalar(self, kind: str, depth: int) -> Node:  # noqa: PLR0911 (one return per form)
        r = self.rng
        cols = self.columns(kind)
        if depth <= 0 or r.random() < 0.45:
            if cols and r.random() < 0.75:
                return Node(kind, r.choice(cols))
            return self.constant(kind)
        choice = r.random()
        if kind in ("INT", "BIGINT", "DOUBLE", "DECIMAL") and choice < 0.35:
            op = r.choice(["+", "-"])
            return Node(
                kind, "({} " + op + " {})", [self.scalar(kind, depth - 1), self.small(kind)]
            )
        if kind in ("INT", "BIGINT", "DOUBLE", "DECIMAL") and choice < 0.45:
            return Node(kind, r.choice(["(- {})", "ABS({})"]), [self.scalar(kind, depth - 1)])
        if choice < 0.6:
            return Node(
                kind,
                "CASE WHEN {} THEN {} ELSE {} END",
                [
                    self.boolean(depth - 1),
                    self.scalar(kind, depth - 1),
                    self.scalar(kind, depth - 1),
                ],
            )
        if choice < 0.75:
            return Node(
                kind,
                "COALESCE({}, {})",
                [self.scalar(kind, depth - 1), self.scalar(kind, depth - 1)],
            )
        if choice < 0.85:
            return Node(
                kind, "NULLIF({}, {})", [self.scalar(kind, depth - 1), self.scalar(kind, depth - 1)]
            )
        if kind in ("BIGINT", "DOUBLE", "DECIMAL"):
            return Node(kind, f"CAST({{}} AS {SQL_TYPE[kind]})", [self.scalar("INT", depth - 1)])
        return self.constant(kind)

    def constant(self, kind: str) -> Node:
        value = None if self.rng.random() < 0.1 else _value(self.rng, kind)
        return Node(kind, literal(value, kind).replace("{", "{{").replace("}", "}}"))

    def small(self, kind: str) -> Node:
        return Node(kind, literal(self.rng.choice([0, 1, 2]), "INT"))

    def _kind(self) -> str:
        present = [k for _, k in self.scope]
        return self.rng.choice(present if present and self.rng.random() < 0.8 else TYPES)

    def _partner(self, kind: str) -> str:
        """A type comparable with ``kind``: itself, or another numeric type."""
        if kind in NUMERIC and self.rng.random() < 0.3:
            return self.rng.choice(NUMERIC)
        return kind

    def _comparison(self, depth: int) -> Node:
        kind = self._kind()
        op = self.rng.choice(["=", "<>", "<", "<=", ">", ">="])
        left = self.scalar(kind, depth)
        right = self.scalar(self._partner(kind), depth)
        return Node("BOOLEAN", "({} " + op + " {})", [left, right])

    def _logic(self, depth: int) -> Node:
        op = self.rng.choice(["AND", "OR"])
        return Node("BOOLEAN", "({} " + op + " {})", [self.boolean(depth), self.boolean(depth)])

    def _not(self, depth: int) -> Node:
        return Node("BOOLEAN", "(NOT {})", [self.boolean(depth)])

    def _null_test(self, depth: int) -> Node:
        kind = self._kind()
        test = self.rng.choice(["IS NULL", "IS NOT NULL"])
        return Node("BOOLEAN", "({} " + test + ")", [self.scalar(kind, depth)])

    def _between(self, depth: int) -> Node:
        kind = self._kind()
        if kind == "BOOLEAN":
            return self._comparison(depth)
        neg = "NOT " if self.rng.random() < 0.3 else ""
        parts = [self.scalar(kind, depth), self.scalar(kind, 0), self.scalar(kind, 0)]
        return Node("BOOLEAN", "({} " + neg + "BETWEEN {} AND {})", parts)

    def _in_list(self, depth: int) -> Node:
        kind = self._kind()
        items = [self.scalar(self._partner(kind), 0) for _ in range(self.rng.randint(1, 4))]
        neg = "NOT " if self.rng.random() < 0.3 else ""
        holes = ", ".join("{}" for _ in items)
        return Node(
            "BOOLEAN", "({} " + neg + "IN (" + holes + "))", [self.scalar(kind, depth), *items]
        )

    def _distinct(self, depth: int) -> Node:
        kind = self._kind()
        neg = "NOT " if self.rng.random() < 0.5 else ""
        parts = [self.scalar(kind, depth), self.scalar(kind, depth)]
        return Node("BOOLEAN", "({} IS " + neg + "DISTINCT FROM {})", parts)

    def _like(self, depth: int) -> Node:
        if not self.columns("STRING"):
            return self._comparison(depth)
        pattern = self.rng.choice(["'a%'", "'%b'", "'_'", "'%'", "''", "'a_c'"])
        neg = "NOT " if self.rng.random() < 0.3 else ""
        return Node(
            "BOOLEAN", "({} " + neg + "LIKE " + pattern + ")", [self.scalar("STRING", depth)]
        )

    def _case_boolean(self, depth: int) -> Node:
        parts = [self.boolean(depth), self.boolean(depth), self.boolean(depth)]
        return Node("BOOLEAN", "(CASE WHEN {} THEN {} ELSE {} END)", parts)

    def _sub(self, depth: int) -> tuple[Table, Expressions]:
        """A table for a sub-query, and expressions over it (correlated a third of the time)."""
        table = self.rng.choice(self.tables)
        scope = [*table.columns, *(self.scope if self.rng.random() < 0.3 else [])]
        return table, Expressions(self.rng, scope, self.tables)

    def _in_subquery(self, depth: int) -> Node:
        table, inner = self._sub(depth)
        col, kind = self.rng.choice(table.columns)
        where = inner.boolean(min(depth, 1))
        neg = "NOT " if self.rng.random() < 0.4 else ""
        outer = self.scalar(self._partner(kind), depth)
        return Node(
            "BOOLEAN",
            "({} " + neg + f"IN (SELECT {col} FROM {table.name} WHERE {{}}))",
            [outer, where],
            scoped=True,
        )

    def _exists(self, depth: int) -> Node:
        table, inner = self._sub(depth)
        neg = "NOT " if self.rng.random() < 0.4 else ""
        return Node(
            "BOOLEAN",
            f"({neg}EXISTS (SELECT 1 FROM {table.name} WHERE {{}}))",
            [inner.boolean(min(depth, 1))],
            scoped=True,
        )


@dataclass
class From:
    """A FROM clause: one table, or two joined on a random condition."""

    sql: str
    scope: list[tuple[str, str]]


def from_clause(rng: random.Random, tabs: list[Table]) -> From:
    first = rng.choice(tabs)
    if rng.random() < 0.5:
        return From(first.name, list(first.columns))
    second = rng.choice([t for t in tabs if t is not first])
    scope = [*first.columns, *second.columns]
    on = Expressions(rng, scope, tabs).boolean(1).sql()
    kind = rng.choice(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN"])
    if kind == "CROSS JOIN":
        return From(f"{first.name} CROSS JOIN {second.name}", scope)
    return From(f"{first.name} {kind} {second.name} ON {on}", scope)
