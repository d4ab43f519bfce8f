"""A string literal written U&'\\0041' (or _UTF16'...') is an ordinary string, as in Flink
(PyFlink 2.3 gives the answers below): Calcite gave it the character set UTF-16LE, which its
validator refused to compare or concatenate with any other string, and which DuckDB could not
read."""

from __future__ import annotations

import pytest

import calcite_bridge as cb

CASES = [
    ("SELECT U&'\\0041' AS a", [("A",)]),
    ("SELECT U&'\\0041' || s AS a FROM (VALUES ('x')) AS t(s)", [("Ax",)]),
    ("SELECT s FROM (VALUES ('A')) AS t(s) WHERE s = U&'\\0041'", [("A",)]),
    ("SELECT U&'\\00e9t\\00e9' AS a", [("été",)]),
    ("SELECT U&'#0041' UESCAPE '#' AS a", [("A",)]),
    ("SELECT _UTF16'x' || 'y' AS a", [("xy",)]),
]


@pytest.fixture(scope="module")
def env() -> cb.Environment:
    return cb.connect()


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
@pytest.mark.parametrize(("sql", "rows"), CASES)
def test_a_unicode_escaped_literal_is_a_string(
    env: cb.Environment, backend: str, sql: str, rows: list[tuple[str]]
) -> None:
    assert str(env.validate(sql).field(0).type) == "string"
    assert env.sql(sql, backend=backend).fetchall() == rows
