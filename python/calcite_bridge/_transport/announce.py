"""Where a running ``calcite-bridge gateway`` took its token, for the wrong-token message.

The gateway writes a small file, readable by its user only, named after its port. It holds no
secret: only the process id and how the token was given (printed, ``--token``, or the path of
``--token-file``). A client whose token was refused reads it to say which token to pass.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path


def _folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("calcite-bridge")) / "gateways"


def announce(port: int, how: str, token_file: Path | None) -> Path | None:
    """Records how the gateway on ``port`` took its token; returns the file, or None when it
    cannot be written (the hint is then the general one)."""
    try:
        folder = _folder()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = folder / f"{port}.json"
        record = {
            "pid": os.getpid(),
            "token": how,
            "token_file": str(token_file.absolute()) if token_file else "",
        }
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(record, f)
        return path
    except OSError:
        return None


def withdraw(path: Path | None) -> None:
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink()


def token_hint(port: int) -> str | None:
    """Which token the gateway on ``port`` of this machine wants, or None when unknown."""
    try:
        record = json.loads((_folder() / f"{port}.json").read_text())
        os.kill(int(record["pid"]), 0)  # a file left by a gateway that is gone says nothing
    except (OSError, ValueError, KeyError, TypeError):
        return None
    how = record.get("token")
    if how == "printed":
        return (
            "It made a token when it started and printed it on the line 'token: ...'; "
            "pass that one."
        )
    if how == "option":
        return "It was started with --token; pass the same value."
    if how == "file" and record.get("token_file"):
        return (
            f"It reads its token from the file {record['token_file']}; pass the token in it, "
            "for example in $CALCITE_BRIDGE_TOKEN."
        )
    return None
