"""The Java code of docs/java.md is taken from the example project, which `make test` compiles and
runs: every block marked as an excerpt appears in its file as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOC = ROOT / "docs" / "java.md"
EXCERPT = re.compile(r"<!-- excerpt: (\S+) -->\s*```java\n(.*?)```", re.S)


def excerpts() -> list[tuple[str, str]]:
    return EXCERPT.findall(DOC.read_text())


def chunks(block: str) -> list[str]:
    """The runs of lines between lines that the excerpt left out (blank lines separate them)."""
    return [c.strip("\n") for c in re.split(r"\n\s*\n", block) if c.strip()]


def test_the_doc_has_excerpts() -> None:
    assert len(excerpts()) >= 3


@pytest.mark.parametrize(("path", "block"), excerpts())
def test_excerpt_is_in_the_example(path: str, block: str) -> None:
    source = (ROOT / path).read_text()
    for chunk in chunks(block):
        assert chunk in source, f"docs/java.md shows code that {path} does not have:\n{chunk}"
