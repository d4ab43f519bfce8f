"""Python functions on the ``spark`` backend (docs/functions.md): a scalar function runs as a
Spark Python UDF and a vectorized one as an Arrow UDF, in Spark's Python workers, checked against
values computed in Python and the same query on Calcite's engine; failures name the function.

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


def test_spark_refuses_table_and_aggregate_functions(senv: cb.Environment) -> None:
    class Total:
        def create_accumulator(self) -> list[int]:
            return [0]

        def accumulate(self, acc: list[int], v: int) -> None:
            acc[0] += v or 0

        def get_value(self, acc: list[int]) -> int:
            return acc[0]

    senv.create_aggregate_function("total", Total, replace=True)
    with pytest.raises(cb.UnsupportedError, match="spark backend cannot run the function total"):
        senv.sql("SELECT total(x) FROM t", backend="spark")
    assert senv.sql("SELECT total(x) FROM t", backend="enumerable").fetchall() == [
        (sum(x for x in XS if x is not None),)
    ]
