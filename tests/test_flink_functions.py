"""Flink's built-in functions give Flink's answers: every case of ``tests/flink/cases/`` against
the value and type PyFlink gave (``tests/flink/golden/``, written by ``make golden-flink``).

Each case runs on the default backend, on ``enumerable`` and on ``duckdb``; DuckDB may refuse a
query (``cb.UnsupportedError``, then ``auto`` runs it on Calcite's engine), but a query it
accepts must give the same answer. A case file may set the session time zone
(``-- table.local-time-zone: ZONE``); the case runs in it, as in Flink. A case that differs
must be listed in ``tests/flink/expected.tsv`` with its outcome and reason, and a listed case
that no longer differs fails too, so the list only shrinks. PyFlink is not needed here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pytest
from tests.flink import oracle

import calcite_bridge as cb

GOLDEN = oracle.load_golden()
KNOWN = oracle.load_known()


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    e.config.set("table.local-time-zone", "UTC")
    yield e
    e.close()


_TYPES: dict[str, str | None] = {}


def _type(env: cb.Environment, sql: str) -> str | None:
    """The result type as Flink writes it (``STRING NOT NULL``, ``DECIMAL(4, 2)``)."""
    if sql not in _TYPES:
        env.execute(f"CREATE TEMPORARY VIEW flink_case AS {sql}")
        try:
            cols = env.describe("flink_case")
        finally:
            env.execute("DROP TEMPORARY VIEW flink_case")
        _TYPES[sql] = ", ".join(c.data_type + ("" if c.nullable else " NOT NULL") for c in cols)
    return _TYPES[sql]


def _answer(env: cb.Environment, sql: str, backend: str) -> tuple[str | None, str | None]:
    """(result as text, error message): one of them is None."""
    try:
        table = env.sql(sql, backend=backend).to_arrow_table()
    except cb.Error as e:
        return None, f"{type(e).__name__}: {e}"
    columns = [[_python(v, column.type) for v in column.to_pylist()] for column in table.columns]
    return oracle.render(list(zip(*columns, strict=True))), None


def _python(value: object, type_: pa.DataType) -> object:
    """A value as PyFlink gives it: a map (pairs in Arrow) is a dict, in arrays too."""
    if value is None:
        return None
    if pa.types.is_map(type_) and isinstance(value, list):
        return {
            _python(k, type_.key_type): _python(v, type_.item_type)  # type: ignore[attr-defined]
            for k, v in value
        }
    if pa.types.is_list(type_) and isinstance(value, list):
        return [_python(v, type_.value_type) for v in value]  # type: ignore[attr-defined]
    return value


def _cases() -> Iterator[object]:
    for g in GOLDEN:
        for backend in oracle.BACKENDS:
            yield pytest.param(g, backend, id=f"{g.category}:{g.sql}:{backend}")


@pytest.mark.parametrize(("golden", "backend"), list(_cases()))
def test_flink_function(env: cb.Environment, golden: oracle.Golden, backend: str) -> None:
    env.config.set("table.local-time-zone", oracle.zone_of(golden.category))
    result, error = _answer(env, golden.sql, backend)
    if backend == "duckdb" and error is not None and error.startswith("UnsupportedError"):
        return  # refused: `auto` runs it on Calcite's engine, checked by the other backends
    type_ = _type(env, golden.sql) if error is None else None
    got = oracle.outcome(golden, type_, result, error)
    known = oracle.known_for(KNOWN, golden.sql, backend)
    detail = (
        f"{golden.sql}\n  Flink: {golden.type} {golden.result}\n"
        f"  here ({backend}): {type_} {result if error is None else error}"
    )
    if known is None:
        assert got is None, f"differs from Flink ({got}): {detail}"
    else:
        assert got == known.outcome, (
            f"listed in tests/flink/expected.tsv as {known.outcome!r} ({known.reason}), "
            f"but {'now gives Flink answer' if got is None else got}: {detail}"
        )


def test_every_case_has_a_golden_answer() -> None:
    """The cases and the golden files agree: `make golden-flink` ran after the last edit."""
    cases = [(c.category, c.function, c.sql) for c in oracle.load_cases()]
    goldens = [(g.category, g.function, g.sql) for g in GOLDEN]
    assert cases == goldens


def test_expected_lists_only_cases() -> None:
    sqls = {g.sql for g in GOLDEN}
    stale = [k.sql for k in KNOWN if k.sql not in sqls]
    assert not stale, f"tests/flink/expected.tsv lists cases that do not exist: {stale}"
    assert all(k.backend in ("*", *oracle.BACKENDS) for k in KNOWN)
    assert all(k.kind in oracle.KINDS for k in KNOWN)


def test_errors_match_by_class() -> None:
    """An error golden is met by an error of the same class: refused before running, or failed
    while running; Flink's internal failures at either stage are met by any error."""
    refused = oracle.Golden("t", "F", "SELECT 1", "", "error: ValidationException: bad")
    failed = oracle.Golden("t", "F", "SELECT 1", "", "error: TableRuntimeException: bad")
    internal = oracle.Golden("t", "F", "SELECT 1", "", "error: CompileException: bad")
    assert oracle.outcome(refused, None, None, "SqlValidationError: x") is None
    assert oracle.outcome(refused, None, None, "UnsupportedError: x") is None
    assert oracle.outcome(refused, None, None, "ExecutionError: x") == "error-class"
    assert oracle.outcome(failed, None, None, "ExecutionError: x") is None
    assert oracle.outcome(failed, None, None, "SqlValidationError: x") == "error-class"
    assert oracle.outcome(internal, None, None, "ExecutionError: x") is None


