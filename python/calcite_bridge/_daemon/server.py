"""The daemon: one warm JVM serving the CLI's one-shot commands of one place, one at a time.

Each command runs in the main thread exactly as the in-process CLI runs it: the same click
commands, a fresh ``connect()`` environment, the client's environment variables, working
directory, argv and terminal flags; its stdout and stderr bytes go back to the client as they
are written, and its stdin is read from the client when the command asks for it. A Ctrl-C on
the client becomes a SIGINT here, which the CLI's own Ctrl-C path turns into exit 130.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import io
import json
import os
import queue
import signal
import site
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import click

from . import place

# How often an idle daemon wakes to check its idle time and whether its jar or package changed.
_TICK_SECONDS = 5.0
# How long an accepted command waits for its client's GO.
GO_SECONDS = 30.0


class _Channel:
    """The connection to the client; frames from several threads go out whole. Once the client
    is gone, output is dropped."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.lock = threading.Lock()
        self.gone = False

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        with self.lock:
            if self.gone:
                return
            try:
                place.send(self.sock, kind, payload)
            except OSError:
                self.gone = True


class _Sink(io.RawIOBase):
    def __init__(self, channel: _Channel, kind: bytes, tty: bool) -> None:
        self.channel, self.kind, self.tty = channel, kind, tty

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def write(self, data: Any) -> int:
        chunk = bytes(data)
        if chunk:
            self.channel.send(self.kind, chunk)
        return len(chunk)


