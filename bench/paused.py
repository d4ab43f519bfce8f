"""A session with pauses, as in a notebook or the shell: the JIT's warm-up in idle time on and off.

In a new process, after ``connect()`` and a first validate, the session pauses for
:data:`PAUSE` seconds (its user reads the first result); then come 30 rounds with a pause of
:data:`THINK` seconds before each, then 300 rounds back to back. A round is warm.py's: a
validate and an explain of its join with a nested filter pushed into the scan, and its small
query to an Arrow table, each a new SQL text, each beside DuckDB's peer (PREPARE, EXPLAIN,
``.arrow()``) over the same Arrow tables in the same process.

Each variant runs in a process of its own: ``[on]`` with the idle-time warm-up as installed,
``[off]`` with ``CALCITE_BRIDGE_IDLE_WARM_UP=off``. Figures: the first round after the first
pause, the medians of rounds 1 to 30 (each after a pause) and of rounds 30 to 330 (back to
back, warm.py's ``_after_30`` window), and the process's CPU time over the first pause, which is
what the warm-up costs. The Java and start-up cache are whatever the install chooses.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import duck_version, record, time_ratio

PAUSE = 8.0
THINK = 0.25
HERE = Path(__file__).resolve().parent


def child(rounds: int, pause: float) -> dict[str, Any]:
    """One session, as the module's docstring says; its figures."""
    import duckdb
    import warm
    from _common import as_table

    import calcite_bridge as cb
    from calcite_bridge.sources import ArrowTableSource

    users, orders = warm.join_tables(10_000)
    con = duckdb.connect()
    con.register("users", users)
    con.register("orders", orders)
    env = cb.connect()
    env.validate("SELECT 1")
    env.register_source("users", ArrowTableSource(users))
    env.register_source("orders", ArrowTableSource(orders))
    cpu = time.process_time()
    time.sleep(pause)
    pause_cpu = time.process_time() - cpu

    calls = {
        "validate": (
            lambda n: env.validate(warm.distinct(warm.JOIN, n)),
            lambda n: con.execute("PREPARE q AS " + warm.distinct(warm.DUCK_JOIN, n)),
        ),
        "explain": (
            lambda n: env.explain(warm.distinct(warm.JOIN, n)),
            lambda n: con.execute("EXPLAIN " + warm.distinct(warm.DUCK_JOIN, n)).fetchall(),
        ),
        "execute": (
            lambda n: env.sql(warm.distinct(warm.SMALL, n)).to_arrow_table(),
            lambda n: as_table(con.sql(warm.distinct(warm.DUCK_SMALL, n)).arrow()),
        ),
    }
    times: dict[str, list[float]] = {
        f"{op} {side}": [] for op in calls for side in ("ours", "peer")
    }
    n = 0
    for i in range(rounds):
        if 0 < i < 30:
            time.sleep(THINK)
        for op, sides in calls.items():
            for side, fn in zip(("ours", "peer"), sides, strict=True):
                n += 1
                t0 = time.perf_counter()
                fn(n)
                times[f"{op} {side}"].append(time.perf_counter() - t0)
    windows = {"first": (0, 1), "1_to_30": (1, 30), "30_to_330": (30, rounds)}
    from calcite_bridge._transport import jvm

    return {
        "java": f"Java {jvm.java_version(jvm.find_jvm())}, start-up cache {jvm.cache_mode()}",
        "pause_cpu_s": pause_cpu,
        "medians_ms": {
            f"{key} {w}": statistics.median(ts[lo:hi]) * 1e3
            for key, ts in times.items()
            for w, (lo, hi) in windows.items()
        },
    }


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    rounds, pause = (130, 4.0) if quick else (330, PAUSE)
    runs = 1 if quick else 3
    results: dict[str, list[dict[str, Any]]] = {"on": [], "off": []}
    for _ in range(runs):
        for variant in ("off", "on"):  # alternated, so a noisy minute colours both
            env = dict(os.environ)
            env.pop("CALCITE_BRIDGE_IDLE_WARM_UP", None)
            if variant == "off":
                env["CALCITE_BRIDGE_IDLE_WARM_UP"] = "off"
            proc = subprocess.run(
                [sys.executable, __file__, "--child", str(rounds), str(pause)],
                capture_output=True,
                text=True,
                env=env,
                cwd=HERE,
                check=True,
                timeout=900,
            )
            results[variant].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    for variant, got in results.items():
        java = got[0]["java"]
        cpu = statistics.median(r["pause_cpu_s"] for r in got)

        def median(key: str, got: list[dict[str, Any]] = got) -> float:
            return statistics.median(r["medians_ms"][key] for r in got)

        for op in ("validate", "explain", "execute"):
            for window, what in (
                ("first", "the first round after the first pause"),
                ("1_to_30", f"rounds 1 to 30, each after a {THINK:g} s pause"),
                ("30_to_330", f"rounds 30 to {rounds}, back to back"),
            ):
                ours, peer = median(f"{op} ours {window}"), median(f"{op} peer {window}")
                yield record(
                    f"paused_{op}_{window}[{variant}]",
                    {"median_ms": round(ours, 3), "runs": len(got)},
                    {"name": f"{duck_version()}", "median_ms": round(peer, 3)},
                    time_ratio(ours, peer),
                    "ms",
                    None,
                    None,
                    f"{what}, after a {pause:g} s pause that follows connect() and a first "
                    f"validate; idle-time warm-up {variant} (the process used {cpu:.1f} CPU-s "
                    f"in that pause). Median over {len(got)} processes of the median of the "
                    f"window. {java}.",
                )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.path.insert(0, str(HERE))
        print(json.dumps(child(int(sys.argv[2]), float(sys.argv[3]))), flush=True)
