"""The TLP, NoREC, DuckDB and backend checks of tests/fuzz/, with fixed seeds and a fixed
number of checks, so every run of the suite makes the same queries (``make fuzz`` runs longer)."""

from __future__ import annotations

import pytest
from tests.fuzz.run import Settings, run

SEEDS = (101, 202, 303)
CHECKS = 100


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_finds_no_mismatch(seed: int) -> None:
    summary = run(Settings(seed=seed, checks=CHECKS))
    assert not summary.mismatches, summary.line() + "\n\n" + "\n\n".join(summary.mismatches)
    applicable = sum(v for k, v in summary.counts.items() if "not applicable" not in k)
    assert applicable >= CHECKS // 2, summary.line()
