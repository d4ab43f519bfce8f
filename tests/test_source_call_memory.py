"""Calls from the JVM's worker threads into Python sources do not leak Python objects.

Each worker thread keeps one Python thread state for its lifetime; without it, every call into
a source made a fresh thread state and left a type object behind (about a kilobyte a call).
"""

from __future__ import annotations

import gc
import sys

import pyarrow as pa

import calcite_bridge as cb
from calcite_bridge.sources import ArrowTableSource

CALLS = 300


def _alloc_types() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, type) and o.__name__ == "_JAlloc")


def test_source_calls_from_worker_threads_do_not_leak() -> None:
    env = cb.connect()
    try:
        env.register_source("t", ArrowTableSource(pa.table({"id": list(range(100))})))

        def one() -> None:
            # explain offers the filter to the source (one call into Python), and the query
            # offers it and scans (two more; the scan used to pass its struct's address).
            env.explain("SELECT id FROM t WHERE id < 3")
            assert env.sql("SELECT id FROM t WHERE id < 3").fetchall() == [(0,), (1,), (2,)]

        for _ in range(50):
            one()
        gc.collect()
        types_before, blocks_before = _alloc_types(), sys.getallocatedblocks()
        for _ in range(CALLS):
            one()
        gc.collect()
        new_types = _alloc_types() - types_before
        blocks_per_call = (sys.getallocatedblocks() - blocks_before) / CALLS
    finally:
        env.close()
    assert new_types < 10, f"{new_types} thread-state types left behind by {CALLS} statements"
    # Nothing is left per statement (JPype 1.7.1 leaks the int of each Java long it hands to
    # Python, so no long crosses per call).
    assert blocks_per_call < 1, f"{blocks_per_call:.1f} Python blocks leaked per statement"
