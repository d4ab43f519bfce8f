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


# Case mapping and length as Flink computes them (Java's String.toUpperCase / toLowerCase and a
# count of code points). DuckDB alone gives 'STRAẞE', 'i' for 'İ', 'οδοσ' for the final sigma.
CASES = [
    # (word, UPPER, LOWER, CHAR_LENGTH)
    ("straße", "STRASSE", "straße", 6),
    ("ΟΔΟΣ ΟΔΟΣ", "ΟΔΟΣ ΟΔΟΣ", "οδος οδος", 9),
    ("İstanbul", "İSTANBUL", "i̇stanbul", 8),
    ("ﬁne ﬂow", "FINE FLOW", "ﬁne ﬂow", 7),
    ("中😀", "中😀", "中😀", 2),
    ("😀😀😀", "😀😀😀", "😀😀😀", 3),
    ("ǰ", "J̌", "ǰ", 1),
    ("", "", "", 0),
    ("plain ASCII", "PLAIN ASCII", "plain ascii", 11),
]
# Every character whose Unicode case mapping gives more than one character (SpecialCasing.txt).
SPECIAL = [
    chr(c)
    for c in range(0x20000)
    if not 0xD800 <= c <= 0xDFFF and (len(chr(c).upper()) > 1 or len(chr(c).lower()) > 1)
]


@pytest.fixture(scope="module")
def words() -> Iterator[cb.Environment]:
    e = cb.connect()
    column = [w for w, *_ in CASES] + [None]
    e.register_arrow("words", pa.table({"id": pa.array(range(len(column))), "w": column}))
    e.register_arrow("special", pa.table({"c": SPECIAL}))
    yield e
    e.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_case_mapping_and_length_of_columns(words: cb.Environment, backend: str) -> None:
    sql = "SELECT UPPER(w) AS u, LOWER(w) AS l, CHAR_LENGTH(w) AS n FROM words ORDER BY id"
    got = [tuple(r.values()) for r in words.sql(sql, backend=backend).to_pylist()]
    assert got == [tuple(expected) for _, *expected in CASES] + [(None, None, None)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] or "empty")
def test_case_mapping_and_length_of_literals(
    words: cb.Environment, case: tuple[str, str, str, int], backend: str
) -> None:
    word, *expected = case
    sql = f"SELECT UPPER('{word}') AS u, LOWER('{word}') AS l, CHARACTER_LENGTH('{word}') AS n"
    assert list(words.sql(sql, backend=backend).to_pylist()[0].values()) == expected


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_special_case_mapping(words: cb.Environment, backend: str) -> None:
    sql = "SELECT c, UPPER(c) AS u, LOWER(c) AS l, CHAR_LENGTH(c) AS n FROM special"
    rows = words.sql(sql, backend=backend).to_pylist()
    assert len(rows) == len(SPECIAL) > 100
    for r in rows:
        assert (r["u"], r["l"], r["n"]) == (r["c"].upper(), r["c"].lower(), 1), r["c"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_case_mapping_in_a_predicate(words: cb.Environment, backend: str) -> None:
    sql = "SELECT id FROM words WHERE UPPER(w) = 'STRASSE' OR LOWER(w) LIKE '%ς%' ORDER BY id"
    assert [r["id"] for r in words.sql(sql, backend=backend).to_pylist()] == [0, 1]


# Issue 30: text that is not Unicode (a lone surrogate, which no encoding carries to the JVM) is a
# parse error at its position, in a literal, an identifier or a table option, on every path a
# statement takes; it was an "Unexpected failure in the JVM" or an untyped UnicodeEncodeError.
@pytest.mark.parametrize(
    ("sql", "line", "column"),
    [
        ("SELECT '\ud800' AS s", 1, 9),
        ("SELECT 1 AS `a\udfffb`", 1, 15),
        ("SELECT 1 AS x\nFROM (VALUES (1)) AS v(\udc80)", 2, 24),
        (
            "CREATE TABLE u (x INT) WITH ('connector' = 'memory', 'k' = '\ud800')",
            1,
            61,
        ),
    ],
)
@pytest.mark.parametrize("call", ["sql", "execute", "validate", "explain", "execute_script"])
def test_text_that_is_not_unicode_is_a_parse_error_at_its_position(
    env: cb.Environment, sql: str, line: int, column: int, call: str
) -> None:
    with pytest.raises(cb.SqlParseError, match="not valid Unicode: a lone surrogate") as info:
        result = getattr(env, call)(sql)
        if isinstance(result, cb.Result):
            result.fetchall()
    assert (info.value.line, info.value.column) == (line, column)
    str(info.value).encode("utf-8")  # the message and its snippet can be shown
    assert "u" not in env.tables()


def test_a_valid_pair_of_surrogates_is_one_character(env: cb.Environment) -> None:
    # In a Python string a character beyond the BMP is one code point, never a surrogate pair.
    assert env.sql("SELECT '\U0001f600' AS s").to_pylist() == [{"s": "\U0001f600"}]
