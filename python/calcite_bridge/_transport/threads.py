"""Python thread states for the JVM's worker threads.

A worker thread that calls a Python source (``apply_filters`` at plan time, ``scan`` when a
statement runs) has no Python thread state of its own, so each call makes one and throws it away.
JPype keeps a small per-thread-state type in that state's dictionary, and those types are never
freed: every source call leaked about a kilobyte. Instead each worker thread takes one thread
state as it starts (an extra ``PyGILState_Ensure`` that outlives the call) and gives it back as it
ends, so its calls share one state.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from typing import Any

_ensure = ctypes.pythonapi.PyGILState_Ensure
_ensure.restype = ctypes.c_int
_ensure.argtypes = []
_release = ctypes.pythonapi.PyGILState_Release
_release.restype = None
_release.argtypes = [ctypes.c_int]

_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.restype = ctypes.c_int
_set_async_exc.argtypes = [ctypes.c_ulong, ctypes.py_object]

_held = threading.local()
_workers: dict[str, int] = {}  # the Java name of a worker thread -> its Python thread id


def _hold(name: str) -> None:
    if getattr(_held, "state", None) is None:
        _held.state = _ensure()
        _held.name = name
        if name:
            _workers[name] = threading.get_ident()


def _give_back() -> None:
    state = getattr(_held, "state", None)
    if state is not None:
        _workers.pop(getattr(_held, "name", ""), None)
        _forget_dummy()
        _held.state = None
        _release(state)


def _forget_dummy() -> None:
    """Takes the ending worker out of :func:`threading.enumerate`: Python code that asked for the
    current thread there (``threading.current_thread()``) made a dummy thread for it, which
    Python never removes, so every worker that ever ran a source stayed listed."""
    ident = threading.get_ident()
    active = getattr(threading, "_active", None)
    lock = getattr(threading, "_active_limbo_lock", None)
    if active is None or lock is None:
        return
    with lock:
        if isinstance(active.get(ident), threading._DummyThread):
            del active[ident]


def interrupt_worker(name: str) -> None:
    """Raises KeyboardInterrupt in the Python code (a source) that worker ``name`` runs now, so
    that a stopped statement stops there too. Python raises it at the worker's next bytecode. The
    caller has made sure the statement still runs there (``Pending.beginHostInterrupt``); if the
    worker leaves Python before the exception is raised, it takes it back itself (``settle``)
    before it runs anything else, so that no later call of the worker gets it."""
    ident = _workers.get(name)
    if ident is None or ident not in sys._current_frames():
        return  # not in Python code now: the Java side stops at its next check
    _set_async_exc(ident, KeyboardInterrupt)


def _settle() -> None:
    # A KeyboardInterrupt still pending on this thread is raised as this runs (Java ignores it);
    # otherwise there is none, or nothing is left to take back.
    _set_async_exc(threading.get_ident(), None)


def thread_hooks() -> Any:
    """A Java ``Workers.ThreadHooks`` that holds a thread state for each worker's lifetime."""
    from jpype import JImplements, JOverride

    @JImplements("io.calcitebridge.facade.Workers$ThreadHooks")
    class _Hooks:
        @JOverride
        def started(self, thread_name: Any) -> None:
            _hold(str(thread_name))

        @JOverride
        def ending(self) -> None:
            _give_back()

        @JOverride
        def settle(self) -> None:
            _settle()

    return _Hooks()
