"""Ctrl-C while the main thread waits in a native call: the JVM reading rows, or DuckDB.

Python handles SIGINT between two bytecodes only, and reading a batch of Calcite's engine runs
the query inside one native call, which may take minutes; so does a DuckDB query. While the main
thread waits, :func:`cancelling` points Python's signal wakeup file descriptor
(:func:`signal.set_wakeup_fd`) at a socket that a watcher thread reads: on SIGINT the watcher
cancels the work (the statement in the JVM, whose scans stop at their next row; DuckDB's
``interrupt()``), the call returns, and the caller raises KeyboardInterrupt.

When the process already has a wakeup descriptor (an asyncio event loop sets one), it is left
alone, and the statement can be stopped only between two batches.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_watched: dict[str, object] = {}  # "pid", "reader", "writer": the watcher of this process


class Reading:
    """A read under :func:`cancelling`; ``interrupted`` once Ctrl-C cancelled it."""

    def __init__(self, cancel: Callable[[], None]) -> None:
        self.cancel = cancel
        self.interrupted = False


_current: list[Reading] = []  # the read of the main thread


def _watcher() -> socket.socket | None:
    with _lock:
        if _watched.get("pid") != os.getpid():
            try:
                reader, writer = socket.socketpair()
            except OSError:
                return None
            writer.setblocking(False)
            _watched.update(pid=os.getpid(), reader=reader, writer=writer)
            threading.Thread(
                target=_watch, args=(reader,), name="calcite-bridge-interrupt", daemon=True
            ).start()
        writer_socket = _watched["writer"]
        assert isinstance(writer_socket, socket.socket)
        return writer_socket


def _watch(reader: socket.socket) -> None:
    while True:
        try:
            data = reader.recv(64)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data and _current:
            reading = _current[-1]
            reading.interrupted = True
            try:
                reading.cancel()
            except Exception:
                pass


@contextmanager
def cancelling(cancel: Callable[[], None]) -> Iterator[Reading]:
    """Runs the body with Ctrl-C calling ``cancel`` at once, on the main thread only. A source
    of this process read inside the body may see the KeyboardInterrupt first and fail: when
    the read says ``interrupted``, raise KeyboardInterrupt whatever the body raised."""
    reading = Reading(cancel)
    if threading.current_thread() is not threading.main_thread():
        yield reading
        return
    writer = _watcher()
    if writer is None:
        yield reading
        return
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):
        yield reading
        return
    if previous not in (-1, writer.fileno()):  # someone else's: give it back
        signal.set_wakeup_fd(previous)
        yield reading
        return
    _current.append(reading)
    try:
        yield reading
    finally:
        _current.pop()
        signal.set_wakeup_fd(previous)