class _Source(io.RawIOBase):
    """The client's stdin, asked for when first read."""

    def __init__(self, channel: _Channel, tty: bool, arrived: queue.Queue[bytes | None]) -> None:
        self.channel, self.tty, self.arrived = channel, tty, arrived
        self.asked = False
        self.ended = False
        self.pending = b""

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def readinto(self, buffer: Any) -> int:
        if not self.pending and not self.ended:
            if not self.asked:
                self.asked = True
                self.channel.send(place.STDIN_WANTED)
            chunk = self.arrived.get()
            if chunk is None:
                self.ended = True
            else:
                self.pending = chunk
        n = min(len(buffer), len(self.pending))
        buffer[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n


def _text_out(channel: _Channel, kind: bytes, info: dict[str, Any] | None) -> io.TextIOWrapper:
    info = info or {"tty": False, "encoding": "utf-8", "errors": "strict"}
    return io.TextIOWrapper(
        io.BufferedWriter(_Sink(channel, kind, bool(info["tty"]))),
        encoding=str(info["encoding"]),
        errors=str(info["errors"]),
        line_buffering=bool(info.get("line_buffering")),
        write_through=True,
    )


# Runs one command (its arguments, the program's name) and returns its exit code.
Runner = Callable[[list[str], str], int]


class Daemon:
    def __init__(self, run: Runner, idle: float) -> None:
        self.run = run
        self.cwd = os.getcwd()
        self.environ = dict(os.environ)
        self.key = place.key(self.environ, self.cwd)
        self.folder = place.directory(self.environ)
        self.idle = idle
        self.started = time.time()
        self.last = time.monotonic()
        self.served = 0
        self.lock = threading.Lock()
        self.busy = False
        self.current: _Channel | None = None  # the command running in the main thread
        self.stopping = False
        self.work: queue.Queue[tuple[socket.socket, dict[str, Any]] | None] = queue.Queue()
        self.listener: socket.socket | None = None
        self.lock_fd: int | None = None
        self.main_thread = threading.main_thread().ident

    # -- life ----------------------------------------------------------------------------

    def claim(self) -> bool:
        """Holds this place's lock for the daemon's life; False when another daemon holds it."""
        path = place.lock_file(self.folder, self.key)
        for _ in range(3):
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.lock_fd = fd
                return True
            os.close(fd)  # a sweep (place.sweep) removed the file as it was opened: again
        return False

    def listen(self) -> None:
        path = place.socket_file(self.folder, self.key)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o077)
        try:
            with place.address(path) as at:
                listener.bind(at)
        finally:
            os.umask(old)
        listener.listen(16)
        listener.settimeout(1.0)
        self.listener = listener
        threading.Thread(target=self.accept, name="calcite-bridge-daemon", daemon=True).start()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
        with contextlib.suppress(OSError):
            place.socket_file(self.folder, self.key).unlink()
        if self.lock_fd is not None:
            os.close(self.lock_fd)

    def changed(self) -> bool:
        """Whether the jar or the package this daemon runs changed since it started."""
        return place.key(self.environ, self.cwd) != self.key

    def loop(self) -> str:
        """Serves commands until stopped or idle; returns why it ends. A command accepted as
        the daemon decided to end is served first."""
        reason = self.serve_until_done()
        with self.lock:
            self.stopping = True  # from here every caller hears BUSY and runs its command itself
        while True:
            try:
                # A command accepted before that waits for its client's GO: busy until then.
                item = self.work.get(timeout=0.05)
            except queue.Empty:
                with self.lock:
                    if not self.busy:
                        return reason
                continue
            if item is not None:
                self.command(*item)

    def serve_until_done(self) -> str:
        while True:
            try:
                left = self.idle - (time.monotonic() - self.last)
                if left <= 0:
                    return f"idle for {self.idle:g} s"
                try:
                    item = self.work.get(timeout=min(left, _TICK_SECONDS))
                except queue.Empty:
                    if self.changed():
                        return "its jar or package changed"
                    continue
                if item is None:
                    return "stopped"
                self.command(*item)
            except KeyboardInterrupt:  # a Ctrl-C that came after its command ended
                continue
            if self.stopping:
                return "stopped"

    # -- the acceptor thread ---------------------------------------------------------------

    def info(self) -> bytes:
        return json.dumps(
            {
                "pid": os.getpid(),
                "uptime": round(time.time() - self.started, 1),
                "served": self.served,
                "busy": self.busy,
                "cwd": self.cwd,
                "key": self.key,
            }
        ).encode()

    def accept(self) -> None:
        assert self.listener is not None
        while True:
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:  # closed: the daemon ends
                return
            try:
                self.greet(conn)
            except OSError:
                conn.close()

    def greet(self, conn: socket.socket) -> None:
        if place.peer_uid(conn) != os.getuid():
            conn.close()
            return
        conn.settimeout(2.0)
        frame = place.receive(conn)
        if frame is None:
            conn.close()
            return
        kind, payload = frame
        if kind in (place.STATUS, place.STOP):
            if kind == place.STOP:
                self.stopping = True
                self.work.put(None)
            place.send(conn, place.INFO, self.info())
            conn.close()
            return
        if kind != place.REQUEST:
            conn.close()
            return
        request = json.loads(payload)
        if request.get("protocol") != place.PROTOCOL or request.get("key") != self.key:
            place.send(conn, place.REFUSED)
            conn.close()
            return
        with self.lock:  # so that a daemon deciding to end sees every command it accepted
            if self.busy or self.stopping:
                place.send(conn, place.BUSY)
                conn.close()
                return
            self.busy = True
        self.start(conn, request)

    def start(self, conn: socket.socket, request: dict[str, Any]) -> None:
        """Hands an accepted command to the main thread once its client says GO."""
        try:
            place.send(conn, place.ACCEPTED)
            # Run only when the client says GO: one that gave up waiting closes, runs the
            # command itself, and it must not run here too.
            conn.settimeout(GO_SECONDS)
            go = place.receive(conn)
        except OSError:
            go = None
        if go is None or go[0] != place.GO:
            with self.lock:
                self.busy = False
            conn.close()
            return
        conn.settimeout(None)
        self.work.put((conn, request))

    # -- a command, in the main thread -------------------------------------------------------

    def listen_to_client(self, channel: _Channel, stdin: queue.Queue[bytes | None]) -> None:
        """Reads the client's frames during a command: stdin, Ctrl-C, or its end (a client that
        went away stops the command as Ctrl-C would)."""
        while True:
            try:
                frame = place.receive(channel.sock)
            except OSError:
                frame = None
            if frame is None:
                channel.gone = True
                stdin.put(None)
                self.interrupt(channel)
                return
            kind, payload = frame
            if kind == place.STDIN:
                stdin.put(payload)
            elif kind == place.STDIN_END:
                stdin.put(None)
            elif kind == place.INTERRUPT:
                self.interrupt(channel)

    def interrupt(self, channel: _Channel) -> None:
        """Ctrl-C for the command of ``channel``, if it still runs."""
        with self.lock:
            if self.current is channel and self.main_thread is not None:
                signal.pthread_kill(self.main_thread, signal.SIGINT)

    def command(self, conn: socket.socket, request: dict[str, Any]) -> None:
        channel = _Channel(conn)
        arrived: queue.Queue[bytes | None] = queue.Queue()
        code = 130  # what a Ctrl-C that beat every handler below leaves
        counted = False
        try:
            threading.Thread(
                target=self.listen_to_client, args=(channel, arrived), daemon=True
            ).start()
            with _as_client(request, channel, arrived):
                try:
                    _sigint(signal.default_int_handler)
                    with self.lock:
                        self.current = channel
                    code = self.run(list(request["args"]), str(request["prog"]))
                except KeyboardInterrupt:
                    code = 130
                finally:
                    # From here a late Ctrl-C of this command is ignored.
                    _sigint(_ignore)
                    with self.lock:
                        self.current = None
            # Counted and idle before the client hears its exit code: a client that asks
            # at once, or sends its next command, finds this one done.
            self.done()
            counted = True
            channel.send(place.EXIT, code.to_bytes(4, "big", signed=True))
        finally:
            conn.close()
            if not counted:
                self.done()

    def done(self) -> None:
        """Ends the current command's turn: served, and no longer busy."""
        with self.lock:
            self.busy = False
            self.served += 1
            self.last = time.monotonic()


def _ignore(signum: int, frame: FrameType | None) -> None:
    """SIGINT between commands: nothing to interrupt."""


def _sigint(handler: Any) -> None:
    """Sets SIGINT's handler; a Ctrl-C pending as it changes is handled by the old one first,
    and then this tries again."""
    while True:
        try:
            signal.signal(signal.SIGINT, handler)
            return
        except KeyboardInterrupt:
            continue


