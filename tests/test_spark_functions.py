"""Python functions on the ``spark`` backend (docs/functions.md): a scalar function runs as a
Spark Python UDF, a vectorized one as an Arrow UDF and an aggregate one as a Python UDF over each
group's rows, in Spark's Python workers, checked against values computed in Python and the same
query on Calcite's engine; failures name the function.

One ``local[1]`` SparkSession serves the module (starting one takes seconds to tens of seconds)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import calcite_bridge as cb

pyspark = pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")

ROWS = 3_000
XS = [None if i % 7 == 3 else i - 50 for i in range(ROWS)]
SS = [None if i % 5 == 1 else f"w{i % 13}" for i in range(ROWS)]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from calcite_bridge import _spark

    yield _spark.local_session()


def _env(backend: str, spark: Any) -> cb.Environment:
    env = cb.connect(backend=backend, spark=spark) if backend == "spark" else cb.connect()
    env.register_arrow("t", pa.table({"x": pa.array(XS, pa.int64()), "s": pa.array(SS)}))

    def shout(s: str) -> str:
        return None if s is None else s.upper() + "!"  # type: ignore[return-value]

    env.create_function("plus1", lambda x: None if x is None else x + 1, return_type="BIGINT")
    env.create_function("shout", shout)
    env.create_function(
        "vsq",
        lambda a: pc.multiply(a, a),
        return_type="DOUBLE",
        arg_types=["DOUBLE"],
        vectorized=True,
    )
    return env


@pytest.fixture(scope="module")
def senv(spark: Any) -> cb.Environment:
    return _env("spark", spark)


def test_python_functions_run_on_spark_as_in_python(senv: cb.Environment, spark: Any) -> None:
    sql = "SELECT x, plus1(x) AS p, shout(s) AS u, vsq(x) AS v FROM t ORDER BY x, s"
    rows = senv.sql(sql, backend="spark").fetchall()
    reference = _env("enumerable", spark).sql(sql).fetchall()
    assert rows == reference
    expected = [
        (
            x,
            None if x is None else x + 1,
            None if s is None else s.upper() + "!",
            None if x is None else float(x * x),
        )
        for x, s in zip(XS, SS, strict=True)
    ]
    assert sorted(rows, key=repr) == sorted(expected, key=repr)
    # In a filter and nested, beside Spark's own expressions.
    filtered = senv.sql(
        "SELECT x, plus1(plus1(x)) * 2 FROM t WHERE shout(s) = 'W3!' AND x > 0 ORDER BY x",
        backend="spark",
    ).fetchall()
    assert filtered == sorted(
        (x, (x + 2) * 2)
        for x, s in zip(XS, SS, strict=True)
        if s == "w3" and x is not None and x > 0
    )


def test_numpy_scalars_a_function_returns_on_spark_are_their_python_values(
    senv: cb.Environment,
) -> None:
    import numpy as np

    senv.create_function(
        "np_twice", lambda x: None if x is None else np.int64(2 * x), return_type="BIGINT"
    )
    senv.create_function(
        "np_half", lambda x: None if x is None else np.float64(x / 2), return_type="DOUBLE"
    )
    rows = senv.sql(
        "SELECT x, np_twice(x), np_half(x) FROM t ORDER BY x NULLS FIRST LIMIT 3", backend="spark"
    ).fetchall()
    ordered = sorted(XS, key=lambda x: (x is not None, x))[:3]
    assert rows == [
        (x, None if x is None else 2 * x, None if x is None else x / 2) for x in ordered
    ]


def test_explain_shows_the_spark_udf(senv: cb.Environment) -> None:
    plan = senv.explain("SELECT plus1(x) FROM t", backend="spark")
    assert plan.startswith("Spark(")
    assert re.search(r"cb_py_\d+_i8_i8\(", plan, re.IGNORECASE), plan


def test_a_failing_function_on_spark_names_itself(senv: cb.Environment) -> None:
    def boom(x: int) -> int:
        if x is not None and x > 100:
            raise ValueError(f"too big: {x}")
        return x

    senv.create_function("boom", boom, replace=True)
    with pytest.raises(
        cb.ExecutionError, match=r"The function boom failed: ValueError: too big"
    ) as e:
        senv.sql("SELECT boom(x) FROM t", backend="spark").fetchall()
    assert "ValueError" in (e.value.source_traceback or "")
    senv.create_function("wrong", lambda x: "text", return_type="BIGINT", replace=True)
    with pytest.raises(cb.ExecutionError, match=r"The function wrong returned str 'text', not a"):
        senv.sql("SELECT wrong(x) FROM t", backend="spark").fetchall()
    # The environment goes on.
    assert senv.sql("SELECT plus1(CAST(1 AS BIGINT))", backend="spark").fetchall() == [(2,)]


def test_python_aggregate_functions_run_on_spark(senv: cb.Environment, spark: Any) -> None:
    """An aggregate function runs as a Python UDF over each group's rows, which Spark gathers
    with collect_list; checked against Calcite's engine and values computed here."""

    # Defined here, so that Spark's workers get it by value: they cannot import this module.
    class WeightedAvg:
        def create_accumulator(self) -> list[float]:
            return [0.0, 0.0]

        def accumulate(self, acc: list[float], v: int, w: int) -> None:
            if v is not None and w is not None:
                acc[0] += v * w
                acc[1] += w

        def get_value(self, acc: list[float]) -> float:
            return None if acc[1] == 0 else acc[0] / acc[1]  # type: ignore[return-value]

    reference = _env("enumerable", spark)
    for e in (senv, reference):
        e.create_aggregate_function("wavg", WeightedAvg, replace=True)
    sql = (
        "SELECT s, wavg(x, CAST(MOD(ABS(x), 3) AS BIGINT)) AS a, COUNT(*) AS n FROM t"
        " GROUP BY s ORDER BY s"
    )
    rows = senv.sql(sql, backend="spark").fetchall()
    assert rows == reference.sql(sql).fetchall()
    groups: dict[Any, list[tuple[Any, Any]]] = {}
    for x, s in zip(XS, SS, strict=True):
        groups.setdefault(s, []).append((x, None if x is None else abs(x) % 3))
    expected = []
    for s, pairs in groups.items():
        weights = sum(w for x, w in pairs if x is not None)
        total = sum(x * w for x, w in pairs if x is not None)
        expected.append((s, None if weights == 0 else total / weights, len(pairs)))
    assert sorted(rows, key=repr) == sorted(expected, key=repr)
    assert re.search(r"cb_py_\d+_f8_rw\(", senv.explain(sql, backend="spark"), re.I)
    # Over no rows, as on Calcite's engine.
    empty = "SELECT wavg(x, x) FROM t WHERE x > 1000000"
    assert senv.sql(empty, backend="spark").fetchall() == [(None,)]


