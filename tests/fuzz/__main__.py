"""``python -m tests.fuzz [--seed S] [--minutes M | --checks N]``: random TLP, NoREC, DuckDB and
backend checks (``make fuzz MINUTES=15 SEED=1``).

Prints the counts per oracle. On a mismatch it shrinks the tables and the predicate while the
mismatch holds, prints a repro (DDL, INSERTs and the queries), and exits 1.
"""

from __future__ import annotations

import argparse
import sys

from .run import Settings, run


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--checks", type=int, default=None)
    parser.add_argument("--keep-going", action="store_true", help="report every mismatch")
    args = parser.parse_args(argv)
    if args.minutes is None and args.checks is None:
        args.minutes = 1.0
    settings = Settings(
        seed=args.seed,
        seconds=None if args.minutes is None else args.minutes * 60,
        checks=args.checks,
        stop_at_first=not args.keep_going,
    )
    summary = run(settings, out=sys.stdout)
    print(summary.line(), flush=True)
    return 1 if summary.mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
