"""The examples in the README run as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.docs import runnable_blocks, unmarked_blocks

ROOT = Path(__file__).parent.parent
BLOCKS = [(p.name, i, b) for p in [ROOT / "README.md"] for i, b in enumerate(runnable_blocks(p))]


def test_readme_has_runnable_examples() -> None:
    assert BLOCKS


@pytest.mark.parametrize(("name", "index", "code"), BLOCKS, ids=[f"{n}-{i}" for n, i, _ in BLOCKS])
def test_example_runs(name: str, index: int, code: str) -> None:
    exec(compile(code, f"{name}[{index}]", "exec"), {"__name__": "__doc_example__"})


def test_every_python_block_runs_or_says_why_not() -> None:
    # A block without the mark would go untested: mark it, or say why it cannot run alone.
    assert unmarked_blocks(ROOT / "README.md") == []
