"""Ctrl-C while the main thread waits in a native call: the JVM reading rows, or DuckDB.

Python handles SIGINT between two bytecodes only, and reading a batch of Calcite's engine runs
the query inside one native call, which may take minutes; so does a DuckDB query. While the main
thread waits, :func:`cancelling` points Python's signal wakeup file descriptor
(:func:`signal.set_wakeup_fd`) at a socket that a watcher thread reads: on SIGINT the watcher
cancels the work (the statement in the JVM, whose scans stop at their next row; DuckDB's
``interrupt()``), the call returns, and the caller raises KeyboardInterrupt.

When the process already has a wakeup descriptor (an asyncio event loop sets one), it is left
alone, and the statement can be stopped only between two batches, or where the JVM runs Python
code on the main thread (a source's scan), which the KeyboardInterrupt then fails.

While the main thread waits, a Ctrl-C is not raised inside the release callback of a batch
(:func:`outside_releases`): the garbage collector may free a batch as the native call returns,
and a KeyboardInterrupt raised there left the batch unreleased, which made Arrow C++ abort the
process.
"""

from __future__ import annotations

import _signal
import atexit
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from . import _cdata

_lock = threading.Lock()
_watched: dict[str, object] = {}  # "pid", "reader", "writer", "thread": this process's watcher


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
            watcher = threading.Thread(
                target=_watch, args=(reader,), name="calcite-bridge-interrupt", daemon=True
            )
            _watched.update(pid=os.getpid(), reader=reader, writer=writer, thread=watcher)
            watcher.start()
            atexit.register(_close, os.getpid())
        writer_socket = _watched["writer"]
        assert isinstance(writer_socket, socket.socket)
        return writer_socket


def _close(pid: int) -> None:
    """Ends the watcher and closes its sockets when the process exits, so it exits quietly."""
    with _lock:
        if _watched.get("pid") != pid:  # a child's copy of the parent's: not this process's
            return
        writer, reader, watcher = _watched["writer"], _watched["reader"], _watched["thread"]
        _watched.clear()
    assert isinstance(writer, socket.socket) and isinstance(reader, socket.socket)
    writer.close()  # the watcher reads the end of its socket and returns
    if isinstance(watcher, threading.Thread):
        watcher.join(1.0)
    reader.close()


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


class CtrlC:
    """What :func:`outside_releases` saw: ``hit`` once a Ctrl-C was held back, ``raised`` once
    one was raised (perhaps inside Python code the JVM called on this thread, a source's scan,
    where the JVM turns it into a failure of the statement). ``installed`` when its handler is
    SIGINT's (the main thread, whose handler was Python's default); while ``holding``, every
    Ctrl-C is held back, for :meth:`raise_if_hit` to raise."""

    def __init__(self, installed: bool = False) -> None:
        self.hit = False
        self.raised = False
        self.installed = installed
        self.holding = False

    def raise_if_hit(self) -> None:
        """Raises the KeyboardInterrupt held back, if there is one."""
        if self.hit:
            self.hit = False
            raise KeyboardInterrupt

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """Python's default SIGINT handler, except inside a batch's release callback: there the
        interrupt is held back, without a call (a call would let Python handle the next one)."""
        if self.holding or (frame is not None and frame.f_code is _cdata.RELEASE_CODE):
            self.hit = True
            return
        self.raised = True
        raise KeyboardInterrupt


# The signal module's own functions: those of ``signal`` convert numbers and handlers to and
# from enums at every call, several times the cost of the call itself on every statement.
_getsignal = _signal.getsignal
_setsignal = _signal.signal
_SIGINT = int(signal.SIGINT)


@contextmanager
def outside_releases() -> Iterator[CtrlC]:
    """Runs the body with Ctrl-C raised as usual, except inside the release callback of a batch,
    where it is held back: the body then ends with KeyboardInterrupt, or raises it earlier with
    :meth:`CtrlC.raise_if_hit`. On the main thread only, and only while SIGINT has Python's
    default handler; a handler of the program's own is left alone."""
    current = _getsignal(_SIGINT)
    outer = getattr(current, "__self__", None)
    if isinstance(outer, CtrlC):  # inside another body (a read between two of its batches)
        yield outer
        return
    if current is not signal.default_int_handler or threading.main_thread() is not (
        threading.current_thread()
    ):
        yield CtrlC()
        return
    ctrl_c = CtrlC(installed=True)
    handle = ctrl_c.handle
    _setsignal(_SIGINT, handle)
    try:
        yield ctrl_c
        _checkpoint()  # a signal still pending is handled here, not in a release afterwards
    finally:
        # The body may be a generator's, with the program's code between two of its steps: a
        # handler that code set is its own, and stays.
        if _getsignal(_SIGINT) == handle:
            _setsignal(_SIGINT, signal.default_int_handler)
    ctrl_c.raise_if_hit()


def _checkpoint() -> None:
    """Does nothing: calling it lets Python handle a pending signal."""


@contextmanager
def cancelling(cancel: Callable[[], None]) -> Iterator[Reading]:
    """Runs the body with Ctrl-C calling ``cancel`` at once, on the main thread only. A source
    of this process read inside the body may see the KeyboardInterrupt first and fail: when
    the read says ``interrupted``, raise KeyboardInterrupt whatever the body raised. It is never
    raised inside a batch's release callback (:func:`outside_releases`)."""
    with outside_releases(), cancelling_within(cancel) as reading:
        yield reading


@contextmanager
def cancelling_within(cancel: Callable[[], None]) -> Iterator[Reading]:
    """:func:`cancelling` inside a body that :func:`outside_releases` already runs: a read of
    many batches installs the SIGINT handler once (about 30 microseconds), not once a batch."""
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
