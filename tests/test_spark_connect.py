"""The spark backend over Spark Connect: a server started from the pyspark wheel (it has no
``sbin/start-connect-server.sh``; docs/spark.md gives the command), reached with
``cb.connect(backend="spark", spark_remote="sc://127.0.0.1:<port>")``, gives the reference's
rows, a Parquet table's nested filter included."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb

pyspark = pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")

START_SECONDS = 120  # measured: about 12 s on a loaded 2-core machine


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = os.path.dirname(pyspark.__file__)
    port = _free_port()
    log = tmp_path_factory.mktemp("connect") / "server.log"
    command = [
        os.path.join(home, "bin", "spark-submit"),
        "--class",
        "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--master",
        "local[1]",
        "--driver-memory",
        "512m",
        "--conf",
        "spark.connect.grpc.binding.address=127.0.0.1",
        "--conf",
        f"spark.connect.grpc.binding.port={port}",
        "--conf",
        "spark.ui.enabled=false",
        "spark-internal",
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "SPARK_HOME": home}
        )
    try:
        started = time.perf_counter()
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if process.poll() is not None or time.perf_counter() - started > START_SECONDS:
                    pytest.fail(
                        f"the Connect server did not start: {Path(log).read_text()[-2000:]}"
                    )
                time.sleep(0.5)
        print(f"Spark Connect server listening after {time.perf_counter() - started:.1f} s")
        yield f"sc://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


USERS = pa.table(
    {
        "id": pa.array([1, 2, 3, 4], pa.int64()),
        "user": pa.array(
            [
                {"name": "ann", "age": 25},
                {"name": "bob", "age": 35},
                None,
                {"name": "dee", "age": 29},
            ],
            pa.struct([("name", pa.string()), ("age", pa.int32())]),
        ),
        "tags": pa.array([[1, 8], [2], [], None], pa.list_(pa.int32())),
    }
)

QUERIES = [
    "SELECT id, `user`.name FROM users WHERE `user`.age < 30",
    "SELECT id, tags[1], tags[3], id / 2 FROM users",
    "SELECT COUNT(*), SUM(id) FROM users WHERE `user` IS NOT NULL",
    # the dynamic-columns UDFs: their jar reaches the server through addArtifacts
    "SELECT id, COLUMN_GET(b, 'x' AS INT), COLUMN_GET(b, 'n' AS DECIMAL(5,1)), COLUMN_JSON(b)"
    " FROM users",
    # the blob-writing UDFs, their pairs in one STRUCT: the same bytes as Calcite's engine's
    "SELECT id, COLUMN_ADD(b, 'id', id, 'name', `user`.name), COLUMN_DELETE(b, 'n'),"
    " COLUMN_CREATE('t', tags[1] AS CHAR, 'b', b) FROM users",
]

# Blobs of the b column, made by Calcite's engine: '42x' as INT is 42; a NULL blob.
BLOBS = [
    "COLUMN_CREATE('x', '42x', 'n', 1.25)",
    "COLUMN_CREATE('n', -3)",
    "CAST(NULL AS VARBINARY)",
    "COLUMN_CREATE(1, 'one')",
]


CLIENT = """
import json, sys
import calcite_bridge as cb
server, ddl, queries = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
remote = cb.connect(backend="spark", spark_remote=server)
remote.execute(ddl)
rows = [[repr(r) for r in remote.sql(q).fetchall()] for q in queries]
print(json.dumps({"rows": rows, "plan": remote.explain(queries[0])}))
remote.close()
"""


def test_seed_queries_over_connect(server: str, tmp_path: Path) -> None:
    # The client runs in a process of its own: pyspark refuses a Connect session in a process
    # that already runs a regular Spark session (another test module's local[1] one).
    with cb.connect(backend="enumerable") as maker:
        blobs = [maker.sql(f"SELECT {b}").fetchall()[0][0] for b in BLOBS]
    pq.write_table(
        USERS.append_column("b", pa.array(blobs, pa.binary())), tmp_path / "part-0.parquet"
    )
    ddl = (
        "CREATE TABLE users (id BIGINT, `user` ROW<name STRING, age INT>, tags ARRAY<INT>, "
        "b BYTES) "
        f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'parquet')"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, server, ddl, json.dumps(QUERIES)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"first queries over Connect: {time.perf_counter() - started:.1f} s")
    with cb.connect(backend="enumerable") as reference:
        reference.execute(ddl)
        for sql, got in zip(QUERIES, answer["rows"], strict=True):
            assert sorted(got) == sorted(repr(r) for r in reference.sql(sql).fetchall())
    assert "LessThan(user.age,30)" in answer["plan"]


TIMEOUT_CLIENT = """
import sys, time
import pyarrow as pa
import calcite_bridge as cb
server = sys.argv[1]
env = cb.connect(backend="spark", spark_remote=server)
env.register_arrow("src", pa.table({"x": pa.array(range(20000), pa.int32())}))
cross = "SELECT COUNT(*) AS c FROM src, src AS b, src AS c2 WHERE src.x + b.x + c2.x > -5"
env.sql("SELECT COUNT(*) AS n FROM src").fetchall()  # the client and the server warmed up
env.execute("SET 'execution.timeout' = '2 s'")
for _ in range(2):
    started = time.monotonic()
    try:
        env.sql(cross).fetchall()
        print("rows")
    except cb.Error as e:
        print(f"error {type(e).__name__} {time.monotonic() - started:.2f}")
adaptive = "spark.sql.adaptive.enabled"
print(env.to_spark("SELECT 1 AS x").sparkSession.conf.get(adaptive))
env.execute("SET 'execution.timeout' = '0'")
print(env.sql("SELECT COUNT(*) AS n FROM src WHERE x < 3").fetchall())
print(env.to_spark("SELECT 1 AS x").sparkSession.conf.get(adaptive))
env.close()
"""


def test_a_statement_over_connect_is_stopped_at_its_timeout_every_run(server: str) -> None:
    # Issue 30: over Spark Connect the client's wait for its operation, and the uncancellable
    # calls before it (registering the scans), kept a statement past its timeout. Each run of a
    # three-way cross join raises TimeoutError within 2 + 3 s; the server's task, cancelled,
    # ends when it next checks for it, and the session then answers. Under the limit the
    # statements run without adaptive execution (its late stage jobs, which no client call
    # reaches, held the server's one core for good), and the session's own setting comes back
    # for a statement without one.
    done = subprocess.run(
        [sys.executable, "-c", TIMEOUT_CLIENT, server],
        capture_output=True,
        text=True,
        timeout=400,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    for line in lines[:2]:
        kind, name, seconds = line.split()
        assert (kind, name) == ("error", "TimeoutError"), lines
        assert float(seconds) < 2 + 3, f"raised {seconds} s after a 2 s limit"
    assert lines[2:] == ["false", "[(3,)]", "true"], lines
