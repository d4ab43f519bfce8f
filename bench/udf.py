"""User-defined Python functions (docs/functions.md), against DuckDB's own Python functions in the
same run.

``udf_vectorized_2m[backend]``: a vectorized function (``pyarrow.compute.multiply`` of a DOUBLE
column by itself) over 2,000,000 rows of an Arrow table, ``SELECT vsq(x) FROM t``, against the
same function registered in DuckDB alone as an Arrow function. The target is within 2x of DuckDB.
``udf_row_at_a_time[backend]``: a scalar function (``x + 1``) called once a row over 200,000 rows,
against DuckDB's own ``native`` Python function; the number is the cost a row, in microseconds
(the whole query's time over its rows).
``udf_java_row[backend]``: a Java function (``Long eval(Long x)``, ``x + 1``, from a jar compiled
here with the JDK's ``javac``) over the same 200,000 rows, on Calcite's engine (which calls the
method a row at a time in the JVM) and on DuckDB (an Arrow function handing each batch to the JVM);
the peer is the same query with the Python function on DuckDB. Skipped without ``javac``.
``udf_java_row_primitive[backend]``: the same with ``static long eval(long x)``, which DuckDB's
batches call over the column's 64-bit values without boxing them.
``udf_spark_row[python|java]``: the same two functions on the ``spark`` backend (a local
``local[1]`` session; a Python UDF in Spark's Python workers, the Java one through our generic Java
UDF on the executor), against the same query on DuckDB. Skipped without pyspark.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import as_table, duck_version, in_ms, record, started_env, time_ratio, timed

VECTORIZED_ROWS = 2_000_000
ROW_ROWS = 200_000
BACKENDS = ("enumerable", "duckdb")


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import duckdb
    import pyarrow as pa
    import pyarrow.compute as pc

    repeat = 3 if quick else 7
    rows = VECTORIZED_ROWS // (4 if quick else 1)
    table = pa.table({"x": pa.array([float(i % 1000) for i in range(rows)], pa.float64())})
    small = pa.table({"x": pa.array(range(ROW_ROWS // (4 if quick else 1)), pa.int64())})

    def vsq(a: Any) -> Any:
        return pc.multiply(a, a)

    def plus1(x: Any) -> Any:
        return None if x is None else x + 1

    env = started_env()
    env.register_arrow("t", table)
    env.register_arrow("s", small)
    env.create_function("vsq", vsq, return_type="DOUBLE", arg_types=["DOUBLE"], vectorized=True)
    env.create_function("plus1", plus1, return_type="BIGINT", arg_types=["BIGINT"])
    con = duckdb.connect()
    con.register("t", table)
    con.register("s", small)
    con.create_function("vsq", vsq, ["DOUBLE"], "DOUBLE", type="arrow")
    con.create_function("plus1", plus1, ["BIGINT"], "BIGINT", type="native")

    def peer(sql: str) -> pa.Table:
        return as_table(con.sql(sql).arrow())

    vectorized = "SELECT vsq(x) AS y FROM t"
    expected = peer(vectorized).column(0)
    peer_t = timed(lambda: peer(vectorized), repeat)
    for backend in BACKENDS:
        got = env.sql(vectorized, backend=backend).to_arrow_table().column(0)
        assert got.equals(expected), backend
        ours = timed(lambda b=backend: env.sql(vectorized, backend=b).to_arrow_table(), repeat)
        ratio = time_ratio(ours["median_s"], peer_t["median_s"])
        yield record(
            f"udf_vectorized_2m[{backend}]",
            {**in_ms(ours), "rows": rows},
            {**in_ms(peer_t), "engine": duck_version() + " Arrow UDF"},
            ratio,
            "ms",
            "within 2x of DuckDB's Arrow UDF",
            ratio <= 2.0,
        )
    per_row = "SELECT plus1(x) AS y FROM s"
    n = small.num_rows
    peer_r = timed(lambda: peer(per_row), repeat)
    for backend in BACKENDS:
        assert env.sql(per_row, backend=backend).to_arrow_table().num_rows == n
        ours = timed(lambda b=backend: env.sql(per_row, backend=b).to_arrow_table(), repeat)
        yield record(
            f"udf_row_at_a_time[{backend}]",
            {**in_ms(ours), "rows": n, "us_per_row": round(ours["median_s"] / n * 1e6, 3)},
            {
                **in_ms(peer_r),
                "engine": duck_version() + " native UDF",
                "us_per_row": round(peer_r["median_s"] / n * 1e6, 3),
            },
            time_ratio(ours["median_s"], peer_r["median_s"]),
            "ms",
            None,
            None,
            "cost of a function called once a row, measured",
        )
    yield from _java(env, small, repeat)


JAVA_PLUS1 = """
package bench;

