"""``calcite-bridge gateway``: serves this process's JVM to other Python processes (py4j)."""

from __future__ import annotations

import os
import secrets
import signal
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import click

from ..errors import Error, GatewayError
from .announce import announce, withdraw

GATEWAY_CLASS = "io.calcitebridge.gateway.BridgeGateway"


def start_gateway(host: str, port: int, token: str, allow_remote: bool) -> Any:
    """Starts a gateway in this process's JVM (starting the JVM first); returns its handle."""
    from . import jvm

    jvm.facade()
    import jpype

    try:
        return jpype.JClass(GATEWAY_CLASS).start(host, port, token, allow_remote)
    except jpype.JException as e:
        raise GatewayError(f"The gateway did not start: {e.getMessage()}") from None


MIN_TOKEN_BYTES = 16  # as BridgeGateway.MIN_TOKEN_BYTES: a shorter token can be guessed


def _check_token(token: str, where: str) -> str:
    """``token``, refused when it is shorter than :data:`MIN_TOKEN_BYTES` bytes."""
    length = len(token.encode("utf-8"))
    if length < MIN_TOKEN_BYTES:
        raise click.UsageError(
            f"the token {where} is {length} bytes long; a gateway needs one of at least "
            f"{MIN_TOKEN_BYTES} bytes, because a short token can be guessed by trying. Omit "
            "--token to have a random one made"
        )
    return token


def _check_token_file(token_file: Path) -> None:
    """Refuses a token file that group or others may read or write: anyone who can read it can
    use the gateway, and anyone who can write it can replace the token."""
    mode = stat.S_IMODE(token_file.stat().st_mode)
    if mode & 0o066:
        raise click.UsageError(
            f"the token file {token_file} has mode {mode:04o}: other users can read or change "
            f"the token in it. Make it its owner's only (chmod 600 {token_file})"
        )


def _read_token(token: str | None, token_file: Path | None) -> tuple[str, bool]:
    """The token to require, and whether it was generated here (and is to be shown).

    A token file that does not exist yet is created, readable by its owner only, with a new
    token in it: clients on the same machine then read the token from there. An existing one
    must be its owner's only, and a token at least :data:`MIN_TOKEN_BYTES` bytes long.
    """
    if token is not None and token_file is not None:
        raise click.UsageError("give --token or --token-file, not both")
    if token_file is not None:
        if not token_file.exists():
            made = secrets.token_urlsafe(24)
            try:
                with os.fdopen(
                    os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w"
                ) as f:
                    f.write(made + "\n")
            except OSError as e:
                raise click.UsageError(f"cannot write the token file {token_file}: {e}") from e
            click.echo(f"wrote a new token to {token_file}", err=True)
            return made, False
        if token_file.is_dir():
            raise click.UsageError(f"the token file {token_file} is a directory")
        _check_token_file(token_file)
        token = token_file.read_text().strip()
        if not token:
            raise click.UsageError(f"the token file {token_file} is empty")
        return _check_token(token, f"in {token_file}"), False
    if token:
        return _check_token(token, "given with --token"), False
    return secrets.token_urlsafe(24), True


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=0,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on; 0 picks a free one.",
)
@click.option("--token", help="The token clients must present (default: a new random one).")
@click.option(
    "--token-file",
    type=click.Path(path_type=Path),
    help="Read the token from this file (keeps it out of the process list); a file that does "
    "not exist is created with a new token, readable by you only.",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Allow an address other than loopback; protect the port, the token is the only guard.",
)
def gateway(
    host: str, port: int, token: str | None, token_file: Path | None, allow_remote: bool
) -> None:
    """Serve this JVM to other Python processes until Ctrl-C or SIGTERM.

    Clients connect with cb.connect(gateway="HOST:PORT", token=...).
    """
    secret, generated = _read_token(token, token_file)
    stop = threading.Event()
    # Before the JVM starts: with a handler of ours, SIGTERM stops the gateway cleanly.
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        server = start_gateway(host, port, secret, allow_remote)
    except Error as e:
        click.echo(click.style("GatewayError", fg="red", bold=True) + ": " + str(e), err=True)
        sys.exit(1)
    address = str(server.address())
    how = "printed" if generated else "file" if token_file is not None else "option"
    record = announce(int(address.rsplit(":", 1)[1]), how, token_file)
    click.echo(f"calcite-bridge gateway listening on {address}")
    if generated:
        click.echo(f"token: {secret}")
    if generated:
        shown = repr(secret)
    elif token_file is not None:
        shown = f"<the token in {token_file}>"
    else:
        shown = "<the token given with --token>"
    click.echo(f"connect with: cb.connect(gateway={address!r}, token={shown})", nl=True)
    sys.stdout.flush()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        withdraw(record)
        click.echo("gateway stopped", err=True)
