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
import threading
from typing import Any

_ensure = ctypes.pythonapi.PyGILState_Ensure
_ensure.restype = ctypes.c_int
_ensure.argtypes = []
_release = ctypes.pythonapi.PyGILState_Release
_release.restype = None
_release.argtypes = [ctypes.c_int]

_held = threading.local()


def _hold() -> None:
    if getattr(_held, "state", None) is None:
        _held.state = _ensure()


def _give_back() -> None:
    state = getattr(_held, "state", None)
    if state is not None:
        _held.state = None
        _release(state)


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