public class Plus1 {
  public Long eval(Long x) { return x == null ? null : x + 1; }
}
"""

JAVA_PLUS1_PRIMITIVE = """
package bench;

public class Plus1p {
  public static long eval(long x) { return x + 1; }
}
"""


def _java(env: Any, small: Any, repeat: int) -> Iterator[dict[str, Any]]:
    """The Java function's rows: ours on each backend against the Python function on DuckDB."""
    if shutil.which("javac") is None or shutil.which("jar") is None:
        return
    with tempfile.TemporaryDirectory() as d:
        sources = []
        for name, text in (("Plus1", JAVA_PLUS1), ("Plus1p", JAVA_PLUS1_PRIMITIVE)):
            src = Path(d) / "src" / "bench" / f"{name}.java"
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_text(text)
            sources.append(str(src))
        classes = Path(d) / "classes"
        subprocess.run(["javac", "--release", "17", "-d", str(classes), *sources], check=True)
        jar = Path(d) / "plus1.jar"
        subprocess.run(["jar", "cf", str(jar), "-C", str(classes), "."], check=True)
        env.execute(f"CREATE FUNCTION jplus1 AS 'bench.Plus1' USING JAR '{jar}'")
        env.execute(f"CREATE FUNCTION jplus1p AS 'bench.Plus1p' USING JAR '{jar}'")
        n = small.num_rows
        python = "SELECT plus1(x) AS y FROM s"
        expected = env.sql(python, backend="duckdb").to_arrow_table().column(0)
        peer = timed(lambda: env.sql(python, backend="duckdb").to_arrow_table(), repeat)
        for bench, function in (("udf_java_row", "jplus1"), ("udf_java_row_primitive", "jplus1p")):
            java = f"SELECT {function}(x) AS y FROM s"
            for backend in BACKENDS:
                got = env.sql(java, backend=backend).to_arrow_table().column(0)
                assert got.equals(expected), backend
                ours = timed(
                    lambda b=backend, q=java: env.sql(q, backend=b).to_arrow_table(), repeat
                )
                yield record(
                    f"{bench}[{backend}]",
                    {
                        **in_ms(ours),
                        "rows": n,
                        "rows_per_s": round(n / ours["median_s"]),
                        "us_per_row": round(ours["median_s"] / n * 1e6, 3),
                    },
                    {
                        **in_ms(peer),
                        "engine": "the Python function on duckdb",
                        "rows_per_s": round(n / peer["median_s"]),
                    },
                    time_ratio(ours["median_s"], peer["median_s"]),
                    "ms",
                    None,
                    None,
                    "a Java function's rows a second, against the Python function on DuckDB",
                )
        yield from _spark(small, jar, expected, peer, repeat)
        env.execute("DROP FUNCTION jplus1")


def _spark(
    small: Any, jar: Path, expected: Any, peer: Any, repeat: int
) -> Iterator[dict[str, Any]]:
    """The Python and the Java function on the spark backend, against DuckDB's figures."""
    try:
        from calcite_bridge import _spark as spark_backend
    except ImportError:
        return
    import importlib.util

    import calcite_bridge as cb

    if importlib.util.find_spec("pyspark") is None:
        return
    senv = cb.connect(backend="spark", spark=spark_backend.local_session())
    try:
        senv.register_arrow("s", small)
        senv.create_function(
            "plus1",
            lambda x: None if x is None else x + 1,
            return_type="BIGINT",
            arg_types=["BIGINT"],
        )
        senv.execute(f"CREATE FUNCTION jplus1 AS 'bench.Plus1' USING JAR '{jar}'")
        n = small.num_rows
        for kind, sql in (
            ("python", "SELECT plus1(x) AS y FROM s"),
            ("java", "SELECT jplus1(x) AS y FROM s"),
        ):
            got = senv.sql(sql).to_arrow_table().column(0)
            assert sorted(got.to_pylist()) == sorted(expected.to_pylist()), kind
            ours = timed(lambda q=sql: senv.sql(q).to_arrow_table(), repeat)
            yield record(
                f"udf_spark_row[{kind}]",
                {
                    **in_ms(ours),
                    "rows": n,
                    "rows_per_s": round(n / ours["median_s"]),
                    "us_per_row": round(ours["median_s"] / n * 1e6, 3),
                },
                {**in_ms(peer), "engine": "the Python function on duckdb"},
                time_ratio(ours["median_s"], peer["median_s"]),
                "ms",
                None,
                None,
                "a function called once a row on spark (local[1]), measured",
            )
    finally:
        senv.close()
