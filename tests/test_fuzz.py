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


def test_shrinking_keeps_sub_query_predicates_inside_their_sub_query() -> None:
    from tests.fuzz import gen
    from tests.fuzz.run import _simpler

    inner = gen.Node("BOOLEAN", "(c2_0 < 3)")
    sub = gen.Node("BOOLEAN", "(EXISTS (SELECT 1 FROM t2 WHERE {}))", [inner], scoped=True)
    top = gen.Node("BOOLEAN", "({} AND {})", [sub, gen.Node("BOOLEAN", "(c0_0 = 1)")])
    simpler = [n.sql() for n in _simpler(top)]
    assert "(c0_0 = 1)" in simpler and "(TRUE AND (c0_0 = 1))" in simpler, simpler
    assert all("(c2_0 < 3)" not in s or "EXISTS" in s for s in simpler), simpler
