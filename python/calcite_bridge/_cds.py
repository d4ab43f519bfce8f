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

Each cache in the user's cache directory has a small ``.json`` file beside it naming the jar and
the JVM it was written for. Once a new cache is whole, :func:`sweep` removes the caches whose jar
or JVM is gone (a deleted venv, an uninstalled Java) and those not used for
:data:`UNUSED_DAYS` days, except the newest of each JVM. A start that uses a cache sets its
modification time at most once a day (``_transport.jvm``), which is what "used" means here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
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


# A cache unused for this long goes at the next sweep, unless it is its JVM's newest.
UNUSED_DAYS = 30
# A lock or partial file older than this belongs to a write that died (a write is given 20 min).
ABANDONED_SECONDS = 3600
_KINDS = {"cds": ".jsa", "aot": ".aot"}


def sidecar(archive: Path) -> Path:
    """The file beside ``archive`` naming the jar and the JVM it was written for."""
    return archive.with_suffix(".json")


def _owner(archive: Path) -> dict[str, str] | None:
    try:
        data = json.loads(sidecar(archive).read_text())
    except (OSError, ValueError):
        return None  # written before sidecars were, or unreadable: judged by its age alone
    if (
        isinstance(data, dict)
        and isinstance(data.get("jar"), str)
        and isinstance(data.get("jvm"), str)
    ):
        return data
    return None


def _age(path: Path, now: float) -> float | None:
    try:
        return now - path.stat().st_mtime
    except OSError:
        return None


def _remove(*paths: Path) -> list[Path]:
    gone = []
    for path in paths:
        try:
            path.unlink()
            gone.append(path)
        except FileNotFoundError:
            pass
        except OSError:
            pass  # another user's, or read-only: it stays
    return gone


def sweep(root: Path, now: float | None = None) -> list[Path]:
    """Removes, under ``root`` (the user's cache directory of the package), the start-up caches
    (``cds/*.jsa``, ``aot/*.aot``) that no start will use again, with their side files: those
    whose jar or JVM no longer exists, and those unused for :data:`UNUSED_DAYS` days unless
    they are the newest of their JVM. A cache with a live lock (being written) stays, and so
    do lock and partial files younger than :data:`ABANDONED_SECONDS`. Returns what it removed."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    for kind, suffix in _KINDS.items():
        folder = root / kind
        if not folder.is_dir():
            continue
        kept: list[tuple[Path, str | None, float]] = []
        for archive in folder.glob(f"*{suffix}"):
            lock_age = _age(archive.with_suffix(".lock"), now)
            age = _age(archive, now)
            if age is None or (lock_age is not None and lock_age < ABANDONED_SECONDS):
                continue  # gone already, or being written again
            owner = _owner(archive)
            if owner is not None and not (
                os.path.exists(owner["jar"]) and os.path.exists(owner["jvm"])
            ):
                removed += _remove(archive, sidecar(archive))
                continue
            kept.append((archive, owner["jvm"] if owner else None, age))
        newest: dict[str, tuple[Path, float]] = {}
        for archive, jvm, age in kept:
            if jvm is not None and (jvm not in newest or age < newest[jvm][1]):
                newest[jvm] = (archive, age)
        spared = {archive for archive, _ in newest.values()}
        for archive, _jvm, age in kept:
            if archive not in spared and age > UNUSED_DAYS * 86400:
                removed += _remove(archive, sidecar(archive))
        removed += _leftovers(folder, suffix, now)
    return removed


def _leftovers(folder: Path, suffix: str, now: float) -> list[Path]:
    """Removes what a write that died left, and side files whose cache is gone."""
    removed = []
    for path in folder.iterdir():
        if path.suffix in (".lock", ".partial"):
            age = _age(path, now)
            if age is not None and age > ABANDONED_SECONDS:
                removed += _remove(path)
        elif path.suffix == ".json" and not path.with_suffix(suffix).exists():
            removed += _remove(path)
    return removed


def write(archive: Path, jar: Path | None = None, jvm: Path | None = None) -> int:
    """Writes ``archive`` through a child process, then lets go of its lock file. Given the
    ``jar`` and ``jvm`` it is for, records them beside it and sweeps the cache directory."""
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
            if jar is not None and jvm is not None:
                try:
                    sidecar(archive).write_text(json.dumps({"jar": str(jar), "jvm": str(jvm)}))
                except OSError:
                    pass
                sweep(archive.parent.parent)
            return 0
        return 1
    finally:
        partial.unlink(missing_ok=True)
        archive.with_suffix(".lock").unlink(missing_ok=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        owner = [Path(a) for a in sys.argv[3:5]]
        sys.exit(write(Path(sys.argv[2]), *owner))
    # The caches record what this workload loads and profiles, nothing of the JIT's warm-up in
    # idle time, which would run while the workload's process waits between its statements.
    os.environ["CALCITE_BRIDGE_IDLE_WARM_UP"] = "off"
    workload()
    if sys.argv[1:2] == ["--train"]:
        training()