def _words(s: str | None) -> list[tuple[str, int]]:
    return [] if s is None else [(w, len(w)) for w in s.split(" ") if w]


def test_python_table_functions_run_on_spark(senv: cb.Environment, spark: Any) -> None:
    """A table function runs as a Python UDF returning its rows as an array of structs, which
    Spark reads with LATERAL inline(...) (inline_outer for LEFT JOIN LATERAL ... ON TRUE);
    checked against Calcite's engine and values computed here."""

    # Defined here, so that Spark's workers get it by value: they cannot import this module.
    def split_words(s: str):  # type: ignore[no-untyped-def]
        if s is not None:
            if s == "boom":
                raise ValueError("no words in boom")
            for w in s.split(" "):
                if w:
                    yield (w, len(w))

    docs = [
        None if i % 9 == 4 else " ".join(f"w{j}" * (j % 3 + 1) for j in range(i % 4))
        for i in range(300)
    ]
    reference = _env("enumerable", spark)
    for e in (senv, reference):
        e.register_arrow("docs", pa.table({"id": list(range(300)), "s": docs}))
        e.create_table_function(
            "split_words", split_words, columns="word STRING, n INT", replace=True
        )
    inner = "SELECT id, w, n FROM docs, LATERAL TABLE(split_words(s)) AS x(w, n) ORDER BY id, w"
    rows = senv.sql(inner, backend="spark").fetchall()
    expected = sorted(
        ((i, w, n) for i, d in enumerate(docs) for w, n in _words(d)), key=lambda r: (r[0], r[1])
    )
    assert rows == expected
    assert rows == reference.sql(inner).fetchall()
    plan = senv.explain(inner, backend="spark")
    assert plan.startswith("Spark("), plan
    assert re.search(r"LATERAL inline\(", plan, re.I), plan
    left = (
        "SELECT id, w FROM docs LEFT JOIN LATERAL TABLE(split_words(s)) AS x(w, n) ON TRUE"
        " ORDER BY id, w"
    )
    rows = senv.sql(left, backend="spark").fetchall()
    expected_left = sorted(
        ((i, w) for i, d in enumerate(docs) for w in ([w for w, _ in _words(d)] or [None])),
        key=lambda r: (r[0], r[1] or ""),
    )
    assert rows == expected_left
    assert rows == reference.sql(left).fetchall()
    assert re.search(r"LATERAL inline_outer\(", senv.explain(left, backend="spark"), re.I)
    # A failure inside names the function; the environment goes on.
    with pytest.raises(cb.ExecutionError, match=r"The function split_words failed: ValueError"):
        senv.sql(
            "SELECT w FROM (VALUES (CAST('boom' AS STRING))) AS d(s),"
            " LATERAL TABLE(split_words(s)) AS x(w, n)",
            backend="spark",
        ).fetchall()
    assert senv.sql(
        "SELECT w, n FROM (VALUES (CAST('a bb' AS STRING))) AS d(s),"
        " LATERAL TABLE(split_words(s)) AS x(w, n)",
        backend="spark",
    ).fetchall() == [("a", 1), ("bb", 2)]
    reference.close()


