"""How soon ``execution.memory-limit`` stops a statement, on each backend.

Each run is a fresh process (the JVM and DuckDB started, then one statement over a 64 MB limit):
``SELECT a.x, b.y, a.s FROM a CROSS JOIN b ORDER BY a.s DESC, b.y`` over 10^4 x 10^3 rows
(``sort``), or the same rows without the sort (``rows``), read into Arrow. The statement runs
twice in the process, as in tests/test_limits.py: the second run comes from the plan cache. For
each run the child reports

- ``error_s``: seconds from the start of the statement to the ``cb.ResourceError``;
- ``reached_s``: when the process's resident memory first stood the limit above what it was
  when the statement began (sampled every 10 ms), so ``error_s - reached_s`` is how late the
  error came after the statement's memory reached the limit (None when it never did: the
  statement was stopped before its memory grew that far);
- ``peak_mb``: the highest resident memory sampled during the statement.

On ``spark`` the statement runs in Spark's JVM, whose memory this process's does not show:
there ``reached_s`` is when Spark's execution memory (its sorts' and joins' pages) or its heap
after a garbage collection first stood the limit above the start (read through py4j every
50 ms), and ``peak_mb`` the most either grew.

Usage: ``python bench/memory_limit.py [--runs N] [--backends enumerable,duckdb,auto]``. Prints
one JSON line per run, then a summary line per backend and shape.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

LIMIT_MB = 64


def _rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _spark_probe() -> Any:
    """A reading of how far Spark's memory has grown since now, in KB: the larger of the growth
    of its execution memory and of its heap after the latest garbage collection."""
    from calcite_bridge import _spark

    session = _spark.local_session()
    jvm = session.sparkContext._jvm
    collectors = list(jvm.java.lang.management.ManagementFactory.getGarbageCollectorMXBeans())
    execution = _spark._execution_memory(session)
    assert execution is not None
    heap0 = _spark._live_heap(collectors)
    exec0 = execution()

    def probe() -> int:
        grown = max(_spark._live_heap(collectors) - heap0, execution() - exec0)
        return grown >> 10

    return probe


def child(backend: str, shape: str) -> None:
    import pyarrow as pa

    import calcite_bridge as cb

    env = cb.connect()
    n = 10_000
    env.register_arrow(
        "a",
        pa.table(
            {"x": pa.array(range(n), pa.int64()), "s": pa.array([f"s{i:08d}" for i in range(n)])}
        ),
    )
    env.register_arrow("b", pa.table({"y": pa.array(range(1_000), pa.int64())}))
    env.sql("SELECT COUNT(*) AS n FROM a", backend=backend).to_pylist()  # engines started
    env.config.set("execution.memory-limit", f"{LIMIT_MB} MB")
    order = " ORDER BY a.s DESC, b.y" if shape == "sort" else ""
    sql = f"SELECT a.x, b.y, a.s FROM a CROSS JOIN b{order}"
    for run in (1, 2):
        probe = _spark_probe() if backend == "spark" else None  # from this run's start
        base = _rss_kb() if probe is None else 0
        samples: list[tuple[float, int]] = []
        done = threading.Event()
        start = time.monotonic()

        def sample(
            start: float = start,
            samples: list[tuple[float, int]] = samples,
            done: threading.Event = done,
            probe: Any = probe,
        ) -> None:
            while not done.is_set():
                samples.append((time.monotonic() - start, _rss_kb() if probe is None else probe()))
                time.sleep(0.01 if probe is None else 0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        outcome = "returned"
        try:
            env.sql(sql, backend=backend).to_arrow_table()
        except cb.ResourceError as e:
            outcome = "ResourceError" if "execution.memory-limit" in str(e) else str(e)[:80]
        except cb.Error as e:
            outcome = f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"
        error_s = time.monotonic() - start
        done.set()
        sampler.join()
        reached = [t for t, kb in samples if kb - base >= LIMIT_MB * 1024]
        answers = env.sql("SELECT COUNT(*) AS n FROM b", backend=backend).to_pylist()
        print(
            json.dumps(
                {
                    "backend": backend,
                    "shape": shape,
                    "run": run,
                    "outcome": outcome,
                    "error_s": round(error_s, 2),
                    "reached_s": round(reached[0], 2) if reached else None,
                    "peak_mb": round(max(kb for _, kb in samples) / 1024) if samples else None,
                    "base_mb": round(base / 1024),
                    "answers_after": answers == [{"n": 1000}],
                }
            ),
            flush=True,
        )
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--backends", default="enumerable,duckdb,auto")
    parser.add_argument("--shapes", default="sort,rows")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for backend in args.backends.split(","):
        for shape in args.shapes.split(","):
            for _ in range(args.runs):
                done = subprocess.run(
                    [sys.executable, __file__, "--child", backend, shape],
                    capture_output=True,
                    text=True,
                    timeout=600,
                    check=False,
                )
                for line in done.stdout.splitlines():
                    print(line, flush=True)
                    results.setdefault((backend, shape), []).append(json.loads(line))
                if done.returncode != 0:
                    print(
                        json.dumps(
                            {"backend": backend, "shape": shape, "failed": done.stderr[-500:]}
                        )
                    )
    for (backend, shape), runs in results.items():
        errors = [r for r in runs if r["outcome"] == "ResourceError"]
        late = [r["error_s"] - r["reached_s"] for r in runs if r["reached_s"] is not None]
        print(
            json.dumps(
                {
                    "summary": f"{backend} {shape}",
                    "resource_errors": f"{len(errors)} of {len(runs)}",
                    "answers_after": all(r["answers_after"] for r in runs),
                    "error_s_median": statistics.median(r["error_s"] for r in runs),
                    "error_s_max": max(r["error_s"] for r in runs),
                    "late_s_max": round(max(late), 2) if late else None,
                    "peak_mb_max": max(r["peak_mb"] or 0 for r in runs),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
