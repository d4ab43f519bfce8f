"""Where a daemon lives and which processes may share it; the frames client and daemon exchange.

Light on imports: the client reads this before it knows whether it needs anything heavy.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import stat
import struct
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from .. import _version

# The daemon's own settings: they choose whether and where a daemon runs, not what it runs.
USE_VAR = "CALCITE_BRIDGE_DAEMON"
IDLE_VAR = "CALCITE_BRIDGE_DAEMON_IDLE"
DIR_VAR = "CALCITE_BRIDGE_DAEMON_DIR"
OWN_VARS = frozenset({USE_VAR, IDLE_VAR, DIR_VAR})
# What the JVM and the interpreter read at start: two processes that differ in any of these
# cannot share a JVM.
START_VARS = frozenset(
    {
        "JAVA_HOME",
        "PATH",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "TZ",
        "LANG",
        "PYTHONPATH",
        "HOME",
        "CLASSPATH",
    }
)
DEFAULT_IDLE_SECONDS = 15 * 60
# A busy daemon answers BUSY at once; this bounds only a daemon that does not answer at all (a
# live one on a loaded machine may take a second to be scheduled).
ANSWER_SECONDS = 2.0
# Changes whenever the frames or the request change: a daemon of another version answers
# REFUSED and the client runs the command itself.
PROTOCOL = 2

# Frames: one kind byte, a 4-byte length, the payload.
REQUEST = b"R"  # client: a command (JSON)
STATUS = b"?"  # client: how are you (answer INFO)
STOP = b"K"  # client: end after the command at hand (answer INFO)
INTERRUPT = b"C"  # client: Ctrl-C
STDIN = b"0"  # client: bytes of its stdin, asked for by STDIN_WANTED
STDIN_END = b"e"  # client: its stdin ended
ACCEPTED = b"A"  # daemon: the command will run once the client says GO
GO = b"G"  # client: run it (a client that timed out closes instead, and runs it itself)
BUSY = b"B"  # daemon: another command runs
REFUSED = b"V"  # daemon: another version or place
INFO = b"J"  # daemon: status (JSON)
STDOUT = b"1"
STDERR = b"2"
STDIN_WANTED = b"i"
EXIT = b"X"  # daemon: the command's exit code (4 bytes, signed)
_HEADER = struct.Struct(">cI")


def send(sock: socket.socket, kind: bytes, payload: bytes = b"") -> None:
    sock.sendall(_HEADER.pack(kind, len(payload)) + payload)


def _exactly(sock: socket.socket, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> tuple[bytes, bytes] | None:
    """The next frame, or None once the other side closed."""
    header = _exactly(sock, _HEADER.size)
    if header is None:
        return None
    kind, size = _HEADER.unpack(header)
    payload = _exactly(sock, size) if size else b""
    if payload is None:
        return None
    return kind, payload


def jar_file(environ: Mapping[str, str]) -> Path:
    """The jar the JVM would load (as ``jvm.jar_path`` finds it)."""
    override = environ.get("CALCITE_BRIDGE_JAR")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "_jars" / "calcite-bridge.jar"


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def place(environ: Mapping[str, str], cwd: str) -> dict[str, object]:
    """What makes two processes' JVMs interchangeable."""
    jar = jar_file(environ)
    variables = {
        k: v
        for k, v in environ.items()
        if k in START_VARS
        or k.startswith("LC_")
        or (k.startswith("CALCITE_BRIDGE_") and k not in OWN_VARS)
    }
    return {
        "package": str(Path(__file__).resolve().parent.parent),
        "version": _version.__version__,
        "jar": str(jar),
        "jar_mtime": _mtime(jar),
        # The interpreter and its environment (python and python3 of one venv are the same).
        "python": os.path.realpath(sys.executable),
        "prefix": sys.prefix,
        # Java resolves relative paths (USING JAR, plan files) against its start directory.
        "cwd": cwd,
        "environment": variables,
    }


