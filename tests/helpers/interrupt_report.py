"""How an interrupted statement ended, as the interrupt scripts print it (tests/test_interrupt.py).

The scripts run as files (``python tests/helpers/interrupted_query.py``), so they import this
module by its name from their own folder."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import calcite_bridge as cb

# The CPU time measured after a statement is the statement's. The JIT's warm-up in idle time
# (docs/performance.md) would plan statements of its own in those idle seconds, so it is off in
# the helpers that import this module (they connect after importing it).
os.environ["CALCITE_BRIDGE_IDLE_WARM_UP"] = "off"


def run_and_report(env: cb.Environment, statement: Callable[[], object]) -> None:
    """Runs ``statement`` and prints how it ended (``finished``, ``interrupted`` or the error),
    the CPU time the process used in the 2 s after, and the answer of a query run afterwards."""
    try:
        statement()
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    except cb.Error as e:
        print(f"error {type(e).__name__}: {e}", flush=True)
    cpu = time.process_time()
    time.sleep(2)
    print(f"cpu {time.process_time() - cpu:.2f}", flush=True)
    print(env.sql("SELECT COUNT(*) AS n FROM big").to_pylist(), flush=True)
