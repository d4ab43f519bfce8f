"""Shared fixtures: one JVM for the whole run, a fresh Environment per test."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import calcite_bridge as cb

EMP_DDL = """CREATE TABLE emp (
    id INT NOT NULL,
    name STRING,
    salary DOUBLE,
    addr ROW<city STRING, zip INT>,
    tags ARRAY<STRING>,
    props MAP<STRING, STRING>,
    bonus AS salary * 0.1
) WITH ('connector' = 'memory')"""

EMP_INSERT = """INSERT INTO emp (id, name, salary, addr, tags, props) VALUES
    (1, 'ann', 100.0, ROW('Paris', 75), ARRAY['a', 'b'], MAP['k', 'v1', 'level', 'senior']),
    (2, 'bob', 40.0, ROW('Lyon', 69), ARRAY['c'], MAP['k', 'v2']),
    (3, 'cy', 80.0, NULL, NULL, NULL)"""


@pytest.fixture
def env() -> Iterator[cb.Environment]:
    """A new, empty Environment; every test gets its own catalog and config."""
    e = cb.connect()
    yield e
    e.close()


@pytest.fixture
def emp_env(env: cb.Environment) -> cb.Environment:
    """An Environment holding the ``emp`` table of the demo, with three rows."""
    env.execute(EMP_DDL)
    env.execute(EMP_INSERT)
    return env


@pytest.fixture(scope="session", autouse=True)
def _release_arrow_buffers() -> Iterator[None]:
    # Arrow results point into JVM memory: free them before the interpreter (and the JVM) exits.
    yield
    gc.collect()
