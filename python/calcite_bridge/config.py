"""Typed configuration of an Environment.

Keys and their checks live in the JVM (one source of truth, shared with ``SET`` in SQL); this
module turns Python values into the text form, a list into ``;``-separated values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._transport.session import Session

EXPANSION_STRATEGY = "table.column-expansion-strategy"
LOCAL_TIME_ZONE = "table.local-time-zone"
PYTHON_ALLOWED_MODULES = "python.allowed-modules"
JAVA_ALLOWED_JARS = "java.allowed-jars"
# The sandbox (docs/security.md); lock-config freezes it and python.allowed-modules.
FILESYSTEM_ALLOWED_PATHS = "filesystem.allowed-paths"
EXTERNAL_ACCESS = "external-access"
LOCK_CONFIG = "lock-config"
_LISTS = (EXPANSION_STRATEGY, PYTHON_ALLOWED_MODULES, JAVA_ALLOWED_JARS, FILESYSTEM_ALLOWED_PATHS)

ConfigValue = str | bool | int | float | Iterable[str]


def to_text(value: ConfigValue) -> str:
    """A config value as text: a list or tuple becomes ``a;b``, a bool ``true`` or ``false``, a
    number its digits (``execution.timeout`` of 5 is 5 seconds, as ``'5'`` is)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return ";".join(str(v) for v in value)


class Config:
    """The settings of one Environment, as ``SET`` sees them."""

    def __init__(self, session: Session, on_change: Callable[[], None] | None = None) -> None:
        self._session = session
        self._on_change = on_change or (lambda: None)

    def set(self, key: str, value: ConfigValue) -> None:
        """Sets ``key``; an unknown key or value fails now, naming the allowed ones."""
        try:
            self._session.set_config(key, to_text(value))
        finally:
            self._on_change()

    def get(self, key: str) -> str | list[str]:
        """The value of ``key``; the expansion strategy comes back as a list."""
        value = self._session.get_config(key)
        if key in _LISTS:
            return [v for v in value.split(";") if v]
        return value

    def reset(self, key: str | None = None) -> None:
        """Resets ``key`` to its default, or every key when None."""
        try:
            self._session.reset_config(key)
        finally:
            self._on_change()

    def items(self) -> Iterator[tuple[str, str]]:
        for entry in self._session.config_entries():
            key, _, value = entry.partition("=")
            yield key, value

    def to_dict(self) -> dict[str, str]:
        return dict(self.items())

    def __repr__(self) -> str:
        return f"Config({self.to_dict()!r})"
