"""SQL text helpers shared by every layer; this module imports nothing from the package."""

from __future__ import annotations

import re

__all__ = ["quote_identifier"]

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*$")


def quote_identifier(name: str, *, if_needed: bool = False) -> str:
    """``name`` as a backtick-quoted SQL identifier, a backtick inside it doubled.

    With ``if_needed`` a plain identifier (a letter or ``_``, then letters, digits, ``_`` or
    ``$``) comes back as it is.
    """
    if if_needed and _PLAIN.match(name):
        return name
    return "`" + name.replace("`", "``") + "`"