def test_compatibility_page_is_current() -> None:
    text = oracle.render_docs(GOLDEN, KNOWN, oracle.load_functions())
    assert oracle.DOCS.read_text() == text, "run `make flink-docs` and commit the page"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT CURRENT_WATERMARK(x) FROM (VALUES (TIMESTAMP '2023-01-01 00:00:00')) AS t(x)",
        "SELECT SOURCE_WATERMARK()",
        "SELECT PROCTIME()",
    ],
)
def test_streaming_functions_are_refused_in_batch(env: cb.Environment, sql: str) -> None:
    with pytest.raises(cb.UnsupportedError, match="for streaming queries only") as info:
        env.sql(sql).fetchall()
    assert "line 1, column 8" in str(info.value)


@pytest.mark.parametrize(
    ("sql", "column"),
    [
        ("SELECT * FROM TO_CHANGELOG(input => TABLE t)", 15),
        ("SELECT k FROM FROM_CHANGELOG(input => TABLE t)", 15),
    ],
)
def test_changelog_functions_are_refused_in_batch(
    env: cb.Environment, sql: str, column: int
) -> None:
    """Flink's batch mode cannot plan them; here they are refused as streaming only."""
    with_t = "WITH t AS (SELECT * FROM (VALUES ('INSERT', 1)) AS v(op, k)) "
    with pytest.raises(cb.UnsupportedError, match="for streaming queries only") as info:
        env.sql(with_t + sql).fetchall()
    assert f"line 1, column {len(with_t) + column}" in str(info.value)


def test_a_model_is_a_clear_parse_error(env: cb.Environment) -> None:
    sql = "SELECT * FROM ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(s))"
    with pytest.raises(cb.SqlParseError, match=r"models \(CREATE MODEL.*are not supported"):
        env.sql(sql).fetchall()


def test_multisets_variants_and_bitmaps_cross_to_arrow_as_flink_gives_them(
    env: cb.Environment,
) -> None:
    """A MULTISET is a map of each element to its count (PyFlink gives a dict of counts), a
    VARIANT its JSON text and a BITMAP the bytes of BITMAP_TO_BYTES."""
    table = env.sql(
        "SELECT COLLECT(x) AS c, PARSE_JSON('{\"a\": [1, null]}') AS v, "
        "BITMAP_BUILD_AGG(x) AS b, BITMAP_TO_BYTES(BITMAP_BUILD_AGG(x)) AS bb "
        "FROM (VALUES (1), (2), (2), (CAST(NULL AS INT))) AS t(x)"
    ).to_arrow_table()
    counts = table.schema.field("c").type
    assert pa.types.is_map(counts)
    assert (counts.key_type, counts.item_type) == (pa.int32(), pa.int32())
    assert table.schema.field("v").type == pa.string()
    assert table.schema.field("b").type == pa.binary()
    row = table.to_pylist()[0]
    assert dict(row["c"]) == {1: 1, 2: 2}
    assert row["v"] == '{"a":[1,null]}'
    assert row["b"] == row["bb"] == bytes.fromhex("3A30000001000000000001001000000001000200")


