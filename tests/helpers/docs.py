"""The runnable examples of the docs: the ``python`` blocks right after the marker."""

from __future__ import annotations

import re
from pathlib import Path

MARK = "<!-- test: runs as written in tests/test_docs.py -->"


def runnable_blocks(path: Path) -> list[str]:
    """The code of each runnable ``python`` block of ``path``, in order."""
    text = path.read_text()
    return re.findall(re.escape(MARK) + r"\s*```python\n(.*?)```", text, re.S)
