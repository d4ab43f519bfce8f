"""Table API: build queries from Python calls, ``env.table("t").where("i > 1").select("*")``.

Every Table is a query in SQL text; ``"*"`` goes through the validator like any ``SELECT *``, so
the column expansion strategy applies to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ._sql import quote_identifier

if TYPE_CHECKING:
    import pyarrow as pa

    from .result import Result


class QueryRunner(Protocol):
    """What a Table needs of the environment that made it (an ``Environment`` is one): this module
    is below ``environment``, which imports it, so it names no ``Environment``."""

    def validate(self, sql: str) -> pa.Schema: ...

    def sql(self, sql: str) -> Result: ...

    def explain(self, sql: str, *, format: str = "text") -> str: ...


class Table:
    """A query over a table of an Environment. Immutable: each call returns a new Table."""

    def __init__(
        self,
        env: QueryRunner,
        source: str,
        *,
        items: tuple[str, ...] = ("*",),
        conditions: tuple[str, ...] = (),
        depth: int = 0,
    ) -> None:
        self._env = env
        self._source = source
        self._items = items
        self._conditions = conditions
        self._depth = depth

    def select(self, *items: str) -> Table:
        """Projects ``items``: column names or SQL expressions; ``"*"`` honours the strategy."""
        if not items:
            raise ValueError("select() needs at least one item")
        if self._items == ("*",):
            return self._copy(items=tuple(items))
        return self._nested().select(*items)

    def where(self, condition: str) -> Table:
        """Keeps the rows for which the SQL ``condition`` is true."""
        if self._items != ("*",):
            return self._nested().where(condition)
        return self._copy(conditions=(*self._conditions, condition))

    def to_sql(self) -> str:
        """The query as SQL text."""
        sql = f"SELECT {', '.join(self._items)} FROM {self._source}"
        if self._conditions:
            sql += " WHERE " + " AND ".join(f"({c})" for c in self._conditions)
        return sql

    @property
    def schema(self) -> pa.Schema:
        """The schema of the result, from validation alone."""
        return self._env.validate(self.to_sql())

    @property
    def columns(self) -> list[str]:
        return list(self.schema.names)

    def execute(self) -> Result:
        return self._env.sql(self.to_sql())

    def to_arrow_table(self) -> pa.Table:
        return self.execute().to_arrow_table()

    def to_arrow_reader(self) -> pa.RecordBatchReader:
        return self.execute().to_arrow_reader()

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.execute().fetchall()

    def explain(self, format: str = "text") -> str:
        return self._env.explain(self.to_sql(), format=format)

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self.execute().__arrow_c_stream__(requested_schema)

    def __repr__(self) -> str:
        return f"<Table {self.to_sql()}>"

    def _copy(self, **changes: Any) -> Table:
        args: dict[str, Any] = {
            "items": self._items,
            "conditions": self._conditions,
            "depth": self._depth,
        }
        args.update(changes)
        return Table(self._env, self._source, **args)

    def _nested(self) -> Table:
        alias = quote_identifier(f"q{self._depth}")
        return Table(self._env, f"({self.to_sql()}) AS {alias}", depth=self._depth + 1)