def test_results_on_spark_as_on_calcites_engine(spark: Any) -> None:
    # A Decimal of more digits rounds half up (Spark rounded it half to even), an integer out of
    # a TINYINT's range names the function, a NaN stays a NaN.
    from decimal import Decimal

    ms = [Decimal("0.375"), Decimal("-0.375"), Decimal("1.25"), None]
    on_spark, reference = _env("spark", spark), _env("enumerable", spark)
    for env in (on_spark, reference):
        env.register_arrow(
            "m",
            pa.table(
                {
                    "k": range(len(ms)),
                    "m": pa.array(ms, pa.decimal128(6, 3)),
                    "f": pa.array([0.5, float("nan"), None, -1.0]),
                }
            ),
        )
        env.create_function(
            "third",
            lambda m: None if m is None else m / 3,
            return_type="DECIMAL(10, 2)",
            arg_types=["DECIMAL(6, 3)"],
        )
        env.create_function("twice", lambda f: None if f is None else f * 2, "DOUBLE", ["DOUBLE"])
        env.create_function("small", lambda k: k * 100, return_type="TINYINT", arg_types=["INT"])
    sql = "SELECT k, third(m), twice(f) FROM m ORDER BY k"
    got = on_spark.sql(sql).fetchall()
    assert repr(got) == repr(reference.sql(sql).fetchall())
    assert [r[1] for r in got] == [Decimal("0.13"), Decimal("-0.13"), Decimal("0.42"), None]
    for env in (on_spark, reference):
        with pytest.raises(cb.ExecutionError, match="The function small returned int 200, not"):
            env.sql("SELECT small(k) FROM m WHERE k = 2").fetchall()
