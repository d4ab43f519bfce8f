"""Runs the benchmark suite (DESIGN §11); every benchmark prints one JSON line on stdout.

    .venv/bin/python bench/run.py                 # every benchmark
    .venv/bin/python bench/run.py warm transfer   # only these groups (or benchmark names)
    .venv/bin/python bench/run.py --quick         # smaller sizes, for a fast check
    .venv/bin/python bench/run.py --java bundled cold_start warm   # on the jdk extra's Java

The package measured is the one the interpreter imports: run this with the ``python`` of a
fresh venv where the wheel is installed (``pip install dist/calcite_bridge-*.whl``, with
``[jdk]`` for the bundled Java) to measure what a user gets.

Each group runs in a fresh Python process (a fresh JVM), so one group's heap, caches and
class loading cannot colour another's figures. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import BACKENDS
from spark_files import SPARK_QUERIES

HERE = Path(__file__).resolve().parent

# Group module -> the benchmark names it prints, in run order.
GROUPS: dict[str, tuple[str, ...]] = {
    "cold_start": (
        "cold_start",
        "cold_start_first_result",
        "cold_start_first_data",
        "cold_start_cli",
        "cold_start_cli_daemon",
        "cold_start_cli_daemon_explain",
    ),
    "warm": tuple(
        f"warm_{op}{kind}"
        for kind in ("_after_30", "", "_cached")
        for op in ("validate", "explain", "execute")
    ),
    "paused": tuple(
        f"paused_{op}_{window}[{variant}]"
        for variant in ("on", "off")
        for op in ("validate", "explain", "execute")
        for window in ("first", "1_to_30", "30_to_330")
    ),
    "transfer": (
        "transfer_numeric",
        *(
            f"transfer_{shape}_{label}"
            for shape in ("many_chunks", "one_chunk")
            for label in ("star", "one_column", "reordered")
        ),
        "transfer_nested",
    ),
    "parquet_scan": ("parquet_nested_count", "parquet_nested_select"),
    "files_workload": tuple(
        f"files_{n}[{b}]"
        for n in (
            "group_by_nested_field",
            "top_n_zones",
            "join_on_nested_field",
            "row_number_top2",
            "selective_nested_filter",
            "count_distinct_nested",
            "group_by_file_name",
        )
        for b in BACKENDS
    ),
    "spark_files": tuple(f"spark_files_{n}" for n in SPARK_QUERIES),
    "constant_filters": (
        *(f"constant_filter_scan[{b}]" for b in BACKENDS),
        "constant_filter_plan",
    ),
    "groupby_join": tuple(f"{n}[{b}]" for n in ("group_by", "join") for b in BACKENDS),
    "sort": tuple(f"{n}[{b}]" for n in ("order_by_limit", "order_by_full") for b in BACKENDS),
    "tpch_like": tuple(f"tpch_like_join[{b}]" for b in BACKENDS),
    "dyncol": tuple(
        f"column_get_{n}[{b}]" for n in ("200k", "1m") for b in ("enumerable", "duckdb")
    ),
    "many_joins": tuple(f"plan_join_{n}_tables[{b}]" for n in (8, 20, 47) for b in BACKENDS),
    "memory": ("memory_10k_queries",),
    "reregister": ("reregister_one_chunk", "reregister_many_chunks"),
    "transport": ("transport_small_query", "transport_validate", "transport_transfer"),
    "parameters": tuple(
        f"parameters_new_value{kind}[{b}]" for kind in ("", "_parquet") for b in BACKENDS
    ),
    "planning": ("planning_validate_after_330", "planning_explain_after_330"),
    "udf": tuple(
        f"udf_{n}[{b}]"
        for n in ("vectorized_2m", "row_at_a_time")
        for b in ("enumerable", "duckdb")
    ),
}


def _select(names: list[str]) -> list[tuple[str, set[str] | None]]:
    """(group, benchmark names to keep or None for all) for each name given."""
    if not names:
        return [(g, None) for g in GROUPS]
    chosen: dict[str, set[str] | None] = {}
    for name in names:
        if name in GROUPS:
            chosen[name] = None
            continue
        group = next((g for g, bs in GROUPS.items() if name in bs), None)
        if group is None:
            known = sorted(set(GROUPS) | {b for bs in GROUPS.values() for b in bs})
            sys.exit(f"unknown benchmark {name!r}; known: {', '.join(known)}")
        if group not in chosen or chosen[group] is not None:
            chosen.setdefault(group, set())
            kept = chosen[group]
            assert kept is not None
            kept.add(name)
    return [(g, chosen[g]) for g in GROUPS if g in chosen]


def _run_child(group: str, only: set[str] | None, quick: bool) -> None:
    """In the child: run one group in this process and print its JSON lines."""
    from _common import emit

    module = importlib.import_module(group)
    for rec in module.run(quick=quick):
        if only is None or rec["benchmark"] in only:
            emit(rec)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="groups or benchmarks to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs")
    parser.add_argument(
        "--java",
        choices=("auto", "system", "bundled"),
        help="the Java to run on (sets CALCITE_BRIDGE_JAVA): bundled is the jdk extra's",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--only", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        only = set(args.only.split(",")) if args.only else None
        _run_child(args.child, only, args.quick)
        return 0

    if args.java:
        os.environ["CALCITE_BRIDGE_JAVA"] = args.java
    failed = []
    start = time.perf_counter()
    for group, only in _select(args.names):
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", group]
        if only:
            cmd += ["--only", ",".join(sorted(only))]
        if args.quick:
            cmd.append("--quick")
        t0 = time.perf_counter()
        print(f"[bench] {group} ...", file=sys.stderr, flush=True)
        proc = subprocess.run(cmd, check=False, stdout=subprocess.PIPE, text=True, cwd=HERE.parent)
        for line in proc.stdout.splitlines():
            try:
                json.loads(line)
            except ValueError:
                print(line, file=sys.stderr)  # stray output never pollutes the JSON lines
                continue
            print(line, flush=True)
        took = time.perf_counter() - t0
        print(f"[bench] {group} done in {took:.1f} s", file=sys.stderr, flush=True)
        if proc.returncode != 0:
            failed.append(group)
    total = time.perf_counter() - start
    print(f"[bench] total {total:.1f} s", file=sys.stderr, flush=True)
    if failed:
        print(f"[bench] failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
