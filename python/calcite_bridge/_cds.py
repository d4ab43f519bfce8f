"""Builds the class-data-sharing archive that halves the JVM's start-up (``make build`` runs it).

Run as ``CALCITE_BRIDGE_JVM_OPTIONS=-XX:ArchiveClassesAtExit=FILE python -m calcite_bridge._cds``:
a representative workload loads the classes a first query needs, and the JVM writes them to
FILE at exit. ``_transport.jvm`` uses the archive next to the jar when it exists.
"""

from __future__ import annotations

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


if __name__ == "__main__":
    workload()
