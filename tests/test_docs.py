"""The examples in the README run as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.docs import runnable_blocks

ROOT = Path(__file__).parent.parent
BLOCKS = [(p.name, i, b) for p in [ROOT / "README.md"] for i, b in enumerate(runnable_blocks(p))]


def test_readme_has_runnable_examples() -> None:
    assert BLOCKS


@pytest.mark.parametrize(("name", "index", "code"), BLOCKS, ids=[f"{n}-{i}" for n, i, _ in BLOCKS])
def test_example_runs(name: str, index: int, code: str) -> None:
    exec(compile(code, f"{name}[{index}]", "exec"), {"__name__": "__doc_example__"})
