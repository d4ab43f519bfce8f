"""NaN on every backend.

MIN and MAX of DOUBLE and FLOAT values holding NaN and infinities give the same answer whatever
the order of the rows: NaN above every number, as ``ORDER BY`` has it. DuckDB itself (the
``duckdb`` module, not the backend) is the oracle. Flink's own ``MIN`` and ``MAX`` depend on the
order of the rows (``tests/flink/cases/nan.sql``, listed as Flink defects).

Comparisons compare as Java's primitive operators do, as Flink does: NaN equals nothing, itself
included, and is neither greater nor smaller than a number. Python's ``float`` operators are the
same, so Python is the oracle: over columns, over constants (which planning must not fold with
NaN above every number) and in joins and sub-queries (which must not match NaN with NaN)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator

import duckdb
import pyarrow as pa
import pytest

import calcite_bridge as cb

SETS = [
    ("1", "'NaN'", "-1"),
    ("'NaN'", "'Infinity'", "1"),
    ("'NaN'", "'NaN'"),
    ("'NaN'", "NULL"),
    ("'Infinity'",),
    ("'-Infinity'",),
    ("'-Infinity'", "'NaN'"),
    ("NULL", "NULL"),
    ("0.0", "'NaN'", "2"),
]


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    yield e
    e.close()


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _orders() -> Iterator[object]:
    for values in SETS:
        for order in sorted(set(itertools.permutations(values))):
            for type_ in ("DOUBLE", "FLOAT"):
                yield pytest.param(order, type_, id=f"{type_}:{','.join(order)}")


@pytest.mark.parametrize(("order", "type_"), list(_orders()))
def test_min_and_max_do_not_depend_on_the_order_of_the_rows(
    env: cb.Environment, order: tuple[str, ...], type_: str
) -> None:
    rows = ", ".join(f"(CAST({v} AS {type_}))" for v in order)
    sql = f"SELECT MIN(x), MAX(x) FROM (VALUES {rows}) AS t(x)"
    oracle = duckdb.sql(sql.replace("FLOAT", "REAL")).fetchall()
    for backend in ("enumerable", "duckdb", "auto"):
        got = env.sql(sql, backend=backend).fetchall()
        assert len(got) == 1
        assert all(_same(a, b) for a, b in zip(got[0], oracle[0], strict=True)), (
            f"{backend}: {got} (DuckDB: {oracle}) for {sql}"
        )


def test_grouped_min_and_max_order_nan_above_every_number(env: cb.Environment) -> None:
    sql = (
        "SELECT k, MIN(x), MAX(x) FROM (VALUES (1, CAST('NaN' AS DOUBLE)), (1, CAST(2 AS DOUBLE)), "
        "(2, CAST(2 AS DOUBLE)), (2, CAST('NaN' AS DOUBLE)), (3, CAST('NaN' AS DOUBLE)), "
        "(4, CAST(NULL AS DOUBLE))) AS t(k, x) GROUP BY k ORDER BY k"
    )
    oracle = duckdb.sql(sql).fetchall()
    for backend in ("enumerable", "duckdb"):
        got = env.sql(sql, backend=backend).fetchall()
        assert len(got) == len(oracle) == 4
        for row, want in zip(got, oracle, strict=True):
            assert all(_same(a, b) for a, b in zip(row, want, strict=True)), (backend, got, oracle)


# ---- comparisons --------------------------------------------------------------------------------

NAN = float("nan")
INF = float("inf")
VALUES: list[float | None] = [NAN, 1.0, 2.0, -1.0, INF, -INF, None]
OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "=": lambda a, b: a == b,
    "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
BACKENDS = ("enumerable", "duckdb", "auto")


def _literal(v: float | None) -> str:
    if v is None:
        return "CAST(NULL AS DOUBLE)"
    if math.isnan(v):
        return "CAST('NaN' AS DOUBLE)"
    if math.isinf(v):
        return f"CAST('{'-' if v < 0 else ''}Infinity' AS DOUBLE)"
    return f"CAST({v!r} AS DOUBLE)"


def _compare(op: str, a: float | None, b: float | None) -> bool | None:
    return None if a is None or b is None else OPERATORS[op](a, b)


def _and(x: bool | None, y: bool | None) -> bool | None:
    if x is False or y is False:
        return False
    return None if x is None or y is None else True


def _or(x: bool | None, y: bool | None) -> bool | None:
    if x is True or y is True:
        return True
    return None if x is None or y is None else False


def _not_distinct(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a == b)


@pytest.fixture(scope="module")
def table(env: cb.Environment) -> list[tuple[float | None, float | None]]:
    pairs = [(a, b) for a in VALUES for b in VALUES]
    env.register_arrow(
        "nan_pairs",
        pa.table(
            {
                "id": pa.array(range(len(pairs)), pa.int32()),
                "a": pa.array([a for a, _ in pairs], pa.float64()),
                "b": pa.array([b for _, b in pairs], pa.float64()),
            }
        ),
        replace=True,
    )
    return pairs


@pytest.mark.parametrize("backend", BACKENDS)
def test_comparisons_of_columns_are_java_s(
    env: cb.Environment, table: list[tuple[float | None, float | None]], backend: str
) -> None:
    ops = list(OPERATORS)
    sql = (
        "SELECT "
        + ", ".join(f"a {op} b" for op in ops)
        + ", a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b, a BETWEEN b AND 2, "
        + "a NOT BETWEEN -1 AND b, a IN (b, 2e0), NULLIF(a, b) IS NULL "
        + "FROM nan_pairs ORDER BY id"
    )
    got = env.sql(sql, backend=backend).fetchall()
    for (a, b), row in zip(table, got, strict=True):
        between = _and(_compare("<=", b, a), _compare("<=", a, 2.0))
        # NOT BETWEEN is `a < low OR a > high`, in Flink as here: FALSE for a NaN.
        not_between = _or(_compare("<", a, -1.0), _compare(">", a, b))
        in_list = None if a is None else (True if a == 2 else None if b is None else a == b)
        want = (
            *(_compare(op, a, b) for op in ops),
            not _not_distinct(a, b),
            _not_distinct(a, b),
            between,
            not_between,
            in_list,
            a is None or (b is not None and a == b),
        )
        assert row == want, f"{backend}: a={a}, b={b}: {row} (Java: {want})"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", list(OPERATORS))
def test_comparisons_of_constants_are_java_s(env: cb.Environment, backend: str, op: str) -> None:
    pairs = [(a, b) for a in VALUES for b in VALUES]
    sql = "SELECT " + ", ".join(f"{_literal(a)} {op} {_literal(b)}" for a, b in pairs)
    got = env.sql(sql, backend=backend).fetchall()[0]
    want = tuple(_compare(op, a, b) for a, b in pairs)
    wrong = [(a, b, g, w) for (a, b), g, w in zip(pairs, got, want, strict=True) if g != w]
    # a NaN compared with the same NaN expression is TRUE for =, <= and >=, as in Flink (the
    # simplifier takes `x = x` as TRUE for a non-NULL x); every other pair is Java's answer.
    assert all(
        a is not None and b is not None and math.isnan(a) and math.isnan(b) for a, b, _, _ in wrong
    ), f"{backend}: {op}: {wrong}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", [*OPERATORS, "IS DISTINCT FROM", "IS NOT DISTINCT FROM"])
def test_comparisons_of_float_and_double_are_java_s(
    env: cb.Environment, backend: str, op: str
) -> None:
    # A FLOAT and a DOUBLE: two expressions, so even NaN against NaN is Java's answer (Calcite's
    # engine, which holds both as a double, compiled `CAST('NaN' AS FLOAT) = CAST('NaN' AS DOUBLE)`
    # to `e == e` and took it as TRUE).
    # One comparison a query: in a query of several, the engine's code held each operand in a
    # variable of its own, and compared them right.
    values = [v for v in VALUES if v is None or math.isnan(v) or v == 1.0]
    wrong = []
    for a in values:
        for b in values:
            f = _literal(a).replace("AS DOUBLE", "AS FLOAT")
            for sql, x, y in ((f"{f} {op} {_literal(b)}", a, b), (f"{_literal(b)} {op} {f}", b, a)):
                got = env.sql(f"SELECT {sql}", backend=backend).fetchall()[0][0]
                if op == "IS DISTINCT FROM":
                    want: bool | None = not _not_distinct(x, y)
                elif op == "IS NOT DISTINCT FROM":
                    want = _not_distinct(x, y)
                else:
                    want = _compare(op, x, y)
                if got != want:
                    wrong.append((sql, got, want))
    assert not wrong, f"{backend}: {wrong}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_conditions_are_java_s(env: cb.Environment, backend: str) -> None:
    nan = _literal(NAN)
    sql = (
        f"SELECT IF({nan} > 0, 'gt', 'not'), "
        f"CASE WHEN {nan} > 0 THEN 'gt' WHEN {nan} <= 0 THEN 'le' ELSE 'neither' END, "
        f"{nan} BETWEEN 0 AND 1, {nan} NOT BETWEEN 0 AND 1, CAST(1 AS DOUBLE) BETWEEN 0 AND {nan}, "
        f"{nan} IN (CAST(1 AS DOUBLE), CAST(2 AS DOUBLE)), {nan} NOT IN (CAST(1 AS DOUBLE))"
    )
    got = env.sql(sql, backend=backend).fetchall()
    assert got == [("not", "neither", False, False, False, False, True)], backend


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("join", ["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
@pytest.mark.parametrize("condition", ["x.a = y.b", "x.a IS NOT DISTINCT FROM y.b"])
def test_joins_match_no_nan(
    env: cb.Environment,
    table: list[tuple[float | None, float | None]],
    backend: str,
    join: str,
    condition: str,
) -> None:
    rows = [(i, v) for i, v in enumerate(VALUES)]
    left = ", ".join(f"({i}, {_literal(v)})" for i, v in rows)
    sql = (
        f"SELECT x.i, y.j FROM (VALUES {left}) AS x(i, a) {join} "
        f"(VALUES {left}) AS y(j, b) ON {condition}"
    )
    match = (
        _not_distinct
        if "DISTINCT" in condition
        else (lambda a, b: a is not None and b is not None and a == b)
    )
    want = [(i, j) for i, a in rows for j, b in rows if match(a, b)]
    if join in ("LEFT JOIN", "FULL JOIN"):
        want += [(i, None) for i, a in rows if not any(match(a, b) for _, b in rows)]
    if join in ("RIGHT JOIN", "FULL JOIN"):
        want += [(None, j) for j, b in rows if not any(match(a, b) for _, a in rows)]
    got = env.sql(sql, backend=backend).fetchall()
    key = lambda r: (r[0] is None, r[0] or 0, r[1] is None, r[1] or 0)  # noqa: E731
    assert sorted(got, key=key) == sorted(want, key=key), (backend, sql)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sub_queries_match_no_nan(env: cb.Environment, backend: str) -> None:
    inner = "(VALUES (CAST('NaN' AS DOUBLE)), (CAST(1 AS DOUBLE))) AS u(y)"
    outer = "(VALUES (0, CAST('NaN' AS DOUBLE)), (1, CAST(1 AS DOUBLE)), (2, CAST(2 AS DOUBLE)))"
    sql = (
        f"SELECT i, x IN (SELECT y FROM {inner}), x NOT IN (SELECT y FROM {inner}), "
        f"EXISTS (SELECT 1 FROM {inner} WHERE u.y = t.x) FROM {outer} AS t(i, x) ORDER BY i"
    )
    got = env.sql(sql, backend=backend).fetchall()
    assert got == [(0, False, True, False), (1, True, False, True), (2, False, True, False)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_rank_over_nan_orders_nan_last_and_ranks_each_nan_on_its_own(
    env: cb.Environment, backend: str
) -> None:
    # As Flink: NaN sorts above every number, but a row's peers are found with Java's ==, which
    # NaN fails, so two NaNs are no peers (NULLs are).
    sql = (
        "SELECT x, RANK() OVER (ORDER BY x), DENSE_RANK() OVER (ORDER BY x DESC) FROM (VALUES "
        "(CAST('NaN' AS DOUBLE)), (CAST(1 AS DOUBLE)), (CAST('NaN' AS DOUBLE)), "
        "(CAST(NULL AS DOUBLE)), (CAST(NULL AS DOUBLE))) AS t(x)"
    )
    got = sorted(env.sql(sql, backend=backend).fetchall(), key=lambda r: r[1])
    assert [r[1] for r in got] == [1, 1, 3, 4, 5], (backend, got)
    assert [r[2] for r in got[:3]] == [4, 4, 3], (backend, got)
    assert sorted(r[2] for r in got[3:]) == [1, 2], (backend, got)
    assert got[0][0] is None and got[2][0] == 1.0 and all(math.isnan(r[0]) for r in got[3:])


def test_window_min_and_max_order_nan_above_every_number(env: cb.Environment) -> None:
    sql = (
        "SELECT k, x, MAX(x) OVER (PARTITION BY k), MIN(x) OVER (PARTITION BY k), "
        "MIN(x) OVER (PARTITION BY k ORDER BY x NULLS FIRST ROWS UNBOUNDED PRECEDING) "
        "FROM (VALUES "
        "(1, CAST('NaN' AS DOUBLE)), (1, CAST(2 AS DOUBLE)), (2, CAST(2 AS DOUBLE)), "
        "(2, CAST('NaN' AS DOUBLE)), (3, CAST('NaN' AS DOUBLE)), (3, CAST(NULL AS DOUBLE)), "
        "(4, CAST(NULL AS DOUBLE))) AS t(k, x)"
    )
    oracle = sorted(duckdb.sql(sql).fetchall(), key=repr)
    for backend in BACKENDS:
        got = sorted(env.sql(sql, backend=backend).fetchall(), key=repr)
        assert len(got) == len(oracle) == 7
        for row, want in zip(got, oracle, strict=True):
            assert all(_same(a, b) for a, b in zip(row, want, strict=True)), (backend, got, oracle)
