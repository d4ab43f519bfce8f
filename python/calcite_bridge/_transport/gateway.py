"""The py4j transport: an Environment in a JVM that runs in another process (a service, or a
Java application beside a notebook), reached through a gateway (``calcite-bridge gateway``, or
``BridgeGateway.start`` in Java).

The gateway hands each client process a channel of its own, a py4j server whose callbacks reach
this process's callback server, where Python sources and DDL-declared ``filesystem``/``python``
tables run. Statements are polled in short slices, as in process, so Ctrl-C cancels them; rows
cross as Arrow IPC stream bytes, in chunks of whole batches.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import io
import json
import logging
import os
import signal
import socket
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pyarrow as pa

from .. import _version
from .._params import Values
from ..errors import Error, GatewayError, from_java_failure
from ..sources.sandbox import SandboxGetter
from .announce import token_hint
from .net import callback_host, is_loopback, parse_address

_POLL_MILLIS = 200
CHUNK_BYTES = 8 << 20
TOKEN_VARIABLE = "CALCITE_BRIDGE_TOKEN"

_lock = threading.Lock()
_clients: dict[tuple[str, int, str], _Client] = {}


@contextlib.contextmanager
def _quiet_py4j() -> Iterator[None]:
    """py4j logs a failed connection with a traceback; we raise a clear error instead."""
    logger = logging.getLogger("py4j")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _own_errors() -> None:
    """Keeps py4j's own reading of answers for this project's gateways. pyspark replaces
    ``py4j.java_gateway.get_return_value`` process-wide once a Spark session starts
    (``install_exception_handler``) with one that inspects every Java failure through Spark's
    gateway: a failure from a calcite-bridge gateway then had its object id read in Spark's JVM,
    and surfaced as a lost connection. Answers of other gateways still go to whatever is
    installed."""
    from py4j import java_gateway, protocol

    current = java_gateway.get_return_value
    if getattr(current, "calcite_bridge", False):
        return

    def dispatch(answer: Any, client: Any, target_id: Any = None, name: Any = None) -> Any:
        if getattr(client, "calcite_bridge", False):
            return protocol.get_return_value(answer, client, target_id, name)
        return current(answer, client, target_id, name)

    dispatch.calcite_bridge = True  # type: ignore[attr-defined]
    java_gateway.get_return_value = dispatch


@contextlib.contextmanager
def _deferred_interrupt() -> Iterator[None]:
    """Holds Ctrl-C back until the py4j call inside has its answer, then raises it.

    A KeyboardInterrupt in the middle of a py4j call would leave the connection half read (and
    py4j 0.10.9.9's own clean-up for that case fails), so the signal waits for the answer, at
    most one poll slice.
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    hit: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: hit.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if hit:
            raise KeyboardInterrupt


class _Client:
    """This process's channel on one gateway; every Environment on that gateway shares it."""

    def __init__(
        self, host: str, port: int, token: str, timeout: float, from_variable: bool = False
    ) -> None:
        from py4j.java_gateway import GatewayParameters, JavaGateway
        from py4j.protocol import Py4JAuthenticationError, Py4JError

        self._from = f" from ${TOKEN_VARIABLE}" if from_variable else " given as token="
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as e:
            raise GatewayError(
                f"No gateway answers at {self.address} ({e.strerror or e}). Start one with "
                "`calcite-bridge gateway`, or BridgeGateway.start(...) in the JVM."
            ) from None

        def params(at: int) -> Any:
            return GatewayParameters(
                address=host,
                port=at,
                auth_token=token,
                auto_field=False,
                auto_convert=False,
                eager_load=True,
                read_timeout=timeout,
            )

        try:
            with _quiet_py4j():
                lobby = JavaGateway(gateway_parameters=params(port))
            try:
                version = str(lobby.entry_point.version())
                same = version == _version.__version__
                channel = int(lobby.entry_point.openChannel()) if same else 0
            finally:
                lobby.close()
        except Py4JAuthenticationError:
            hint = token_hint(port) if is_loopback(host) else None
            raise GatewayError(
                f"The gateway at {self.address} refused the token{self._from}. "
                + (
                    hint
                    or "Pass the token the gateway was started with: the one it printed if it "
                    "made one, the one its --token gave, or the one in its --token-file "
                    "(BridgeGateway.start's token, for a gateway started in Java)."
                )
            ) from None
        except Py4JError as e:
            raise GatewayError(
                f"{self.address} did not answer as a calcite-bridge gateway: {e}"
            ) from None
        if not same:
            raise GatewayError(
                f"The gateway at {self.address} runs calcite-bridge {version} but this Python "
                f"package is {_version.__version__}; use the same version on both sides."
            )
        self.gateway = self._open_channel(host, port, channel, token, params(channel))
        self.entry = self.gateway.entry_point

    def _open_channel(self, host: str, port: int, channel: int, token: str, params: Any) -> Any:
        from py4j.java_gateway import CallbackServerParameters, JavaGateway
        from py4j.protocol import Py4JError

        here = callback_host(host, port)
        try:
            with _quiet_py4j():
                gateway = JavaGateway(
                    gateway_parameters=params,
                    callback_server_parameters=CallbackServerParameters(
                        address=here,
                        port=0,
                        auth_token=token,
                        daemonize=True,
                        daemonize_connections=True,
                    ),
                )
            listening = gateway.get_callback_server().get_listening_port()
            gateway.entry_point.listen(here, listening)
        except Py4JError as e:
            raise GatewayError(f"Could not open a channel on {self.address}: {e}") from None
        gateway._gateway_client.calcite_bridge = True  # see _own_errors
        # From now on a call may take long: a source's schema() runs inside registerSource.
        params.read_timeout = None
        for connection in list(gateway._gateway_client.deque):
            connection.socket.settimeout(None)
        return gateway

    def call(self, fn: Any, *args: Any, sql: str | None = None) -> Any:
        """Calls a Java method through the channel, translating failures into our hierarchy."""
        from py4j.protocol import Py4JError, Py4JJavaError, Py4JNetworkError

        _own_errors()
        try:
            with _deferred_interrupt():
                return fn(*args)
        except Py4JJavaError as e:
            raise self.translate(e, sql) from None
        except Py4JError as e:
            if isinstance(e, Py4JNetworkError):
                self.disconnect()
            lost = f"Lost the connection to the gateway at {self.address}: {e}"
            raise GatewayError(lost) from None

    def translate(self, e: Any, sql: str | None) -> Error:
        java = e.java_exception
        try:
            name = str(java.getClass().getName())
            return from_java_failure(java, name, sql)
        except Exception:
            return Error(f"Unexpected failure in the JVM: {e}")

    def disconnect(self) -> None:
        """Stops using the channel: no more calls, not even py4j's freeing of Java objects."""
        with _lock:
            for key, client in list(_clients.items()):
                if client is self:
                    del _clients[key]
        self.gateway._gateway_client.is_connected = False
        with contextlib.suppress(Exception):
            self.gateway._gateway_client.close()
        with contextlib.suppress(Exception):
            self.gateway.shutdown_callback_server()

    def close(self) -> None:
        """Closes the channel in the JVM (dropping its tables), then this end of it."""
        with contextlib.suppress(Exception):
            self.entry.close()
        self.disconnect()


def _close_all() -> None:
    """Closes this process's channels as it exits (their tables are dropped at once)."""
    with _lock:
        clients = list(_clients.values())
        _clients.clear()
    # py4j logs a gateway that is already gone through the root logger; at exit, say nothing.
    logging.disable(logging.CRITICAL)
    try:
        for client in clients:
            client.close()
    finally:
        logging.disable(logging.NOTSET)


atexit.register(_close_all)


def _client(gateway: str, token: str | None, allow_remote: bool, timeout: float) -> _Client:
    host, port = parse_address(gateway)
    if not allow_remote and not is_loopback(host):
        raise GatewayError(
            f"{host} is not a loopback address; connecting to a gateway on another machine "
            "needs allow_remote=True (and a gateway started with --allow-remote)."
        )
    secret = token if token is not None else os.environ.get(TOKEN_VARIABLE)
    if not secret:
        raise GatewayError(
            f"A gateway needs its token: pass token=... or set ${TOKEN_VARIABLE} "
            "(`calcite-bridge gateway` prints the one it made)."
        )
    key = (host, port, secret)
    with _lock:
        client = _clients.get(key)
        if client is None:
            client = _Client(host, port, secret, timeout, from_variable=token is None)
            _clients[key] = client
        return client


def open_session(
    gateway: str, token: str | None, *, allow_remote: bool = False, timeout: float = 10.0
) -> Py4JSession:
    """A new session in the JVM of the gateway at ``gateway`` (``'HOST:PORT'``)."""
    client = _client(gateway, token, allow_remote, timeout)
    return Py4JSession(client, client.call(client.entry.newSession))


class _Chunks(io.RawIOBase):
    """The rest of a result's IPC stream, fetched a chunk at a time as the reader asks."""

    def __init__(
        self, first: memoryview, fetch: Callable[[], bytes], release: Callable[[], None]
    ) -> None:
        super().__init__()
        self._buffer = first
        self._at = 0
        self._fetch = fetch
        self._done = False
        self._release = weakref.finalize(self, release)
        self._release.atexit = False

    def readable(self) -> bool:
        return True

    def readinto(self, into: Any) -> int:
        while self._at >= len(self._buffer):
            if self._done:
                return 0
            chunk = self._fetch()
            if not chunk:
                self._done = True
                self._release.detach()
                return 0
            self._buffer, self._at = memoryview(chunk), 0
        n = min(len(into), len(self._buffer) - self._at)
        into[:n] = self._buffer[self._at : self._at + n]
        self._at += n
        return n


class Py4JSession:
    """A ``RemoteSession`` in the gateway's JVM."""

    def __init__(self, client: _Client, java: Any) -> None:
        self._client = client
        self._java = java
        self._proxies: dict[str, Any] = {}  # py4j's pool holds them too, while Java uses them
        self._factory: Any = None

    def _call(self, method: str, *args: Any, sql: str | None = None) -> Any:
        return self._client.call(getattr(self._java, method), *args, sql=sql)

    def _answer(self, statement: int, sql: str | None) -> bytes:
        """The next part of a statement's answer, polled so that Ctrl-C cancels it."""
        fetch = self._java.fetch
        try:
            while True:
                answer = self._client.call(fetch, statement, _POLL_MILLIS, CHUNK_BYTES, sql=sql)
                if answer is not None:
                    return base64.b64decode(answer)
        except KeyboardInterrupt:
            self._cancel(statement)
            raise

    def _cancel(self, statement: int) -> None:
        with contextlib.suppress(Exception):
            self._java.cancel(statement)

    def _start(self, method: str, *args: Any, sql: str) -> tuple[str, memoryview, int]:
        statement = self._call(method, *args, sql=sql)
        first = self._answer(statement, sql)
        end = first.index(b"\n")
        return first[:end].decode(), memoryview(first)[end + 1 :], statement

    def run(
        self,
        sql: str,
        query_only: bool,
        backend: str | None = None,
        timeout: str | None = None,
        params: Values | None = None,
    ) -> tuple[pa.RecordBatchReader, str]:
        args: tuple[Any, ...]
        if params is not None:
            wire = params.json
            args = (sql, backend, timeout, wire) if query_only else (sql, timeout, wire)
            header, body, statement = self._start(
                "queryWithParameters" if query_only else "executeWithParameters", *args, sql=sql
            )
        elif timeout is not None:
            args = (sql, backend, timeout) if query_only else (sql, timeout)
            header, body, statement = self._start(
                "query" if query_only else "execute", *args, sql=sql
            )
        elif query_only and backend is not None:
            header, body, statement = self._start("query", sql, backend, sql=sql)
        else:
            header, body, statement = self._start(
                "query" if query_only else "execute", sql, sql=sql
            )
        kind, _, more = header.partition(";")
        if more != "more":
            return pa.ipc.open_stream(pa.py_buffer(body)), kind

        chunks = _Chunks(
            body, lambda: self._answer(statement, sql), lambda: self._cancel(statement)
        )
        return pa.ipc.open_stream(chunks), kind

    def validate(self, sql: str) -> pa.Schema:
        _, body, _ = self._start("validate", sql, sql=sql)
        return pa.ipc.open_stream(pa.py_buffer(body)).schema

    def explain(
        self, sql: str, format: str, backend: str | None = None, params: Values | None = None
    ) -> str:
        if params is not None:
            started = self._call(
                "explainWithParameters", sql, format, backend, params.json, sql=sql
            )
            return self._answer(started, sql).decode()
        args = (sql, format) if backend is None else (sql, format, backend)
        return self._answer(self._call("explain", *args, sql=sql), sql).decode()

    def parameter_types(self, sql: str) -> str:
        return self._answer(self._call("parameterTypes", sql, sql=sql), sql).decode()

    def execute_script(self, sql: str) -> int:
        return int(self._answer(self._call("executeScript", sql, sql=sql), sql).decode())

    def check_script(self, sql: str, plans: bool) -> str:
        return self._answer(self._call("checkScript", sql, plans, sql=sql), sql).decode()

    def set_config(self, key: str, value: str) -> None:
        self._call("setConfig", key, value)

    def get_config(self, key: str) -> str:
        return str(self._call("getConfig", key))

    def reset_config(self, key: str | None) -> None:
        self._call("resetConfig", key)

    def config_entries(self) -> list[str]:
        return [str(e) for e in json.loads(self._call("configEntries"))]

    def table_names(self) -> list[str]:
        return [str(n) for n in json.loads(self._call("tableNames"))]

    def register_source(self, name: str, source: Any, replace: bool) -> None:
        from ..sources._remote import RemoteSourceProxy

        proxy = RemoteSourceProxy(name, source)
        self._call("registerSource", name, proxy, replace)
        self._proxies[name] = proxy

    def set_connector_factory(self, sandbox: SandboxGetter) -> None:
        from ..sources._remote import RemoteConnectorFactory

        self._factory = RemoteConnectorFactory(sandbox)
        self._call("setConnectorFactory", self._factory)

    def close(self) -> None:
        self._call("close")
