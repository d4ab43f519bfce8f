"""The runnable examples of the docs: the ``python`` blocks right after the marker."""

from __future__ import annotations

import re
from pathlib import Path

MARK = "<!-- test: runs as written in tests/test_docs.py -->"
# A block that cannot run alone says why: <!-- test: not run: it needs a running gateway -->
NOT_RUN = re.compile(r"<!-- test: not run: (\S[^>]*?) -->")


def runnable_blocks(path: Path) -> list[str]:
    """The code of each runnable ``python`` block of ``path``, in order."""
    text = path.read_text()
    return re.findall(re.escape(MARK) + r"\s*```python\n(.*?)```", text, re.S)


def unmarked_blocks(path: Path) -> list[int]:
    """The line numbers of the ``python`` blocks of ``path`` that neither run nor say why not."""
    lines = path.read_text().splitlines()
    missing = []
    for number, line in enumerate(lines, 1):
        if line.strip() != "```python":
            continue
        before = next((b.strip() for b in reversed(lines[: number - 1]) if b.strip()), "")
        if before != MARK and not NOT_RUN.fullmatch(before):
            missing.append(number)
    return missing
