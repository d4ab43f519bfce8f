"""Per-call cost of the py4j gateway next to the in-process JPype transport.

The same warm statements run on both: a small query to an Arrow table, a validate, and a
larger result for throughput. The JPype Environment lives in this process; the py4j one in a
gateway process started here (`calcite-bridge gateway`), over loopback. `ours` is py4j, `peer`
is JPype; the ratio is py4j's time over JPype's, and the notes give the difference per call.
"""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import in_ms, record, started_env, time_ratio, timed

SETUP = (
    "CREATE TABLE t (id BIGINT, name STRING, score DOUBLE) WITH ('connector' = 'memory')",
    "INSERT INTO t SELECT a.x * 10 + b.x, 'name' || CAST(a.x AS STRING), a.x * 0.5 "
    "FROM (VALUES {v}) a(x), (VALUES {v}) b(x)".format(v=", ".join(f"({i})" for i in range(10))),
)
SMALL = "SELECT id, name FROM t WHERE id < 40"
BIG = (
    "CREATE TABLE big (n BIGINT, d DOUBLE) WITH ('connector' = 'memory')",
    "INSERT INTO big SELECT a.x * 1000 + b.x, CAST(b.x AS DOUBLE) "
    "FROM (VALUES {v}) a(x), (VALUES {v}) b(x)",
)


def _gateway(folder: Path, token: str) -> tuple[subprocess.Popen[str], str]:
    (folder / "token").write_text(token)
    proc = subprocess.Popen(
        [sys.executable, "-m", "calcite_bridge", "gateway", "--token-file", "token"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=folder,
    )
    assert proc.stdout is not None
    found = re.search(r"listening on (\S+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise RuntimeError("the gateway did not start")
    return proc, found.group(1)


def _pair(
    name: str, unit_note: str, jpype: dict[str, Any], py4j: dict[str, Any], notes: str
) -> dict[str, Any]:
    extra = py4j["median_ms"] - jpype["median_ms"]
    return record(
        name,
        {"name": "py4j gateway (loopback)", **py4j},
        {"name": "JPype in-process", **jpype},
        time_ratio(py4j["median_ms"], jpype["median_ms"]),
        "ms",
        None,
        None,
        f"{unit_note} py4j costs {extra:+.3f} ms per call. {notes}",
    )


def run(quick: bool = False) -> Iterator[dict[str, Any]]:
    import calcite_bridge as cb

    repeat, warmup = (100, 50) if quick else (400, 200)
    side = 300 if quick else 1000
    values = ", ".join(f"({i})" for i in range(side))
    token = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory() as tmp:
        proc, address = _gateway(Path(tmp), token)
        try:
            local = started_env()
            remote = cb.connect(gateway=address, token=token)
            for env in (local, remote):
                for sql in (*SETUP, BIG[0], BIG[1].format(v=values)):
                    env.execute(sql)
            common = f"median of {repeat} after {warmup} warm-up runs"

            def both(fn: Any, n: int, w: int) -> tuple[dict[str, Any], dict[str, Any]]:
                return (
                    in_ms(timed(lambda: fn(local), n, w, collect=False)),
                    in_ms(timed(lambda: fn(remote), n, w, collect=False)),
                )

            jp, p4 = both(lambda e: e.sql(SMALL).to_arrow_table(), repeat, warmup)
            yield _pair("transport_small_query", "Small query (40 rows).", jp, p4, common)

            jp, p4 = both(lambda e: e.validate(SMALL), repeat, warmup)
            yield _pair("transport_validate", "Validate of the same query.", jp, p4, common)

            rows = local.sql("SELECT * FROM big").to_arrow_table()
            mb = rows.nbytes / 1e6
            del rows
            jp, p4 = both(lambda e: e.sql("SELECT * FROM big").to_arrow_table(), 5, 1)
            rates = f"JPype {mb / jp['median_ms']:.2f} GB/s, py4j {mb / p4['median_ms']:.2f} GB/s"
            what = f"SELECT * of a memory table, {side * side} rows, {mb:.1f} MB: {rates}."
            yield _pair("transport_transfer", what, jp, p4, "median of 5 after 1 warm-up run")
            remote.close()
        finally:
            proc.terminate()
            proc.wait(timeout=60)
