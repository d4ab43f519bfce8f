"""Reading the Arrow C streams the JVM exports, so that a result outlives the JVM quietly.

A result's buffers stay in the JVM's memory (no copy), and Arrow Java frees each batch when its
release callback runs, which must attach the calling thread to the JVM. A script that still holds
a result when it ends frees it while the interpreter shuts down, after JPype has stopped the JVM:
the attach fails, and Arrow printed "WARNING: Failed to release Java C Data resource" once per
batch.

So the stream is read here rather than by ``pyarrow.RecordBatchReader._import_from_c``: each batch
is taken from the stream's ``get_next`` into a struct whose release callback is ours. It calls
Arrow Java's while the JVM runs, and once :func:`stop` has been called (just before the JVM stops)
it only marks the batch released: the process is ending, and its memory goes with it.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa


class _Array(ctypes.Structure):
    _fields_ = [
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", ctypes.c_void_p),
        ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


class _Stream(ctypes.Structure):
    _fields_ = [
        ("get_schema", ctypes.c_void_p),
        ("get_next", ctypes.c_void_p),
        ("get_last_error", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


_SCHEMA_SIZE = 72  # sizeof(struct ArrowSchema)
_GET = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
_LAST_ERROR = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)
_RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

_pid = os.getpid()
_lock = threading.Lock()
_next_key = 0
# Whether the JVM still runs (False once it is about to stop); the callback holds this dict
# itself, so it still reads it while the interpreter shuts down and module globals are cleared.
_state = {"live": True}
# What each batch handed out had in its release and private_data fields, by our private_data.
_originals: dict[int, tuple[int, int | None]] = {}
_RELEASE_FIELD = _Array.release.offset


def stop() -> None:
    """From now on, batches freed only count as released: the JVM is about to stop."""
    _state["live"] = False


def _jvm_usable() -> bool:
    return _state["live"] and os.getpid() == _pid


def _make_release() -> Callable[[int], None]:
    """The release callback of every batch handed out. What it uses is held in its closure: a
    batch may be freed while the interpreter shuts down, after this module's globals were
    cleared. Whatever happens, the struct ends up marked released, as the C Data Interface
    requires (Arrow C++ aborts the process otherwise)."""
    array_at, pointer_at, field = _Array, ctypes.c_void_p, _RELEASE_FIELD
    state, originals, lock, pid, getpid, forward = (
        _state,
        _originals,
        _lock,
        _pid,
        os.getpid,
        _RELEASE,
    )

    def release(address: int) -> None:
        try:
            array = array_at.from_address(address)
            key = array.private_data or 0
            with lock:
                original = originals.pop(key, None)
            if original is not None:
                callback, private_data = original
                array.private_data = private_data
                if state["live"] and getpid() == pid:
                    forward(callback)(address)
        finally:
            pointer_at.from_address(address + field).value = None

    return release


_release = _make_release()
# The code of the release callback: a KeyboardInterrupt must never be raised in it (_interrupt).
RELEASE_CODE = _release.__code__


# The callback lives as long as the process: a batch may be freed during the interpreter's
# shutdown, after this module's globals were cleared.
_RELEASE_CALLBACK = _RELEASE(_release)
ctypes.pythonapi.Py_IncRef(ctypes.py_object(_RELEASE_CALLBACK))
_RELEASE_ADDRESS = ctypes.cast(_RELEASE_CALLBACK, ctypes.c_void_p).value


def _owned(array: _Array) -> None:
    """Makes ``array``'s release callback ours, keeping the JVM's to forward to."""
    global _next_key
    with _lock:
        _next_key += 1
        key = _next_key
        _originals[key] = (int(array.release or 0), array.private_data)
    array.private_data = key
    array.release = _RELEASE_ADDRESS


def import_stream(address: int) -> tuple[pa.Schema, Iterator[pa.RecordBatch]]:
    """Takes over the ArrowArrayStream at ``address`` (its struct can be freed afterwards): the
    schema, and the batches, each released through :func:`_release`. A failed read raises
    ``OSError`` with the stream's last error, as pyarrow's reader does."""
    import pyarrow as pa

    stream = _Stream()
    ctypes.memmove(ctypes.addressof(stream), address, ctypes.sizeof(_Stream))
    _Stream.from_address(address).release = None  # moved: the struct left behind is empty
    try:
        schema_struct = ctypes.create_string_buffer(_SCHEMA_SIZE)
        _check(stream, _GET(stream.get_schema)(ctypes.addressof(stream), schema_struct))
        schema = pa.Schema._import_from_c(ctypes.addressof(schema_struct))
    except BaseException:
        _release_stream(stream)
        raise
    return schema, _batches(stream, schema)


def _batches(stream: _Stream, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    import pyarrow as pa

    get_next = _GET(stream.get_next)
    try:
        while True:
            array = _Array()
            _check(stream, get_next(ctypes.addressof(stream), ctypes.addressof(array)))
            if not array.release:  # the end of the stream
                return
            _owned(array)
            yield pa.RecordBatch._import_from_c(ctypes.addressof(array), schema)
    finally:
        _release_stream(stream)


def _check(stream: _Stream, code: int) -> None:
    if code != 0:
        message = _LAST_ERROR(stream.get_last_error)(ctypes.addressof(stream))
        text = message.decode("utf-8", "replace") if message else os.strerror(code)
        raise OSError(code, text)


def _release_stream(stream: _Stream) -> None:
    if stream.release:
        if _jvm_usable():
            _RELEASE(stream.release)(ctypes.addressof(stream))
        stream.release = None


def reader(address: int) -> pa.RecordBatchReader:
    """A ``pyarrow.RecordBatchReader`` over the stream at ``address`` (:func:`import_stream`)."""
    import pyarrow as pa

    schema, batches = import_stream(address)
    return pa.RecordBatchReader.from_batches(schema, batches)