def key(environ: Mapping[str, str], cwd: str) -> str:
    text = json.dumps(place(environ, cwd), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def directory(environ: Mapping[str, str]) -> Path:
    """The per-user directory of the daemons' sockets, locks and logs."""
    given = environ.get(DIR_VAR)
    if given:
        return Path(given)
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / "calcite-bridge"
    home = environ.get("HOME") or str(Path.home())
    return Path(home) / ".cache" / "calcite-bridge" / "daemon"


def directory_problem(path: Path) -> str | None:
    """Why ``path`` may not hold daemons' sockets (it must be a directory of this user that no
    one else can enter), or None when it may."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return f"{path} does not exist"
    except OSError as e:
        return f"{path}: {e.strerror}"
    if not stat.S_ISDIR(info.st_mode):
        return f"{path} is not a directory"
    if info.st_uid != os.getuid():
        return f"{path} belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o077:
        return f"{path} is open to other users (mode {stat.S_IMODE(info.st_mode):o}; needs 700)"
    return None


def make_directory(path: Path) -> str | None:
    """Creates ``path`` (mode 0700) when missing; returns why it may not be used, or None."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=0o700, exist_ok=True)
    except OSError as e:
        return f"{path}: {e.strerror}"
    return directory_problem(path)


def socket_file(folder: Path, name: str) -> Path:
    return folder / f"{name}.sock"


# A Unix socket's address holds at most 107 bytes on Linux (103 on macOS).
_MAX_ADDRESS = 100


@contextlib.contextmanager
def address(path: Path) -> Iterator[str]:
    """The address to bind or connect to for the socket file ``path``. A path too long for a
    socket address (a deep home or runtime directory) is reached through the directory's file
    descriptor in ``/proc/self/fd``, where Linux has it; elsewhere it raises OSError, which the
    callers take as "no daemon here"."""
    text = os.fsdecode(path)
    if len(os.fsencode(path)) <= _MAX_ADDRESS:
        yield text
        return
    if not os.path.isdir("/proc/self/fd"):
        raise OSError(f"the socket path {text} is too long for a Unix socket")
    fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


def lock_file(folder: Path, name: str) -> Path:
    return folder / f"{name}.lock"


def log_file(folder: Path, name: str) -> Path:
    return folder / f"{name}.log"


# The files of a daemon that ended (its lock, its log, a socket it could not remove) go once
# none of them changed for this long: the log stays a while for whoever wants to read it.
ENDED_DAYS = 7


def sweep(folder: Path, keep: str, now: float | None = None) -> list[Path]:
    """Removes from ``folder`` the lock, log and socket files of daemons that ended more than
    :data:`ENDED_DAYS` days ago: a place whose lock no daemon holds and none of whose files
    changed since. ``keep`` (the caller's own place) stays. Returns what it removed."""
    import time

    now = time.time() if now is None else now
    places: dict[str, list[Path]] = {}
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    for path in entries:
        if path.suffix in (".lock", ".log", ".sock") and path.stem != keep:
            places.setdefault(path.stem, []).append(path)
    removed: list[Path] = []
    for name, files in places.items():
        try:
            newest = max(os.lstat(f).st_mtime for f in files)
        except OSError:
            continue  # changing right now
        if now - newest > ENDED_DAYS * 86400:
            removed += _remove_unheld(lock_file(folder, name), files)
    return removed


def _remove_unheld(lock: Path, files: list[Path]) -> list[Path]:
    """Removes ``files`` unless a daemon holds ``lock``; holds it meanwhile (a daemon starting
    now checks that the lock it took is still the file's: Daemon.claim)."""
    import fcntl

    fd = None
    try:
        if lock.exists():
            fd = os.open(lock, os.O_RDWR)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        if fd is not None:
            os.close(fd)
        return []  # a daemon holds it: it lives
    removed = []
    try:
        for f in files:
            try:
                f.unlink()
                removed.append(f)
            except OSError:
                pass
    finally:
        if fd is not None:
            os.close(fd)
    return removed


def peer_uid(sock: socket.socket) -> int | None:
    """The uid of the process at the other end of a Unix socket (``SO_PEERCRED``)."""
    peercred = getattr(socket, "SO_PEERCRED", None)
    if peercred is None:
        return None
    creds = sock.getsockopt(socket.SOL_SOCKET, peercred, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return int(uid)


def held(lock: Path) -> bool:
    """Whether a daemon holds ``lock`` (it does for its whole life)."""
    import fcntl

    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing also lets go of a lock just taken
    return False


def connect(path: Path, folder: Path, name: str) -> socket.socket | None:
    if not path.exists():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(ANSWER_SECONDS)
    try:
        with address(path) as at:
            sock.connect(at)
    except ConnectionRefusedError:
        sock.close()
        # No one listens: a daemon that died left its socket. Remove it, unless a daemon is
        # starting right now (it holds the lock before it binds).
        if not held(lock_file(folder, name)):
            try:
                path.unlink()
            except OSError:
                pass
        return None
    except OSError:
        sock.close()
        return None
    return sock


def ask(kind: bytes, environ: Mapping[str, str], cwd: str) -> dict[str, object] | None:
    """A daemon's answer (INFO) to STATUS or STOP, or None when none answers here."""
    folder = directory(environ)
    name = key(environ, cwd)
    if directory_problem(folder) is not None:
        return None
    sock = connect(socket_file(folder, name), folder, name)
    if sock is None:
        return None
    try:
        sock.settimeout(5.0)
        send(sock, kind)
        frame = receive(sock)
    except OSError:
        return None
    finally:
        sock.close()
    if frame is None or frame[0] != INFO:
        return None
    answer: dict[str, object] = json.loads(frame[1])
    answer["socket"] = str(socket_file(folder, name))
    return answer
