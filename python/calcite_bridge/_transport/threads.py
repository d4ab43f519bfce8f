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
import time
from collections.abc import Callable
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


def _hold() -> None:
    if getattr(_held, "state", None) is None:
        _held.state = _ensure()
        _held.name = _java_name()
        if _held.name:
            _workers[_held.name] = threading.get_ident()


def _give_back() -> None:
    state = getattr(_held, "state", None)
    if state is not None:
        _workers.pop(getattr(_held, "name", ""), None)
        _held.state = None
        _release(state)


def _java_name() -> str:
    try:
        import jpype

        # JClass, not jpype.java.lang: a JPackage lists every package of the JDK's image first.
        return str(jpype.JClass("java.lang.Thread").currentThread().getName())
    except Exception:  # no name: the worker cannot be interrupted from Python, only cancelled
        return ""


def interrupt_worker(name: str, finished: Callable[[], bool]) -> None:
    """Raises KeyboardInterrupt in the Python code (a source) that worker ``name`` runs now, so
    that a cancelled statement stops there too. Python raises it at the worker's next bytecode;
    if the worker left Python before that, the exception is taken back once ``finished()``
    says the statement ended there, so that no later call of the worker gets it."""
    ident = _workers.get(name)
    if ident is None or ident not in sys._current_frames():
        return  # not in Python code now: the Java side stops at its next check
    if _set_async_exc(ident, KeyboardInterrupt) != 1:
        return

    def take_back() -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                if finished():
                    break
            except Exception:
                break
            time.sleep(0.05)
        _set_async_exc(ident, None)

    threading.Thread(target=take_back, name="calcite-bridge-interrupt-worker", daemon=True).start()


def thread_hooks() -> Any:
    """A Java ``Workers.ThreadHooks`` that holds a thread state for each worker's lifetime."""
    from jpype import JImplements, JOverride

    @JImplements("io.calcitebridge.facade.Workers$ThreadHooks")
    class _Hooks:
        @JOverride
        def started(self) -> None:
            _hold()

        @JOverride
        def ending(self) -> None:
            _give_back()

    return _Hooks()