def test_a_bitmap_column_holds_bitmaps_only(env: cb.Environment) -> None:
    """A table's BITMAP column is a BITMAP (DESCRIBE, TYPEOF), takes a BITMAP or NULL but not
    BYTES, gives its BITMAP to no BYTES column, and crosses to Arrow as its bytes."""
    env.execute("CREATE TABLE bitmaps (b BITMAP, x BYTES)")
    try:
        assert [(c.name, c.data_type) for c in env.describe("bitmaps")] == [
            ("b", "BITMAP"),
            ("x", "BYTES"),
        ]
        env.execute(
            "INSERT INTO bitmaps SELECT BITMAP_BUILD(ARRAY[1, 2]), "
            "BITMAP_TO_BYTES(BITMAP_BUILD(ARRAY[1, 2]))"
        )
        env.execute("INSERT INTO bitmaps VALUES (CAST(NULL AS BITMAP), CAST(NULL AS BYTES))")
        with pytest.raises(cb.SqlValidationError, match="field 'b' of type BITMAP from"):
            env.execute("INSERT INTO bitmaps VALUES (X'3A30000000000000', X'00')")
        with pytest.raises(cb.SqlValidationError, match="field 'x' of type BYTES from"):
            env.execute("INSERT INTO bitmaps SELECT b, b FROM bitmaps")
        with pytest.raises(cb.SqlValidationError, match="Type mismatch"):
            env.sql("SELECT b FROM bitmaps UNION ALL SELECT x FROM bitmaps").fetchall()
        rows = env.sql(
            "SELECT BITMAP_TO_STRING(b), TYPEOF(b), CAST(b AS STRING), b, x FROM bitmaps"
        ).fetchall()
        stored = bytes.fromhex("3A30000001000000000001001000000001000200")
        assert sorted(rows, key=str) == sorted(
            [("{1,2}", "BITMAP", "{1,2}", stored, stored), (None, "BITMAP", None, None, None)],
            key=str,
        )
    finally:
        env.execute("DROP TABLE bitmaps")


def test_a_multiset_holding_null_is_refused_as_it_crosses_to_arrow(env: cb.Environment) -> None:
    """A MULTISET is a map of each element to its count in Arrow, which has no NULL key: one
    holding a NULL is refused with a typed error, where its CARDINALITY counts the NULL."""
    with pytest.raises(cb.UnsupportedError, match="holds a NULL"):
        env.sql("SELECT MULTISET[1, NULL] AS m", backend="enumerable").to_arrow_table()
    rows = env.sql("SELECT CARDINALITY(MULTISET[1, NULL]) AS n").fetchall()
    assert rows == [(2,)]
    counts = env.sql("SELECT MULTISET[1, 2, 2] AS m").to_arrow_table().to_pylist()
    assert dict(counts[0]["m"]) == {1: 1, 2: 2}


def test_a_cast_of_a_variant_is_refused_at_its_position(env: cb.Environment) -> None:
    """Flink casts a VARIANT neither to nor from another type; its fields are read with v['k']."""
    with pytest.raises(cb.SqlValidationError, match="VARIANT") as info:
        env.sql("SELECT CAST(PARSE_JSON('{\"a\": 1}')['a'] AS INT)").fetchall()
    assert "line 1, column 8" in str(info.value)
    rows = env.sql("SELECT JSON_STRING(PARSE_JSON('{\"a\": [5, null]}')['a'][1])").fetchall()
    assert rows == [("5",)]


@pytest.mark.parametrize(
    "call",
    [
        "TYPEOF(1)",
        "CURRENT_DATABASE()",
        "TO_TIMESTAMP('2024-01-01 10:00:00')",
        "DATE_FORMAT(TIMESTAMP '2024-01-01 10:00:00', 'yyyy')",
        "SPLIT_INDEX('a,b', ',', 1)",
        "ARRAY_JOIN(ARRAY['a', 'b'], '-')",
        "CHAR_LENGTH('ab')",
        "COALESCE(CAST(NULL AS INT), 2)",
    ],
)
@pytest.mark.parametrize("backend", ["enumerable", "auto"])
def test_function_names_are_found_whatever_their_case(
    env: cb.Environment, call: str, backend: str
) -> None:
    # Flink's SQL scripts are often written in lower case: its function names are not
    # case-sensitive (identifiers are)
    name = call.split("(", 1)[0]
    expected = env.sql(f"SELECT {call} AS v", backend=backend).to_pylist()
    for spelling in (name.lower(), name.capitalize()):
        lowered = spelling + call[len(name) :]
        assert env.sql(f"select {lowered} as v", backend=backend).to_pylist() == expected
