"""The ``calcite-bridge`` entry point: a one-shot command goes to the warm daemon of this place
when one answers, else runs in this process (and may leave a daemon for the next command).

Nothing heavy is imported here (no click, rich, pyarrow or JPype) before the daemon answered:
a served command costs this interpreter's start and a few frames.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from types import FrameType

from . import place

# The commands a daemon serves: they run and exit. The shell, scripts, gateway and doctor run
# here.
SERVED = frozenset({"query", "explain", "validate", "describe"})
# The group's options that take a value, to find the command after them.
_VALUED = frozenset({"-f", "--file", "--catalog", "--set", "--format", "--max-rows"})
_HELP = frozenset({"-h", "--help", "--version"})


def command_of(args: list[str]) -> str | None:
    """The command ``args`` run when a daemon may serve it, else None (help and version are
    printed here)."""
    if any(a in _HELP for a in args):
        return None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--no-daemon":
            return None
        if arg.startswith("-"):
            i += 2 if arg in _VALUED else 1
            continue
        return arg if arg in SERVED else None
    return None


def _terminal_size() -> tuple[int, int] | None:
    """The terminal's size as the CLI's output library reads it: from stdin, stdout or
    stderr, the first that is a terminal."""
    for fd in (0, 1, 2):
        try:
            size = os.get_terminal_size(fd)
        except (OSError, ValueError):
            continue
        return size.columns, size.lines
    return None


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _stream(name: str) -> dict[str, object] | None:
    stream = getattr(sys, name)
    if stream is None or stream.closed:
        return None
    try:
        tty = _isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):  # not a file: no terminal
        tty = False
    return {
        "tty": tty,
        "encoding": stream.encoding or "utf-8",
        "errors": stream.errors or "strict",
        "line_buffering": bool(getattr(stream, "line_buffering", False)),
    }


def request(args: list[str], key: str) -> dict[str, object]:
    environ = dict(os.environ)
    size = _terminal_size()
    return {
        "protocol": place.PROTOCOL,
        "key": key,
        "argv0": sys.argv[0],
        "prog": os.path.basename(sys.argv[0]),
        "path0": sys.path[0] if sys.path else "",
        "args": args,
        "cwd": os.getcwd(),
        "environ": environ,
        "size": size,
        "stdin": _stream("stdin"),
        "stdout": _stream("stdout"),
        "stderr": _stream("stderr"),
    }


class _Relay:
    """Copies the daemon's output to this process's stdout and stderr, answers its requests for
    stdin, and passes Ctrl-C on."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sending = False
        self.interrupts = 0
        self.closed: set[int] = set()

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        self.sending = True
        try:
            place.send(self.sock, kind, payload)
        finally:
            self.sending = False
        while self.interrupts:
            self.interrupts -= 1
            place.send(self.sock, place.INTERRUPT)

    def on_sigint(self, signum: int, frame: FrameType | None) -> None:
        if self.sending:  # inside a frame: send it after
            self.interrupts += 1
            return
        try:
            place.send(self.sock, place.INTERRUPT)
        except OSError:
            pass

    def write(self, fd: int, data: bytes) -> None:
        if fd in self.closed:
            return
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BrokenPipeError:
                self.closed.add(fd)
                return

    def stdin(self) -> None:
        try:
            while True:
                chunk = os.read(0, 1 << 16)
                if not chunk:
                    break
                self.send(place.STDIN, chunk)
        except OSError:
            pass
        self.send(place.STDIN_END)

    def run(self) -> int:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        while True:
            frame = place.receive(self.sock)
            if frame is None:
                return -1
            kind, payload = frame
            if kind == place.STDOUT:
                self.write(1, payload)
            elif kind == place.STDERR:
                self.write(2, payload)
            elif kind == place.STDIN_WANTED:
                self.stdin()
            elif kind == place.EXIT:
                return int.from_bytes(payload, "big", signed=True)


def _taken(sock: socket.socket, args: list[str], name: str) -> bool:
    """Whether the daemon at ``sock`` takes the command: it accepted it and was told GO. It
    runs the command only on GO, so that a client that gave up waiting (and runs the command
    itself) never has it run twice."""
    try:
        place.send(sock, place.REQUEST, json.dumps(request(args, name)).encode())
        answer = place.receive(sock)
        if answer is None or answer[0] != place.ACCEPTED:
            return False
        place.send(sock, place.GO)
    except OSError:  # no answer in time, or the daemon went away
        return False
    return True


def serve_here(args: list[str]) -> int | None:
    """Runs ``args`` in the daemon of this place: its exit code, or None when no daemon took it
    (none runs, it is busy or of another version), and the command should run here."""
    environ = dict(os.environ)
    folder = place.directory(environ)
    if place.directory_problem(folder) is not None:
        return None
    name = place.key(environ, os.getcwd())
    sock = place.connect(place.socket_file(folder, name), folder, name)
    if sock is None:
        return None
    if not _taken(sock, args, name):
        sock.close()
        return None
    sock.settimeout(None)
    relay = _Relay(sock)
    previous = signal.signal(signal.SIGINT, relay.on_sigint)
    try:
        code = relay.run()
    except OSError:
        code = -1
    finally:
        signal.signal(signal.SIGINT, previous)
        sock.close()
    if code == -1:
        log = place.log_file(folder, name)
        sys.stderr.write(
            "Error: the calcite-bridge daemon ended during the command, which is not run "
            f"again (it may have had effects); its log is {log}. CALCITE_BRIDGE_DAEMON=0 "
            "runs commands without a daemon.\n"
        )
        return 1
    return code


def wanted(environ: dict[str, str]) -> bool:
    """Whether a command run here leaves a daemon for the next: ``CALCITE_BRIDGE_DAEMON=1``
    always, ``0`` never; unset, only in a terminal session (scripts and CI start none)."""
    setting = environ.get(place.USE_VAR, "").strip()
    if setting in ("0", "1"):
        return setting == "1"
    return any(_isatty(fd) for fd in (0, 1, 2))


def start(environ: dict[str, str], cwd: str) -> None:
    """Starts a detached daemon for this place, unless one runs or is starting."""
    import subprocess

    folder = place.directory(environ)
    if place.make_directory(folder) is not None:
        return
    name = place.key(environ, cwd)
    if place.held(place.lock_file(folder, name)):
        return
    bindir = os.path.dirname(os.path.abspath(sys.argv[0]))
    # The import path of the entry point's script, whose directory comes first, not the
    # working directory's as with -c.
    code = (
        f"import sys; sys.path[0] = {bindir!r}; "
        "from calcite_bridge.cli import serve_daemon; serve_daemon()"
    )
    with open(place.log_file(folder, name), "ab") as log:
        os.utime(log.fileno())  # new: a sweep (place.sweep) leaves it to the daemon it starts
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd=cwd,
            start_new_session=True,
            close_fds=True,
        )


def run() -> None:
    """The ``calcite-bridge`` command."""
    args = sys.argv[1:]
    environ = dict(os.environ)
    command = command_of(args)
    allowed = command is not None and environ.get(place.USE_VAR, "").strip() != "0"
    if allowed:
        code = serve_here(args)
        if code is not None:
            sys.exit(code)
    from .. import cli

    after = None
    if allowed and wanted(environ):
        cwd = os.getcwd()

        def after() -> None:
            try:
                start(environ, cwd)
            except OSError:
                pass

    cli.run(after=after)
