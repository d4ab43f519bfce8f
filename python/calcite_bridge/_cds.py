"""Builds the class-data-sharing archive that halves the JVM's start-up.

Run as ``CALCITE_BRIDGE_JVM_OPTIONS=-XX:ArchiveClassesAtExit=FILE python -m calcite_bridge._cds``
(``make build`` does, for the archive beside the jar): a representative workload loads the
classes a first query needs, and the JVM writes them to FILE at exit.

``python -m calcite_bridge._cds --write FILE`` runs that in a child process and moves the archive
into place once it is whole; an installed package's first start runs it in the background for
the archive in the user's cache directory (``_transport.jvm``).
"""

from __future__ import annotations

import os
import subprocess
import sys
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
    env.sql("SELECT s, COUNT(*), SUM(c) FROM t GROUP BY s ORDER BY s").fetchall()
    env.register_source("u", ArrowTableSource(pa.table({"i": [1, 2], "v": ["p", "q"]})))
    env.explain("SELECT * FROM t JOIN u ON t.i = u.i WHERE t.r.a > 0 AND u.v LIKE 'p%'")
    env.sql("SELECT t.i, u.v FROM t JOIN u ON t.i = u.i").fetchall()
    env.sql("SELECT * FROM u WHERE v = 'p'").to_arrow_table()


def drop_older(archive: Path) -> list[Path]:
    """Deletes the archives that ``archive`` replaces: those of the same jar and JVM places
    (``VERSION-PLACE-BUILD.jsa``) of other builds, and those named before places were, so that
    each rebuild of the jar does not leave a 50 MB file behind. Returns what it deleted."""
    parts = archive.stem.split("-")
    if len(parts) < 3:
        return []
    place = parts[-2]
    dropped = []
    for other in archive.parent.glob("*.jsa"):
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
    options = f"-XX:ArchiveClassesAtExit={partial} -Xlog:cds=off -Xlog:cds+dynamic=off"
    env = {**os.environ, "CALCITE_BRIDGE_JVM_OPTIONS": options}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "calcite_bridge._cds"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=600,
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
