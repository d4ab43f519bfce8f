"""String literals take any Unicode character: in the select list, in comparisons with Arrow
data, in LIKE, in INSERT, on every backend (Calcite's default character set, ISO-8859-1, refused
``SELECT '中'``)."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pytest

import calcite_bridge as cb

WORDS = ["中文", "é", "😀 smile", "עברית", "Ωmega", "plain"]
BACKENDS = ("enumerable", "duckdb", "auto")


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    e.register_arrow("w", pa.table({"s": pa.array([*WORDS, None])}))
    yield e
    e.close()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("word", WORDS)
def test_a_literal_comes_back_as_written(env: cb.Environment, word: str, backend: str) -> None:
    rows = env.sql(f"SELECT '{word}' AS c, '{word}' || '!' AS d", backend=backend).to_pylist()
    assert rows == [{"c": word, "d": word + "!"}]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("word", WORDS)
def test_a_literal_matches_arrow_strings(env: cb.Environment, word: str, backend: str) -> None:
    sql = f"SELECT s FROM w WHERE s = '{word}' OR s LIKE '{word[0]}%'"
    got = {r["s"] for r in env.sql(sql, backend=backend).to_pylist()}
    assert got == {w for w in WORDS if w == word or w.startswith(word[0])}


def test_insert_and_read_back_through_a_memory_table() -> None:
    with cb.connect() as e:
        e.execute("CREATE TABLE m (s STRING) WITH ('connector' = 'memory')")
        e.execute("INSERT INTO m VALUES " + ", ".join(f"('{w}')" for w in WORDS) + ", (NULL)")
        rows = e.sql("SELECT s FROM m").to_pylist()
        assert [r["s"] for r in rows] == [*WORDS, None]
        assert e.sql("SELECT COUNT(*) AS n FROM m WHERE s = '中文'").to_pylist() == [{"n": 1}]


def test_an_error_after_a_unicode_literal_keeps_its_position() -> None:
    with cb.connect() as e, pytest.raises(cb.SqlParseError) as info:
        e.sql("SELECT '中文' AS c FROM")
    assert info.value.line == 1
    assert info.value.column is not None and info.value.column >= 20
