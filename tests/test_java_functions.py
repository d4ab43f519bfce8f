"""User-defined functions written in Java (docs/functions.md): ``CREATE FUNCTION ... AS 'class'
[LANGUAGE JAVA] [USING JAR '...']`` of a jar this module compiles into a temporary directory,
checked against values computed in Python on Calcite's engine and ``auto``; the backends that
cannot run them, NULLs, errors with the function's name and position, the jar allow-list, and
the CLI. The Java API's ``createFunction`` is JavaFunctionsTest's."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner

import calcite_bridge as cb
from calcite_bridge.cli import main

ROWS = 20_000  # more than two batches of Calcite's engine
XS = [None if i % 7 == 3 else i - 50 for i in range(ROWS)]
SS = [None if i % 5 == 1 else f"w{i % 13}" for i in range(ROWS)]

pytestmark = [
    pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK's javac and jar"),
    pytest.mark.jpype_only(reason="one JVM is enough: the functions run in it on either transport"),
]

SOURCES = {
    "com/acme/Plus1.java": """
package com.acme;

/** Flink's convention: public eval overloads, boxed types for NULL. */
public class Plus1 {
  public Long eval(Long x) { return x == null ? null : x + 1; }
  public String eval(String s) { return s == null ? null : s.toUpperCase() + "!"; }
  public Long eval(Long x, Long y) { return x == null || y == null ? null : x + y; }
}
""",
    "com/acme/Half.java": """
package com.acme;

/** A static eval with a primitive parameter: a NULL argument gives NULL. */
public class Half {
  public static double eval(double x) { return x / 2; }
}
""",
    "com/acme/Types.java": """
package com.acme;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

public class Types {
  public BigDecimal eval(BigDecimal d) { return d == null ? null : d.multiply(BigDecimal.TEN); }
  public LocalDate eval(LocalDate d) { return d == null ? null : d.plusDays(1); }
  public LocalDateTime eval(LocalDateTime t) { return t == null ? null : t.plusSeconds(1); }
  public byte[] eval(byte[] b) {
    if (b == null) { return null; }
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) { out[i] = b[b.length - 1 - i]; }
    return out;
  }
  public Boolean eval(Boolean b) { return b == null ? null : !b; }
}
""",
    "com/acme/Mix.java": """
package com.acme;

/** Primitive parameters and result: DuckDB's batches call it over the columns' 64-bit values. */
public class Mix {
  public long eval(long a, long b) { return a * 3 + b; }
  public double eval(double a) { return a * a; }
}
""",
    "com/acme/Boom.java": """
package com.acme;

public class Boom {
  public Integer eval(Integer x) {
    if (x != null && x > 100) { throw new IllegalArgumentException("too big: " + x); }
    return x;
  }
}
""",
    "com/acme/NoEval.java": """
package com.acme;

public class NoEval {
  public Integer apply(Integer x) { return x; }
}
""",
    "com/acme/SplitWords.java": """
package com.acme;

import java.util.ArrayList;
import java.util.List;

/** A table function: eval returns its rows, records whose components are the columns. */
public class SplitWords {
  public record Word(String word, Integer n) {}

  public List<Word> eval(String s) {
    List<Word> out = new ArrayList<>();
    if (s != null) {
      if (s.equals("boom")) { throw new IllegalStateException("no words in " + s); }
      for (String w : s.split(" ")) { out.add(new Word(w, w.length())); }
    }
    return out;
  }
}
""",
    "com/acme/WeightedAvg.java": """
package com.acme;

/** Flink's aggregate shape: createAccumulator, accumulate, getValue. */
public class WeightedAvg {
  public static class Acc { public double sum; public long weight; }

  public Acc createAccumulator() { return new Acc(); }

  public void accumulate(Acc acc, Long value, Long weight) {
    if (value != null && weight != null) {
      if (weight < 0) { throw new IllegalArgumentException("negative weight " + weight); }
      acc.sum += value * weight;
      acc.weight += weight;
    }
  }

  public Double getValue(Acc acc) { return acc.weight == 0 ? null : acc.sum / acc.weight; }
}
""",
    "com/acme/Counter.java": """
package com.acme;

/** Not deterministic, as Flink's isDeterministic() says: never computed once for a constant. */
public class Counter {
  private long n;
  public Long eval(Long x) { return ++n; }
  public boolean isDeterministic() { return false; }
}
""",
    "com/acme/Floats.java": """
package com.acme;

/** FLOAT (a Java float): beside a DOUBLE overload, which a FLOAT operand must not take. */
public class Floats {
  public Float eval(Float f) { return f == null ? null : f + 0.5f; }
  public Double eval(Double d) { return d == null ? null : d * 2; }
}
""",
    "com/acme/FloatSum.java": """
