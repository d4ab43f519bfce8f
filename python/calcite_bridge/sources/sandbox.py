"""The sandbox of an environment (docs/security.md): which files and modules its SQL may reach.

The settings live in the environment's configuration (``filesystem.allowed-paths``,
``external-access``, ``python.allowed-modules``, frozen by ``lock-config``). The connectors that
DDL declares read them at every call, through a :data:`SandboxGetter`, so a setting changed
later (and then locked) applies to the tables made before it too.

A path is inside the allowed directories when its real path (``..`` and every symbolic link
resolved) is one of them or below one. A directory is checked as a whole before it is read:
every entry a reader would visit, partition directories included, and a symbolic link among
them must resolve inside as well.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from calcite_bridge.errors import AccessDeniedError

__all__ = ["UNCONFINED", "Sandbox", "SandboxGetter", "check_connector", "confine"]

ALLOWED_PATHS = "filesystem.allowed-paths"
EXTERNAL_ACCESS = "external-access"
ALLOWED_MODULES = "python.allowed-modules"


@dataclass(frozen=True)
class Sandbox:
    """What an environment's SQL may reach. ``allowed_paths`` empty means anywhere."""

    allowed_modules: tuple[str, ...] = ()
    allowed_paths: tuple[str, ...] = ()
    external_access: bool = True

    @classmethod
    def from_config(cls, config: Mapping[str, str]) -> Sandbox:
        """The sandbox of the settings ``config`` (``key -> text``, as ``SET`` shows them)."""

        def listed(key: str) -> tuple[str, ...]:
            return tuple(v for v in config.get(key, "").split(";") if v)

        return cls(
            allowed_modules=listed(ALLOWED_MODULES),
            allowed_paths=listed(ALLOWED_PATHS),
            external_access=config.get(EXTERNAL_ACCESS, "true") != "false",
        )

    @property
    def confined(self) -> bool:
        """Whether files are confined to :attr:`allowed_paths`."""
        return bool(self.allowed_paths)

    def roots(self) -> tuple[str, ...]:
        """The real paths of the allowed directories."""
        return tuple(os.path.realpath(p) for p in self.allowed_paths)


UNCONFINED = Sandbox()
SandboxGetter = Callable[[], Sandbox]


# The connectors written in Python, which DDL names in its WITH options ('connector' = ...).
CONNECTORS = ("filesystem", "python")


def check_connector(sandbox: Sandbox, connector: str) -> None:
    """Refuses the ``filesystem`` and ``python`` connectors under ``external-access = false``."""
    if not sandbox.external_access:
        raise AccessDeniedError(
            f"the {connector!r} connector is off in this environment "
            f"('{EXTERNAL_ACCESS}' = 'false')"
        )


def _inside(real: str, roots: Sequence[str]) -> bool:
    for root in roots:
        if real == root or real.startswith(root if root.endswith(os.sep) else root + os.sep):
            return True
    return False


def _refuse(path: str, sandbox: Sandbox, what: str) -> AccessDeniedError:
    return AccessDeniedError(
        f"{what} {path!r} is outside '{ALLOWED_PATHS}' ({';'.join(sandbox.allowed_paths)}) once "
        "'..' and symbolic links are resolved"
    )


def confine(
    path: str, sandbox: Sandbox, ignore_prefixes: Sequence[str] = (), what: str = "path"
) -> str:
    """The real path of ``path``, refused unless it, and every entry below it that a reader would
    visit (names starting with one of ``ignore_prefixes`` are skipped, as readers skip them), lies
    inside the allowed directories. ``path`` itself when the sandbox is not confined."""
    if not sandbox.confined:
        return path
    roots = sandbox.roots()
    real = os.path.realpath(path)
    if not _inside(real, roots):
        raise _refuse(path, sandbox, what)
    if os.path.isdir(real):
        _check_tree(path, real, roots, tuple(ignore_prefixes), sandbox)
    return real


def _check_tree(
    shown: str, real: str, roots: Sequence[str], ignore: tuple[str, ...], sandbox: Sandbox
) -> None:
    """Checks every entry under the directory ``real`` (``shown`` is how the user named it)."""
    seen = {real}
    pending = [(shown, real)]
    while pending:
        shown_dir, directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue  # unreadable: the reader reports it
        for entry in entries:
            if ignore and entry.name.startswith(ignore):
                continue
            entry_shown = os.path.join(shown_dir, entry.name)
            if entry.is_symlink():
                target = os.path.realpath(entry.path)
                if not _inside(target, roots):
                    raise _refuse(entry_shown, sandbox, "the symbolic link")
                if os.path.isdir(target) and target not in seen:
                    seen.add(target)
                    pending.append((entry_shown, target))
            elif entry.is_dir(follow_symlinks=False) and entry.path not in seen:
                seen.add(entry.path)
                pending.append((entry_shown, entry.path))
