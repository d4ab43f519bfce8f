"""A program that still holds results when it exits ends cleanly, without warnings."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import calcite_bridge as cb

    env = cb.connect()
    env.execute("CREATE TABLE t (a INT, s STRING) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    kept = env.sql("SELECT a, s FROM t").to_arrow_table()   # buffers the JVM allocated
    unread = env.sql("SELECT a FROM t")                      # a stream nobody read
    print(kept.num_rows)
    """
)


def test_results_held_at_exit_are_released_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
    assert "Failed to release" not in done.stderr, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
