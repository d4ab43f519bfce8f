"""The queries the harness runs: every case of the fixture files, each over the tables its own
suite builds (tests/helpers/tables.py), and the queries of the README's runnable examples.

A suite's cases share environments: one per distinct ``setup`` key (a pushdown case's table and
source, a backend case's settings), built the first time a case needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.tables import (
    LIMIT_TABLE,
    NP_USERS,
    ORACLE_TABLES,
    PD_USERS,
    PUSHDOWN_TABLES,
    USERS_DDL,
    LimitRecording,
    PlainSource,
    Probe,
    ProjectionRecording,
    setup_backend,
    setup_column_expansion,
    setup_discovery,
    write_discovery_files,
)

import calcite_bridge as cb

# Builds the tables of a setup key into an environment; the folder is for files it writes.
Builder = Callable[[cb.Environment, tuple[str, ...], Path], None]


@dataclass(frozen=True)
class Query:
    """One query of a suite: the environment it runs in (``setup``) and settings to set first."""

    suite: str
    name: str
    sql: str
    setup: tuple[str, ...] = ()
    config: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        return f"{self.suite}:{self.name}"


@dataclass(frozen=True)
class Suite:
    name: str
    queries: list[Query]
    build: Builder


def _oracle(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    for name, table in ORACLE_TABLES.items():
        env.register_arrow(name, table)


def _pushdown(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    table_name, source = setup
    table = PUSHDOWN_TABLES[table_name]
    if source == "parquet":
        where = folder / "users"
        where.mkdir(exist_ok=True)
        pq.write_table(PD_USERS, where / "users.parquet", row_group_size=3)
        env.execute(USERS_DDL.format(path=where))
    elif source == "plain":
        env.register_source(table_name, PlainSource(table))
    elif source == "flat":
        env.register_source(table_name, Probe(table, "all", nested=False))
    else:
        env.register_source(table_name, Probe(table, source))


def _column_expansion(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    setup_column_expansion(env)


def _discovery(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    setup_discovery(env, write_discovery_files(folder))


def _nested_projection(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    env.register_source("users", ProjectionRecording(NP_USERS))


def _limit(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    env.register_source("t", LimitRecording(LIMIT_TABLE))


def _nothing(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    pass


def _backend(env: cb.Environment, setup: tuple[str, ...], folder: Path) -> None:
    setup_backend(env)


def _queries(file: str, cases: list[SqlCase], **kwargs: Any) -> list[Query]:
    return [Query(file, c.name, c.sql, **kwargs) for c in cases]


def _settings(case: SqlCase) -> tuple[tuple[str, str], ...]:
    pairs = []
    for item in case.all("config"):
        key, _, value = item.partition("=")
        pairs.append((key.strip(), value.strip()))
    return tuple(pairs)


def suites() -> list[Suite]:
    """Every suite, in report order."""
    return [
        Suite("queries.sql", _queries("queries.sql", load_cases("queries.sql")), _oracle),
        Suite(
            "pushdown.sql",
            [
                Query(
                    "pushdown.sql",
                    c.name,
                    c.sql,
                    setup=(c.get("table") or "users", c.get("source") or "all"),
                )
                for c in load_cases("pushdown.sql")
            ],
            _pushdown,
        ),
        Suite(
            "column_expansion.sql",
            [
                Query(
                    "column_expansion.sql",
                    c.name,
                    c.sql,
                    config=(("table.column-expansion-strategy", c.get("strategy") or ""),),
                )
                for c in load_cases("column_expansion.sql")
            ],
            _column_expansion,
        ),
        Suite("discovery.sql", _queries("discovery.sql", load_cases("discovery.sql")), _discovery),
        Suite(
            "nested_projection.sql",
            _queries("nested_projection.sql", load_cases("nested_projection.sql")),
            _nested_projection,
        ),
        Suite(
            "limit_pushdown.sql",
            _queries("limit_pushdown.sql", load_cases("limit_pushdown.sql")),
            _limit,
        ),
        Suite(
            "dyncol_cases.sql",
            [
                Query("dyncol_cases.sql", c.name, f"SELECT {c.sql}")
                for c in load_cases("dyncol_cases.sql", one_per_line=True)
            ],
            _nothing,
        ),
        Suite(
            "backend_cases.sql",
            [
                Query("backend_cases.sql", c.name, c.sql, setup=_flat(_settings(c)))
                for c in load_cases("backend_cases.sql", keys={"config"})
            ],
            _backend,
        ),
    ]


def _flat(pairs: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(f"{k}={v}" for k, v in pairs)


def settings_of(query: Query) -> list[tuple[str, str]]:
    """The settings a query runs under: its own, and those its setup key names."""
    pairs = list(query.config)
    for item in query.setup:
        key, sep, value = item.partition("=")
        if sep and "." in key:
            pairs.append((key, value))
    return pairs
