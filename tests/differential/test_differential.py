"""Every query of the fixture files, and of the README's runnable examples, on each execution
backend, compared with the reference (Calcite's enumerable engine), in-process.

A query whose answer differs must be listed in differences.txt with the reason; a listed query
that no longer differs fails too, so the list only shrinks. The run's summary (and
``make differential-report``, docs/backends.md) counts the outcomes per file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.differential.harness import (
    BACKENDS,
    COLLECTOR,
    DIFFERS,
    Outcome,
    compare,
    listing,
    load_differences,
    unlisted,
)
from tests.differential.suites import Query, Suite, settings_of, suites
from tests.helpers.docs import runnable_blocks

import calcite_bridge as cb

SUITES = {suite.name: suite for suite in suites()}
QUERIES = [q for suite in SUITES.values() for q in suite.queries]
LISTED = load_differences()
COLLECTOR.listed = LISTED

README = Path(__file__).resolve().parent.parent.parent / "README.md"
# The README's runnable blocks that open environments with cb.connect, whose queries the test
# compares (the DB-API example connects through calcite_bridge.dbapi).
BLOCKS = [block for block in runnable_blocks(README) if "cb.connect(" in block]


class Environments:
    """One environment per suite and setup key, built when a query first needs it."""

    def __init__(self, folder: Callable[[str], Path]) -> None:
        self.folder = folder
        self.envs: dict[tuple[str, tuple[str, ...]], cb.Environment] = {}

    def get(self, query: Query) -> cb.Environment:
        key = (query.suite, query.setup)
        env = self.envs.get(key)
        if env is None:
            suite: Suite = SUITES[query.suite]
            env = cb.connect()
            suite.build(env, query.setup, self.folder(query.suite))
            self.envs[key] = env
        return env

    def close(self) -> None:
        for env in self.envs.values():
            env.close()
        self.envs.clear()


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Environments]:
    envs = Environments(functools.cache(tmp_path_factory.mktemp))
    yield envs
    envs.close()


def check(outcome: Outcome) -> str | None:
    """Why the outcome fails the run (an unlisted difference, a listed query that no longer
    differs), or None."""
    COLLECTOR.outcomes.append(outcome)
    reason = LISTED.get(outcome.listing)
    if outcome.status == DIFFERS and reason is None:
        return (
            f"{outcome.key} differs on {outcome.backend} (not in differences.txt):\n"
            f"{outcome.sql}\n{outcome.detail}"
        )
    if outcome.status != DIFFERS and reason is not None:
        return (
            f"{outcome.key} is listed in differences.txt but is now {outcome.status} on "
            f"{outcome.backend}: remove the entry ({reason})"
        )
    return None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("query", QUERIES, ids=[q.key for q in QUERIES])
def test_backend_agrees(environments: Environments, query: Query, backend: str) -> None:
    env = environments.get(query)
    for key, value in settings_of(query):
        env.config.set(key, value)
    problem = check(compare(env, query.suite, query.name, query.sql, backend))
    if problem:
        pytest.fail(problem, pytrace=False)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", range(len(BLOCKS)), ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_queries_agree(index: int, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs the README block; each ``env.sql`` it makes is compared where it is made."""
    suite = README.name
    problems: list[str] = []
    seen: list[str] = []
    connect = cb.connect

    def connecting(*args: Any, **kwargs: Any) -> cb.Environment:
        env = connect(*args, **kwargs)
        plain = env.sql

        def sql(text: str, *args: Any, **kw: Any) -> cb.Result:
            name = f"block{index}.q{len(seen) + 1}"
            seen.append(f"{suite}:{name}")
            env.sql = plain  # type: ignore[method-assign]
            # A statement's own timeout bounds its comparison runs too.
            limit = kw.get("timeout")
            before = env.config.get("execution.timeout")
            if limit is not None:
                seconds = isinstance(limit, (int, float))
                env.config.set("execution.timeout", f"{limit} s" if seconds else str(limit))
            try:
                problem = check(compare(env, suite, name, text, backend))
            finally:
                env.sql = sql  # type: ignore[method-assign]
                if limit is not None:
                    env.config.set("execution.timeout", before)
            if problem:
                problems.append(problem)
            return plain(text, *args, **kw)

        env.sql = sql  # type: ignore[method-assign]
        return env

    monkeypatch.setattr(cb, "connect", connecting)
    exec(compile(BLOCKS[index], f"README.md[{index}]", "exec"), {"__name__": "__doc_example__"})
    prefix = listing(backend, f"{suite}:block{index}.")
    stale = [k for k in LISTED if k.startswith(prefix) and unlisted(k) not in seen]
    problems += [
        f"{k} is listed in differences.txt but the example makes no such query" for k in stale
    ]
    assert seen, "the example makes no query"
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


def test_every_listed_difference_names_a_query() -> None:
    known = {q.key for q in QUERIES}
    stale = [
        k
        for k in LISTED
        if not unlisted(k).startswith(f"{README.name}:") and unlisted(k) not in known
    ]
    assert not stale, f"differences.txt lists queries that do not exist: {stale}"
