"""Builds the JVM's start-up caches: the class-data-sharing archive that halves its start-up
(Java 17 to 24), and on Java 25 the ahead-of-time cache that also takes most of the JIT
warm-up of a short session away.

Run as ``CALCITE_BRIDGE_JVM_OPTIONS=-XX:ArchiveClassesAtExit=FILE python -m calcite_bridge._cds``
(``make build`` does, for the archive beside the jar): a representative workload loads the
classes a first query needs, and the JVM writes them to FILE at exit.

``python -m calcite_bridge._cds --write FILE`` runs that in a child process and moves the archive
into place once it is whole; an installed package's first start runs it in the background for
the archive in the user's cache directory (``_transport.jvm``). A FILE ending in ``.aot`` is an
ahead-of-time cache instead: the child runs ``python -m calcite_bridge._cds --train`` (the same
workload, then :func:`training`'s statements) with ``-XX:AOTCacheOutput=FILE``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa

import calcite_bridge as cb
from calcite_bridge.sources import ArrowTableSource


def workload() -> None:
    env = cb.connect()
    env.execute(
        "CREATE TABLE t (i INT, s STRING, r ROW<a INT, b STRING>, m MAP<STRING, INT>, "
        "c AS i * 2, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL) "
        "WITH ('connector' = 'memory')"
    )
    env.execute("INSERT INTO t (i, s, r) VALUES (1, 'a', ROW(1, 'x')), (2, NULL, NULL)")
    env.validate("SELECT i, r.a FROM t WHERE s = 'a'")
    # Flink's function tables are made when a statement first names one of their functions.
    env.validate("SELECT IFNULL(s, '-'), DATE_FORMAT(ts, 'yyyy') FROM t")
    env.sql("SELECT s, COUNT(*), SUM(c) FROM t GROUP BY s ORDER BY s").fetchall()
    env.register_source("u", ArrowTableSource(pa.table({"i": [1, 2], "v": ["p", "q"]})))
    env.explain("SELECT * FROM t JOIN u ON t.i = u.i WHERE t.r.a > 0 AND u.v LIKE 'p%'")
    env.sql("SELECT t.i, u.v FROM t JOIN u ON t.i = u.i").fetchall()
    env.sql("SELECT * FROM u WHERE v = 'p'").to_arrow_table()


def training(rounds: int = 40, strict: bool = False) -> None:
    """A representative session for the ahead-of-time cache: the statement kinds a user runs
    (DDL, validate, explain, queries on the default engine, DML, SHOW and DESCRIBE) over tables of
    several shapes, with a new constant in each text so that every statement is planned. The
    cache records the classes loaded and the methods' profiles, so the JIT compiles the planner
    early in a new process. (Not the benchmarks' statements: they measure on shapes of their
    own.) A statement that fails is skipped unless ``strict``: the cache is still worth having."""
    env = cb.connect()
    env.execute(
        "CREATE TABLE sales (id BIGINT, region STRING, amount DECIMAL(10, 2), qty INT, "
        "sold TIMESTAMP(3), tags ARRAY<STRING>, attrs MAP<STRING, STRING>, "
        "buyer ROW<name STRING, city STRING, age INT>) WITH ('connector' = 'memory')"
    )
    env.execute(
        "INSERT INTO sales VALUES (1, 'north', 12.50, 3, TIMESTAMP '2024-01-02 10:00:00', "
        "ARRAY['a', 'b'], MAP['k', 'v'], ROW('ann', 'oslo', 31)), (2, 'south', 7.25, 1, "
        "TIMESTAMP '2024-02-03 11:30:00', ARRAY['c'], MAP['k', 'w'], ROW('bob', 'rome', 45))"
    )
    regions = pa.table(
        {"region": ["north", "south", "east"], "manager": ["kim", "lee", "max"], "tier": [1, 2, 3]}
    )
    env.register_source("regions", ArrowTableSource(regions))
    # A source with a nested column, whose filters on a field go to the source (pushdown)
    devices = pa.table(
        {
            "serial": [10, 11, 12, 13],
            "tier": [1, 2, 3, 1],
            "spec": [
                {"os": "linux", "ram": 8},
                {"os": "bsd", "ram": 16},
                {"os": "linux", "ram": 4},
                {"os": "mac", "ram": 32},
            ],
        }
    )
    env.register_source("devices", ArrowTableSource(devices))
    env.execute("CREATE VIEW big AS SELECT * FROM sales WHERE amount > 10")
    shapes = [
        "SELECT id, amount * qty AS total FROM sales WHERE qty > {n} ORDER BY total DESC LIMIT 5",
        "SELECT region, COUNT(*) AS c, SUM(amount), AVG(qty) FROM sales WHERE id <> {n} "
        "GROUP BY region HAVING COUNT(*) > 0",
        "SELECT s.id, r.manager FROM sales s JOIN regions r ON s.region = r.region "
        "WHERE r.tier < {n} + 5 AND s.buyer.age > 18",
        "SELECT s.id, r.manager FROM sales s LEFT JOIN regions r ON s.region = r.region "
        "AND r.manager LIKE 'k%' WHERE s.id > -{n}",
        "SELECT id, ROW_NUMBER() OVER (PARTITION BY region ORDER BY amount) AS rn, "
        "SUM(qty) OVER (PARTITION BY region) AS q FROM sales WHERE id >= -{n}",
        "SELECT CASE WHEN amount > {n} THEN 'big' ELSE 'small' END AS size, UPPER(region), "
        "CAST(qty AS STRING) || '-' || buyer.city, COALESCE(attrs['k'], 'none') FROM sales",
        "SELECT region FROM sales WHERE id IN (SELECT id FROM big WHERE qty > {n}) UNION ALL "
        "SELECT region FROM regions WHERE tier = {n}",
        "SELECT DATE_FORMAT(sold, 'yyyy-MM'), EXTRACT(YEAR FROM sold), CARDINALITY(tags), "
        "tags[1] FROM sales WHERE sold > TIMESTAMP '2020-01-01 00:00:00' AND id > -{n}",
        "SELECT region, MAX(amount) FROM (SELECT * FROM sales WHERE qty BETWEEN 0 AND {n} + 9) "
        "GROUP BY region ORDER BY 2",
        "SELECT r.region, (SELECT COUNT(*) FROM sales s WHERE s.region = r.region) AS n "
        "FROM regions r WHERE r.manager <> 'nobody{n}'",
        "SELECT d.serial, d.spec.os, r.manager FROM devices d JOIN regions r ON d.tier = r.tier "
        "WHERE d.spec.ram >= {n} % 16 AND r.region <> 'west'",
    ]

    def run(step: Callable[[str], object], sql: str) -> None:
        try:
            step(sql)
        except cb.Error:
            if strict:
                raise

    for n in range(rounds):
        for i, shape in enumerate(shapes):
            sql = shape.format(n=n)
            run(env.validate, sql)
            run(env.explain, sql)
            if (n + i) % 3 == 0:
                run(lambda text: env.sql(text).fetchall(), sql)
        insert = f"INSERT INTO sales (id, region, amount, qty) VALUES ({n + 10}, 'east', 1, {n})"
        run(env.execute, insert)
        if n % 10 == 0:
            run(lambda text: env.sql(text).fetchall(), "SHOW TABLES")
            run(lambda text: env.sql(text).fetchall(), "DESCRIBE sales")


def drop_older(archive: Path) -> list[Path]:
    """Deletes the archives that ``archive`` replaces: those of the same jar and JVM places
    (``VERSION-PLACE-BUILD.jsa``) of other builds, and those named before places were, so that
    each rebuild of the jar does not leave a 50 MB file behind. Returns what it deleted."""
    parts = archive.stem.split("-")
    if len(parts) < 3:
        return []
    place = parts[-2]
    dropped = []
    for other in archive.parent.glob(f"*{archive.suffix}"):
        fields = other.stem.split("-")
        older_name = len(fields) == 2 and len(fields[1]) == 20  # VERSION-KEY.jsa, before places
        if other != archive and (older_name or (len(fields) >= 3 and fields[-2] == place)):
            try:
                other.unlink()
                dropped.append(other)
            except OSError:
                pass  # another user's, or read-only: it stays
    return dropped


def write(archive: Path) -> int:
    """Writes ``archive`` through a child process, then lets go of its lock file."""
    partial = archive.with_name(f"{archive.name}.{os.getpid()}.partial")
    command = [sys.executable, "-m", "calcite_bridge._cds"]
    if archive.suffix == ".aot":
        # The JVM writes the cache at exit, in a child JVM of its own (JEP 514).
        options = f"-XX:AOTCacheOutput={partial} -Xlog:aot=off -Xlog:cds=off"
        command.append("--train")
    else:
        options = f"-XX:ArchiveClassesAtExit={partial} -Xlog:cds=off -Xlog:cds+dynamic=off"
    env = {**os.environ, "CALCITE_BRIDGE_JVM_OPTIONS": options}
    try:
        done = subprocess.run(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=1200,
            check=False,
        )
        if done.returncode == 0 and partial.is_file():
            os.replace(partial, archive)
            drop_older(archive)
            return 0
        return 1
    finally:
        partial.unlink(missing_ok=True)
        archive.with_suffix(".lock").unlink(missing_ok=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        sys.exit(write(Path(sys.argv[2])))
    workload()
    if sys.argv[1:2] == ["--train"]:
        training()