package com.acme;

public class FloatSum {
  public static class Acc { public float sum; public boolean any; }
  public Acc createAccumulator() { return new Acc(); }
  public void accumulate(Acc acc, Float f) { if (f != null) { acc.sum += f; acc.any = true; } }
  public Float getValue(Acc acc) { return acc.any ? acc.sum : null; }
}
""",
    "com/acme/Version.java": """
package com.acme;

public class Version {
  public static Integer eval() { return 1; }
}
""",
}


def _jar(directory: Path, sources: dict[str, str], name: str = "fn.jar") -> Path:
    """A jar of ``sources`` (path -> Java source), compiled into ``directory``."""
    src, classes = directory / "src", directory / "classes"
    for path, text in sources.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    classes.mkdir(exist_ok=True)
    files = [str(src / p) for p in sources]
    subprocess.run(["javac", "--release", "17", "-d", str(classes), *files], check=True)
    jar = directory / name
    subprocess.run(["jar", "cf", str(jar), "-C", str(classes), "."], check=True)
    return jar


@pytest.fixture(scope="module")
def jar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _jar(tmp_path_factory.mktemp("jar"), SOURCES)


@pytest.fixture
def jenv(env: cb.Environment, jar: Path) -> cb.Environment:
    env.register_arrow("t", pa.table({"x": pa.array(XS, pa.int64()), "s": pa.array(SS)}))
    for name, cls in (
        ("plus1", "Plus1"),
        ("half", "Half"),
        ("conv", "Types"),
        ("boom", "Boom"),
        ("mix", "Mix"),
    ):
        env.execute(f"CREATE FUNCTION {name} AS 'com.acme.{cls}' USING JAR '{jar}'")
    return env


def _column(env: cb.Environment, sql: str, backend: str) -> list[Any]:
    return [r[0] for r in env.sql(sql, backend=backend).fetchall()]


@pytest.mark.parametrize("backend", ("enumerable", "auto", "duckdb"))
def test_java_functions_against_python(jenv: cb.Environment, backend: str) -> None:
    assert _column(jenv, "SELECT plus1(x) FROM t", backend) == [
        None if x is None else x + 1 for x in XS
    ]
    assert _column(jenv, "SELECT plus1(s) FROM t", backend) == [
        None if s is None else s.upper() + "!" for s in SS
    ]
    assert _column(jenv, "SELECT plus1(x, 10) FROM t", backend) == [
        None if x is None else x + 10 for x in XS
    ]
    # An INT operand fits the double parameter; a NULL one gives NULL without a call.
    assert _column(jenv, "SELECT half(CAST(x AS INT)) FROM t", backend) == [
        None if x is None else x / 2 for x in XS
    ]
    # Primitive overloads, of a BIGINT and of a DOUBLE column; a NULL gives NULL without a call.
    assert _column(jenv, "SELECT mix(x, x + 1) FROM t", backend) == [
        None if x is None else x * 3 + x + 1 for x in XS
    ]
    assert _column(jenv, "SELECT mix(CAST(x AS DOUBLE)) FROM t", backend) == [
        None if x is None else float(x * x) for x in XS
    ]
    assert _column(jenv, "SELECT half(CAST(x AS DOUBLE)) FROM t", backend) == [
        None if x is None else x / 2 for x in XS
    ]
    rows = jenv.sql(
        "SELECT x, plus1(plus1(x)) * 2 FROM t WHERE plus1(s) = 'W3!' AND x > 0", backend=backend
    ).fetchall()
    assert rows == [
        (x, (x + 2) * 2)
        for x, s in zip(XS, SS, strict=True)
        if s == "w3" and x is not None and x > 0
    ]


@pytest.mark.parametrize("backend", ("enumerable", "auto", "duckdb"))
def test_types_cross_both_ways(jenv: cb.Environment, backend: str) -> None:
    jenv.register_arrow(
        "typed",
        pa.table(
            {
                "d": pa.array([Decimal("1.25"), None], pa.decimal128(10, 2)),
                "dy": pa.array([dt.date(2024, 2, 28), None], pa.date32()),
                "ts": pa.array(
                    [dt.datetime(2024, 1, 1, 23, 59, 59, 123456), None], pa.timestamp("us")
                ),
                "b": pa.array([b"\x01\x02\xff", None], pa.binary()),
                "bo": pa.array([True, None], pa.bool_()),
            }
        ),
    )
    sql = "SELECT conv(d), conv(dy), conv(ts), conv(b), conv(bo) FROM typed"
    rows = jenv.sql(sql, backend=backend).fetchall()
    on_duckdb = jenv.explain(sql, backend=backend).startswith("DuckDB(")
    assert on_duckdb == (backend != "enumerable")
    assert rows == [
        (
            Decimal("12.5"),
            dt.date(2024, 2, 29),
            # Calcite's engine passes milliseconds; DuckDB passes its microseconds.
            dt.datetime(2024, 1, 2, 0, 0, 0, 123456 if on_duckdb else 123000),
            b"\xff\x02\x01",
            False,
        ),
        (None, None, None, None, None),
    ]
    constants = jenv.sql(
        "SELECT conv(CAST(1.25 AS DECIMAL(10, 2))), conv(DATE '2024-02-28'), conv(TRUE),"
        " conv(CAST(NULL AS DATE)), conv(CAST(NULL AS BOOLEAN))",
        backend="enumerable" if backend == "duckdb" else backend,
    ).fetchall()
    assert constants == [(Decimal("12.5"), dt.date(2024, 2, 29), False, None, None)]
    schema = jenv.sql("SELECT conv(DATE '2024-02-28') AS d, plus1(x) AS p FROM t").schema
    assert (schema.field("d").type, schema.field("p").type) == (pa.date32(), pa.int64())


@pytest.mark.parametrize("backend", ("enumerable", "auto", "duckdb"))
def test_a_float_crosses_as_a_java_float(env: cb.Environment, jar: Path, backend: str) -> None:
    fs = [1.5, None, -2.25, 0.0]
    env.register_arrow("fl", pa.table({"k": range(4), "f": pa.array(fs, pa.float32())}))
    env.execute(f"CREATE FUNCTION floats AS 'com.acme.Floats' USING JAR '{jar}'")
    rows = env.sql(
        "SELECT floats(f), floats(CAST(f AS DOUBLE)) FROM fl ORDER BY k", backend=backend
    ).fetchall()
    assert rows == [(None, None) if f is None else (f + 0.5, f * 2) for f in fs]
    assert env.validate("SELECT floats(f) FROM fl").field(0).type == pa.float32()
    # A DDL's FLOAT column and a CAST to FLOAT are Flink's FLOAT too: a Float, not a Double.
    env.execute("CREATE TABLE fd (k INT, f FLOAT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO fd VALUES (1, CAST(1.5 AS FLOAT)), (2, CAST(NULL AS FLOAT))")
    rows = env.sql(
        "SELECT floats(f), floats(CAST(k AS FLOAT)) FROM fd ORDER BY k", backend=backend
    ).fetchall()
    assert rows == [(2.0, 1.5), (None, 2.5)]
    if backend == "duckdb":
        return  # a Java aggregate function runs on Calcite's engine (auto)
    env.execute(f"CREATE FUNCTION float_sum AS 'com.acme.FloatSum' USING JAR '{jar}'")
    got = env.sql("SELECT float_sum(f), float_sum(f) FILTER (WHERE k > 5) FROM fl", backend=backend)
    assert got.fetchall() == [(sum(f for f in fs if f is not None), None)]


def _split_words(s: str | None) -> list[tuple[str, int]]:
    return [] if s is None else [(w, len(w)) for w in s.split(" ")]


@pytest.mark.parametrize("backend", ("enumerable", "auto"))
def test_java_table_functions_against_python(env: cb.Environment, jar: Path, backend: str) -> None:
    docs = [
        None if i % 9 == 4 else " ".join(f"w{j}" * (j % 3 + 1) for j in range(i % 4))
        for i in range(500)
    ]
    docs = [d if d != "" else "x" for d in docs]
    env.register_arrow("docs", pa.table({"id": list(range(500)), "s": docs}))
    env.execute(f"CREATE FUNCTION split_words AS 'com.acme.SplitWords' USING JAR '{jar}'")
    rows = env.sql(
        "SELECT id, w, n FROM docs, LATERAL TABLE(split_words(s)) AS x(w, n) ORDER BY id",
        backend=backend,
    ).fetchall()
    assert rows == [(i, w, n) for i, d in enumerate(docs) for w, n in _split_words(d)]
    left = env.sql(
        "SELECT id, w FROM docs LEFT JOIN LATERAL TABLE(split_words(s)) AS x(w, n) ON TRUE"
        " ORDER BY id",
        backend=backend,
    ).fetchall()
    assert left == [
        (i, w) for i, d in enumerate(docs) for w in ([w for w, _ in _split_words(d)] or [None])
    ]
    assert env.sql("SELECT * FROM TABLE(split_words('a bb'))", backend=backend).fetchall() == [
        ("a", 1),
        ("bb", 2),
    ]


def test_java_table_function_errors_and_description(env: cb.Environment, jar: Path) -> None:
    env.execute(f"CREATE FUNCTION split_words AS 'com.acme.SplitWords' USING JAR '{jar}'")
    with pytest.raises(
        cb.ExecutionError,
        match=r"The function split_words failed: java\.lang\.IllegalStateException: no words",
    ):
        env.sql("SELECT * FROM TABLE(split_words('boom'))").fetchall()
    info = dict(env.execute("DESCRIBE FUNCTION EXTENDED split_words").fetchall())
    assert (info["kind"], info["class name"]) == ("TABLE", "com.acme.SplitWords")
    signature = "split_words(String) -> ARRAY<ROW<`word` STRING, `n` INT> NOT NULL>"
    assert info["signature"] == signature


def _wavg(pairs: list[tuple[Any, Any]]) -> float | None:
    kept = [(v, w) for v, w in pairs if v is not None and w is not None]
    total = sum(w for _, w in kept)
    return None if total == 0 else sum(v * w for v, w in kept) / total


WAVG_BY_GROUP = "SELECT s, wavg(x, CAST(x AS INT) % 5 + 5) FROM t GROUP BY s ORDER BY s NULLS FIRST"


def _check_wavg(env: cb.Environment, xs: list[Any], ss: list[Any], backend: str) -> None:
    """The Java aggregate wavg (com.acme.WeightedAvg) over t against values computed in Python:
    by group (a NULL group, NULL values skipped), over all rows with a FILTER (refused on Spark,
    as any aggregate's), over no rows, and an exception of accumulate as the ExecutionError naming
    the function."""
    rows = env.sql(WAVG_BY_GROUP, backend=backend).fetchall()
    groups: dict[Any, list[tuple[Any, Any]]] = {}
    for x, s in zip(xs, ss, strict=True):
        groups.setdefault(s, []).append(
            (x, None if x is None else x % 5 + 5 if x >= 0 else -(-x % 5) + 5)
        )
    expected = [
        (s, _wavg(groups[s])) for s in sorted(groups, key=lambda k: (k is not None, k or ""))
    ]
    assert [(s, pytest.approx(v) if v is not None else None) for s, v in expected] == rows
    filtered = "SELECT wavg(x, 1) FILTER (WHERE x > 10) FROM t"
    if backend == "spark":  # as for every aggregate there
        with pytest.raises(cb.UnsupportedError, match="an aggregate with FILTER"):
            env.sql(filtered, backend=backend)
    else:
        assert env.sql(filtered, backend=backend).fetchall() == [
            (pytest.approx(_wavg([(x, 1) for x in xs if x is not None and x > 10])),)
        ]
    assert env.sql("SELECT wavg(x, x) FROM t WHERE x > 1000000", backend=backend).fetchall() == [
        (None,)
    ]
    with pytest.raises(
        cb.ExecutionError,
        match=r"The function wavg failed: java\.lang\.IllegalArgumentException: negative weight -1",
    ):
        env.sql("SELECT wavg(x, -1) FROM t", backend=backend).fetchall()
    # The environment goes on.
    assert env.sql("SELECT wavg(x, 2) FROM t WHERE x = 5", backend=backend).fetchall() == [
        (pytest.approx(5.0),)
    ]


@pytest.mark.parametrize("backend", ("enumerable", "auto"))
def test_java_aggregate_functions_against_python(
    jenv: cb.Environment, jar: Path, backend: str
) -> None:
    jenv.execute(f"CREATE TEMPORARY FUNCTION wavg AS 'com.acme.WeightedAvg' USING JAR '{jar}'")
    _check_wavg(jenv, XS, SS, backend)
    info = dict(jenv.execute("DESCRIBE FUNCTION EXTENDED wavg").fetchall())
    assert (info["kind"], info["signature"]) == ("AGGREGATE", "wavg(BIGINT, BIGINT) -> DOUBLE")


def test_explain_shows_where_java_functions_run(jenv: cb.Environment, jar: Path) -> None:
    # Calcite's engine calls the method itself: no Python batch.
    enumerable = jenv.explain("SELECT plus1(x) FROM t", backend="enumerable")
    assert "plus1($t0)" in enumerable and "PythonBatch" not in enumerable
    # On DuckDB (and so under auto) an Arrow function hands each batch to the JVM: the call
    # names the function, its class and the overload the validator chose.
    for backend in ("auto", "duckdb"):
        for sql, call in (
            (
                "SELECT plus1(x) FROM t",
                r"cb_java_\d+_i8_i8\('plus1;com\.acme\.Plus1;java\.lang\.Long'",
            ),
            (
                "SELECT plus1(s) FROM t",
                r"cb_java_\d+_s_s\('plus1;com\.acme\.Plus1;java\.lang\.String'",
            ),
            (
                "SELECT x FROM t WHERE half(x) > 1",
                r"cb_java_\d+_f8_i8\('half;com\.acme\.Half;double'",
            ),
        ):
            plan = jenv.explain(sql, backend=backend)
            assert plan.startswith("DuckDB("), plan
            assert re.search(call, plan, re.IGNORECASE), plan
    # Table and aggregate functions stay on Calcite's engine: DuckDB takes no ARRAY<ROW> from a
    # function and gives none to one.
    jenv.execute(f"CREATE FUNCTION wavg AS 'com.acme.WeightedAvg' USING JAR '{jar}'")
    assert not jenv.explain("SELECT wavg(x, x) FROM t").startswith("DuckDB(")
    with pytest.raises(cb.UnsupportedError, match="cannot run the function wavg") as e:
        jenv.sql("SELECT wavg(x, x) FROM t", backend="duckdb")
    assert "duckdb" in str(e.value)


@pytest.mark.parametrize("backend", ("enumerable", "duckdb"))
def test_an_exception_in_eval_names_the_function(jenv: cb.Environment, backend: str) -> None:
    with pytest.raises(cb.ExecutionError) as e:
        jenv.sql("SELECT boom(CAST(x AS INT) + 100) FROM t", backend=backend).fetchall()
    message = str(e.value)
    assert "The function boom failed: java.lang.IllegalArgumentException: too big: 10" in message
    assert "at com.acme.Boom.eval(Boom.java" in (e.value.source_traceback or ""), e.value
    assert jenv.sql(
        "SELECT boom(CAST(x AS INT)) FROM t WHERE x = 5", backend=backend
    ).fetchall() == [(5,)]
    # Also where the planner computes a call of constants once, and in a join's condition.
    with pytest.raises(cb.ExecutionError, match=r"The function boom failed: .*too big: 101"):
        jenv.sql("SELECT boom(101)").fetchall()
    joined = jenv.sql(
        "SELECT a.x FROM (VALUES (1), (2)) AS a(x) JOIN (VALUES (2), (3)) AS b(y)"
        " ON plus1(CAST(a.x AS BIGINT)) = b.y ORDER BY a.x"
    ).fetchall()
    assert joined == [(1,), (2,)]
    # The environment goes on.
    assert jenv.sql("SELECT boom(5)").fetchall() == [(5,)]


@pytest.mark.parametrize("backend", ("enumerable", "duckdb"))
def test_a_nondeterministic_java_function_is_called_each_row(
    jenv: cb.Environment, jar: Path, backend: str
) -> None:
    jenv.execute(f"CREATE FUNCTION counter AS 'com.acme.Counter' USING JAR '{jar}'")
    info = dict(jenv.execute("DESCRIBE FUNCTION EXTENDED counter").fetchall())
    assert info["is deterministic"] == "false"
    got = _column(jenv, "SELECT counter(CAST(1 AS BIGINT)) FROM t", backend)
    assert sorted(got) == list(range(min(got), min(got) + ROWS))
    if backend == "duckdb":
        plan = jenv.explain("SELECT counter(CAST(1 AS BIGINT)) FROM t", backend=backend)
        assert "cb_java_" in plan.lower()


def test_no_matching_eval_is_a_validation_error_at_the_call(jenv: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError) as e:
        jenv.sql("SELECT x,\n  plus1(TRUE) FROM t")
    assert (e.value.line, e.value.column) == (2, 3)
    for signature in ("plus1(<BIGINT>)", "plus1(<STRING>)", "plus1(<BIGINT>, <BIGINT>)"):
        assert signature in str(e.value)
    with pytest.raises(cb.SqlValidationError, match="No match found for function signature"):
        jenv.sql("SELECT plus1(x, x, x) FROM t")


def test_describe_and_show_a_java_function(jenv: cb.Environment, jar: Path) -> None:
    info = dict(jenv.execute("DESCRIBE FUNCTION EXTENDED plus1").fetchall())
    assert info["class name"] == "com.acme.Plus1"
    assert info["function language"] == "JAVA"
    assert info["resource uris"] == f"[ResourceUri{{resourceType=JAR, uri='{jar}'}}]"
    assert info["kind"] == "SCALAR"
    assert "plus1(Long) -> BIGINT" in info["signature"]
    names = [r[0] for r in jenv.execute("SHOW USER FUNCTIONS").fetchall()]
    assert names == ["boom", "conv", "half", "mix", "plus1"]


def test_drop_releases_the_jar(env: cb.Environment, tmp_path: Path) -> None:
    """After DROP FUNCTION, a CREATE of the same class from a rebuilt jar loads the new class."""
    source = (
        "package com.acme;\npublic class V {{ public static Integer eval() {{ return {}; }} }}\n"
    )
    jar = _jar(tmp_path / "one", {"com/acme/V.java": source.format(1)}, "v.jar")
    env.execute(f"CREATE TEMPORARY FUNCTION v AS 'com.acme.V' LANGUAGE JAVA USING JAR '{jar}'")
    assert env.sql("SELECT v()").fetchall() == [(1,)]
    env.execute("DROP TEMPORARY FUNCTION v")
    rebuilt = _jar(tmp_path / "two", {"com/acme/V.java": source.format(2)}, "v.jar")
    shutil.copyfile(rebuilt, jar)
    env.execute(f"CREATE TEMPORARY FUNCTION v AS 'com.acme.V' LANGUAGE JAVA USING JAR '{jar}'")
    assert env.sql("SELECT v()").fetchall() == [(2,)]


def test_functions_of_two_jars_keep_their_own_classes(env: cb.Environment, tmp_path: Path) -> None:
    source = (
        "package com.acme;\npublic class V {{ public static Integer eval() {{ return {}; }} }}\n"
    )
    one = _jar(tmp_path / "one", {"com/acme/V.java": source.format(1)})
    two = _jar(tmp_path / "two", {"com/acme/V.java": source.format(2)})
    env.execute(f"CREATE FUNCTION v1 AS 'com.acme.V' USING JAR '{one}'")
    env.execute(f"CREATE FUNCTION v2 AS 'com.acme.V' LANGUAGE SCALA USING JAR '{two}'")
    assert env.sql("SELECT v1(), v2()").fetchall() == [(1, 2)]


def test_create_errors(env: cb.Environment, jar: Path, tmp_path: Path) -> None:
    with pytest.raises(
        cb.SqlValidationError, match=r"Cannot find the class 'com\.acme\.Nope'"
    ) as e:
        env.execute(f"CREATE FUNCTION f AS 'com.acme.Nope' USING JAR '{jar}'")
    assert e.value.column == 22
    with pytest.raises(cb.SqlValidationError, match="has no public eval method") as e:
        env.execute(f"CREATE FUNCTION f AS 'com.acme.NoEval' USING JAR '{jar}'")
    assert e.value.column == 22
    missing = tmp_path / "missing.jar"
    with pytest.raises(cb.ConfigError, match="does not exist") as e:
        env.execute(f"CREATE FUNCTION f AS 'com.acme.Plus1' USING JAR '{missing}'")
    assert e.value.column == 49
    # Nothing was created.
    assert env.execute("SHOW USER FUNCTIONS").fetchall() == []


@pytest.mark.parametrize(
    "settings",
    [{"external-access": "false"}, {"lock-config": "true"}],
    ids=["external-access", "lock-config"],
)
def test_using_jar_loads_only_allowed_jars(
    connect: Any, jar: Path, settings: dict[str, str]
) -> None:
    sql = f"CREATE FUNCTION plus1 AS 'com.acme.Plus1' USING JAR '{jar}'"
    env = connect(settings)
    with pytest.raises(cb.AccessDeniedError, match=r"jar '.*fn\.jar' is not allowed; add it") as e:
        env.execute(sql)
    assert (e.value.line, e.value.column) == (1, 53)
    # A directory above the jar, or the jar itself, allows it.
    for allowed in (str(jar.parent), str(jar)):
        env = connect({"java.allowed-jars": allowed, **settings})
        env.execute(sql)
        assert env.sql("SELECT plus1(CAST(1 AS BIGINT))").fetchall() == [(2,)]
    # Open environments load any jar.
    connect().execute(sql)


def test_a_locked_environment_keeps_its_allowed_jars(connect: Any, jar: Path) -> None:
    env = connect({"java.allowed-jars": "/nowhere"}, lock_config=True)
    with pytest.raises(cb.ConfigError):
        env.execute(f"SET 'java.allowed-jars' = '{jar.parent}'")
    with pytest.raises(cb.AccessDeniedError):
        env.execute(f"CREATE FUNCTION plus1 AS 'com.acme.Plus1' USING JAR '{jar}'")
    with pytest.raises(cb.ConfigError, match="expected absolute paths"):
        connect({"java.allowed-jars": "relative/fn.jar"})


def test_cli_catalog_script_creates_a_java_function(jar: Path, tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.sql"
    catalog.write_text(
        f"CREATE TEMPORARY SYSTEM FUNCTION plus1 AS 'com.acme.Plus1' USING JAR '{jar}';\n"
        "CREATE TABLE w (s STRING) WITH ('connector' = 'memory');\n"
        "INSERT INTO w VALUES ('abc'), (CAST(NULL AS STRING));\n"
    )
    result = CliRunner().invoke(
        main,
        ["query", "--catalog", str(catalog), "--format", "csv", "SELECT plus1(s) AS r FROM w"],
    )
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.output.splitlines() == ["r", "ABC!", ""]


def _check_spark_aggregates(
    envs: dict[str, cb.Environment], jar: Path, xs: list[Any], ss: list[Any]
) -> None:
    # An aggregate function runs its accumulator over each group's rows on the executors
    # (collect_list of the argument structs, then our generic Java aggregate runner).
    for e in envs.values():
        e.execute(f"CREATE FUNCTION wavg AS 'com.acme.WeightedAvg' USING JAR '{jar}'")
    _check_wavg(envs["spark"], xs, ss, "spark")
    assert (
        envs["spark"].sql(WAVG_BY_GROUP).fetchall()
        == envs["enumerable"].sql(WAVG_BY_GROUP).fetchall()
    )
    plan = envs["spark"].explain(WAVG_BY_GROUP)
    assert re.search(
        r"cb_javaagg_\d+_f8_rw\('wavg;com\.acme\.WeightedAvg;java\.lang\.Long,java\.lang\.Long;",
        plan,
        re.IGNORECASE,
    ), plan
    assert re.search(r"collect_list\(", plan, re.IGNORECASE), plan


def test_java_functions_run_on_spark(jar: Path, tmp_path: Path) -> None:
    """On Spark the jar is added to the session and each call runs our generic Java UDF, which
    loads the class on the executors and calls the overload the validator chose; one test, as a
    Spark session costs tens of seconds."""
    pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")
    from calcite_bridge import _spark

    rows = 3_000
    xs, ss = XS[:rows], SS[:rows]
    spark = _spark.local_session()
    envs = {b: cb.connect(backend=b, spark=spark) for b in ("spark", "enumerable")}
    for e in envs.values():
        e.register_arrow("t", pa.table({"x": pa.array(xs, pa.int64()), "s": pa.array(ss)}))
        for name, cls in (("plus1", "Plus1"), ("half", "Half"), ("conv", "Types")):
            e.execute(f"CREATE FUNCTION {name} AS 'com.acme.{cls}' USING JAR '{jar}'")
    senv = envs["spark"]
    sql = (
        "SELECT x, s, plus1(x), plus1(s), plus1(x, 10), half(CAST(x AS INT)) FROM t"
        " WHERE plus1(x) IS NULL OR plus1(x) > -40 ORDER BY x, s"
    )
    got = senv.sql(sql).fetchall()
    assert got == envs["enumerable"].sql(sql).fetchall()
    assert sorted(got, key=repr) == sorted(
        (
            (
                x,
                s,
                None if x is None else x + 1,
                None if s is None else s.upper() + "!",
                None if x is None else x + 10,
                None if x is None else x / 2,
            )
            for x, s in zip(xs, ss, strict=True)
            if x is None or x + 1 > -40
        ),
        key=repr,
    )
    # The types cross both ways (Spark passes microseconds, where Calcite's engine passes
    # milliseconds).
    assert senv.sql(
        "SELECT conv(CAST(1.25 AS DECIMAL(10, 2))), conv(DATE '2024-02-28'),"
        " conv(TIMESTAMP '2024-01-01 23:59:59.123456'), conv(X'0102ff'), conv(TRUE),"
        " conv(CAST(NULL AS DATE)), conv(CAST(NULL AS BOOLEAN))"
    ).fetchall() == [
        (
            Decimal("12.5"),
            dt.date(2024, 2, 29),
            dt.datetime(2024, 1, 2, 0, 0, 0, 123456),
            b"\xff\x02\x01",
            False,
            None,
            None,
        )
    ]
    assert re.search(
        r"cb_java_\d+_i8_i8\('plus1;com\.acme\.Plus1;java\.lang\.Long;",
        senv.explain("SELECT plus1(x) FROM t"),
        re.IGNORECASE,
    )
    # An exception in eval names the function; the environment goes on.
    senv.execute(f"CREATE FUNCTION boom AS 'com.acme.Boom' USING JAR '{jar}'")
    with pytest.raises(cb.ExecutionError) as e:
        senv.sql("SELECT boom(CAST(x AS INT) + 100) FROM t").fetchall()
    assert "The function boom failed: java.lang.IllegalArgumentException: too big: " in str(
        e.value
    ), e.value
    assert senv.sql("SELECT boom(CAST(x AS INT)) FROM t WHERE x = 5").fetchall() == [(5,)]
    # A function that is not deterministic is registered as such (asNondeterministic), so that
    # Spark's optimizer neither folds nor reuses its calls; one that is, as deterministic.
    senv.execute(f"CREATE FUNCTION counter AS 'com.acme.Counter' USING JAR '{jar}'")
    counted = senv.sql("SELECT counter(CAST(1 AS BIGINT)) FROM t").fetchall()
    assert sorted(r[0] for r in counted) == list(range(1, rows + 1))
    for function, deterministic in (("counter", False), ("plus1", True)):
        plan = senv.explain(f"SELECT {function}(x) FROM t")
        call = re.search(r"(cb_java_\w+)\(('[^']*')", plan, re.IGNORECASE)
        assert call is not None, plan
        analyzed = (
            spark.sql(f"SELECT {call.group(1)}({call.group(2)}, CAST(1 AS BIGINT)) AS c")
            ._jdf.queryExecution()
            .analyzed()
        )
        assert analyzed.projectList().head().deterministic() == deterministic, function
    # A table function returns its rows as an array of structs, read by LATERAL inline(...).
    docs = [
        None if i % 9 == 4 else " ".join(f"w{j}" * (j % 3 + 1) for j in range(i % 4)) or "x"
        for i in range(300)
    ]
    for e in envs.values():
        e.register_arrow("docs", pa.table({"id": list(range(300)), "s": docs}))
        e.execute(f"CREATE FUNCTION split_words AS 'com.acme.SplitWords' USING JAR '{jar}'")
    lateral = "SELECT id, w, n FROM docs, LATERAL TABLE(split_words(s)) AS x(w, n) ORDER BY id, w"
    got = senv.sql(lateral).fetchall()
    assert got == envs["enumerable"].sql(lateral).fetchall()
    assert got == sorted(
        ((i, w, n) for i, d in enumerate(docs) for w, n in _split_words(d)), key=lambda r: r[:2]
    )
    plan = senv.explain(lateral)
    assert re.search(r"cb_java_\d+_tb_s\(", plan, re.I), plan
    assert re.search(r"LATERAL inline\(", plan, re.I), plan
    left = (
        "SELECT id, w FROM docs LEFT JOIN LATERAL TABLE(split_words(s)) AS x(w, n) ON TRUE"
        " ORDER BY id, w"
    )
    assert senv.sql(left).fetchall() == envs["enumerable"].sql(left).fetchall()
    _check_spark_aggregates(envs, jar, xs, ss)
    # From a --catalog script of the command line.
    catalog = tmp_path / "catalog.sql"
    catalog.write_text(
        f"CREATE TEMPORARY SYSTEM FUNCTION plus1 AS 'com.acme.Plus1' USING JAR '{jar}';\n"
    )
    result = CliRunner().invoke(
        main,
        [
            "query",
            "--set",
            "execution.backend=spark",
            "--catalog",
            str(catalog),
            "--format",
            "csv",
            "SELECT plus1(s) AS r FROM (VALUES ('abc'), (CAST(NULL AS STRING))) AS w(s)",
        ],
    )
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.output.splitlines() == ["r", "ABC!", ""]
    for e in envs.values():
        e.close()


def test_a_java_function_over_the_gateway(gateway_address: str, jar: Path) -> None:
    """A client's CREATE FUNCTION ... USING JAR makes the function in the gateway's JVM, where
    its queries run it (a gateway runs Calcite's engine; DuckDB runs in the reading process)."""
    from conftest import GATEWAY_TOKEN

    gw = cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN)
    try:
        gw.register_arrow("t", pa.table({"x": pa.array(XS, pa.int64()), "s": pa.array(SS)}))
        gw.execute(f"CREATE TEMPORARY FUNCTION plus1 AS 'com.acme.Plus1' USING JAR '{jar}'")
        for backend in ("enumerable", "auto"):
            assert _column(gw, "SELECT plus1(x) FROM t", backend) == [
                None if x is None else x + 1 for x in XS
            ], backend
            assert _column(gw, "SELECT plus1(s) FROM t", backend) == [
                None if s is None else s.upper() + "!" for s in SS
            ], backend
        info = dict(gw.execute("DESCRIBE FUNCTION plus1").fetchall())
        assert info["class name"] == "com.acme.Plus1"
        gw.execute("DROP TEMPORARY FUNCTION plus1")
        with pytest.raises(cb.SqlValidationError, match="plus1"):
            gw.sql("SELECT plus1(x) FROM t")
    finally:
        gw.close()