def _installation() -> tuple[str, ...]:
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.update(site.getsitepackages())
    roots.add(str(Path(__file__).resolve().parent.parent))
    return tuple(os.path.join(os.path.realpath(r), "") for r in roots)


@contextlib.contextmanager
def _as_client(
    request: dict[str, Any],
    channel: _Channel,
    arrived: queue.Queue[bytes | None],
) -> Iterator[None]:
    """The process as the client's: its environment, directory, argv, streams and import path;
    everything back as it was after, and the modules the command imported from outside the
    installation forgotten (an edited Python function's file is read again next time)."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_argv, saved_path = sys.argv, list(sys.path)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    modules = set(sys.modules)
    environ = dict(request["environ"])
    size = request.get("size")
    if size:  # the terminal's size, which the output library reads from COLUMNS and LINES
        environ.setdefault("COLUMNS", str(size[0]))
        environ.setdefault("LINES", str(size[1]))
    os.environ.clear()
    os.environ.update(environ)
    try:
        os.chdir(request["cwd"])
        sys.argv = [request["argv0"], *request["args"]]
        if sys.path:  # the client's script directory, as a process of its own would have
            sys.path[0] = request.get("path0") or sys.path[0]
        importlib.invalidate_caches()
        stdin = request.get("stdin")
        sys.stdin = (
            None
            if stdin is None
            else io.TextIOWrapper(
                io.BufferedReader(_Source(channel, bool(stdin["tty"]), arrived)),
                encoding=str(stdin["encoding"]),
                errors=str(stdin["errors"]),
            )
        )
        sys.stdout = _text_out(channel, place.STDOUT, request.get("stdout"))
        sys.stderr = _text_out(channel, place.STDERR, request.get("stderr"))
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        sys.argv = saved_argv
        sys.path[:] = saved_path
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        inside = _installation()
        for name in set(sys.modules) - modules:
            where = getattr(sys.modules.get(name), "__file__", None)
            if where and not os.path.realpath(where).startswith(inside):
                del sys.modules[name]


def _warm_up() -> None:
    """Starts the JVM and runs what the commands run, so the first command finds it warm."""
    import pyarrow.parquet  # noqa: F401  (what --format parquet writes with)

    from .. import connect

    env = connect()
    try:
        env.execute("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'memory')")
        env.execute("CREATE TABLE u (a INT, c DOUBLE) WITH ('connector' = 'memory')")
        join = "SELECT t.b, SUM(u.c) FROM t JOIN u ON t.a = u.a WHERE u.c > 1 GROUP BY t.b"
        for _ in range(3):
            env.validate(join)
            env.explain(join)
            env.sql("SELECT 1 AS x").fetchall()
    finally:
        env.close()


def _idle_seconds() -> float:
    value = os.environ.get(place.IDLE_VAR, "").strip()
    try:
        return float(value) if value else float(place.DEFAULT_IDLE_SECONDS)
    except ValueError:
        return float(place.DEFAULT_IDLE_SECONDS)


def _log(message: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {message}", flush=True)


def serve(run: Runner) -> None:
    """Serves the commands of this process's place with ``run`` (args, program name -> exit
    code) until stopped or idle; returns at once when another daemon runs for the place."""
    folder = place.directory(os.environ)
    problem = place.make_directory(folder)
    if problem is not None:
        raise click.ClickException(f"no daemon: {problem}")
    daemon = Daemon(run, _idle_seconds())
    if not daemon.claim():
        _log("a daemon already runs for this place")
        return
    # The files of daemons that ended long ago (place.sweep).
    place.sweep(folder, keep=daemon.key)
    # A client's Ctrl-C arrives as SIGINT during its command; between commands SIGINT does
    # nothing. SIGTERM ends the daemon after the command at hand, as --stop does.
    _sigint(_ignore)

    def on_term(signum: int, frame: FrameType | None) -> None:
        daemon.stopping = True
        daemon.work.put(None)

    signal.signal(signal.SIGTERM, on_term)
    reason = "failed"
    try:
        _log(f"starting for {daemon.cwd} (place {daemon.key})")
        _warm_up()
        daemon.listen()
        _log("ready")
        reason = daemon.loop()
    finally:
        daemon.close()
        _log(f"ends: {reason}; {daemon.served} commands served")


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def report(stop: bool) -> int:
    """``daemon --status`` (or ``--stop``) for this place: prints what runs; the exit code."""
    answer = place.ask(place.STOP if stop else place.STATUS, os.environ, os.getcwd())
    if answer is None:
        click.echo("No calcite-bridge daemon runs for this place.")
        return 0 if stop else 1
    pid = int(str(answer["pid"]))
    if stop:
        for _ in range(300):  # it finishes the command at hand, then shuts down
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        click.echo(f"Stopped the calcite-bridge daemon (pid {pid}).")
        return 0
    click.echo(
        f"A calcite-bridge daemon runs for this place: pid {pid}, up "
        f"{_duration(float(str(answer['uptime'])))}, {answer['served']} commands served"
        f"{' (busy)' if answer['busy'] else ''}; socket {answer['socket']}."
    )
    return 0
