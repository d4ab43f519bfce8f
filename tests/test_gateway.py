"""The py4j transport: reaching a gateway, its guards, and what crosses it.

The rest of the API suite runs on this transport too (the ``py4j`` cases of the ``env``
fixture); these tests cover what only a gateway has.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb
from calcite_bridge._transport import gateway as _gateway
from calcite_bridge._transport import jvm as _jvm
from conftest import GATEWAY_TOKEN, ROOT
from test_startup import LONG_QUERY

TIMEOUT = 300  # only a guard against a hang
# A refused connection answers at once: far below the 60 s it is given to reach the gateway,
# with room for a machine whose cores are both busy.
QUICK = 10.0
REACH = 60.0


@pytest.fixture
def gw(gateway_address: str) -> Iterator[cb.Environment]:
    env = cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN)
    yield env
    env.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_wrong_token_is_refused_quickly(gateway_address: str) -> None:
    start = time.monotonic()
    with pytest.raises(cb.GatewayError, match="refused the token"):
        cb.connect(gateway=gateway_address, token="not-the-token", timeout=REACH)
    assert time.monotonic() - start < QUICK


def test_an_unreachable_port_fails_quickly() -> None:
    start = time.monotonic()
    with pytest.raises(cb.GatewayError, match=r"No gateway answers at 127\.0\.0\.1:") as info:
        cb.connect(gateway=f"127.0.0.1:{_free_port()}", token="t", timeout=REACH)
    assert "calcite-bridge gateway" in str(info.value)
    assert time.monotonic() - start < QUICK


def test_a_port_that_never_answers_times_out() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        start = time.monotonic()
        with pytest.raises(cb.GatewayError, match="did not answer as a calcite-bridge gateway"):
            cb.connect(gateway=f"127.0.0.1:{port}", token="t", timeout=1.0)
        assert time.monotonic() - start < QUICK


def test_a_non_loopback_address_is_refused_before_any_connection() -> None:
    # 192.0.2.0/24 is reserved for documentation: nothing is sent there, the check comes first.
    with pytest.raises(cb.GatewayError, match=r"not a loopback address.*allow_remote"):
        cb.connect(gateway="192.0.2.1:25333", token="t")


@pytest.mark.parametrize("address", ["nonsense", "127.0.0.1", "127.0.0.1:0", "host:99999"])
def test_a_malformed_address_is_refused(address: str) -> None:
    with pytest.raises(cb.GatewayError, match="HOST:PORT"):
        cb.connect(gateway=address, token="t")


def test_the_token_is_required(gateway_address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_gateway.TOKEN_VARIABLE, raising=False)
    with pytest.raises(cb.GatewayError, match="needs its token"):
        cb.connect(gateway=gateway_address)
    monkeypatch.setenv(_gateway.TOKEN_VARIABLE, GATEWAY_TOKEN)
    env = cb.connect(gateway=gateway_address)
    assert env.sql("SELECT 1 AS a").to_pylist() == [{"a": 1}]
    env.close()


def test_errors_keep_their_class_and_positions_across_transports(
    gw: cb.Environment,
) -> None:
    local = cb.connect(backend="enumerable")  # the gateway has no DuckDB: compare like with like
    statements = [
        "SELECT nme FROM t",
        "SELECT id,\n  name\nFROM t WHERE",
        "SELECT id FROM nosuch",
        "CREATE TABLE t (x INT) WITH ('connector' = 'memory')",
        "SELECT CAST(name AS INT) FROM t",
    ]
    try:
        for env in (local, gw):
            env.execute("CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'memory')")
            env.execute("INSERT INTO t VALUES (1, 'ann')")
        for sql in statements:
            seen = []
            for env in (local, gw):
                with pytest.raises(cb.Error) as info:
                    env.execute(sql).fetchall()
                e = info.value
                seen.append((type(e), e.line, e.column, e.end_line, e.end_column, str(e)))
            assert seen[0] == seen[1], sql
        with pytest.raises(cb.SqlValidationError) as info:
            gw.sql("SELECT nme FROM t")
        assert (info.value.line, info.value.column, info.value.end_column) == (1, 8, 10)
    finally:
        local.close()


class Pids:
    """A source that notes the process its scans run in."""

    def __init__(self) -> None:
        self.pids: list[int] = []

    def schema(self) -> pa.Schema:
        return pa.schema([("pid", pa.int64())])

    def scan(self, request: object) -> pa.Table:
        self.pids.append(os.getpid())
        return pa.table({"pid": [os.getpid()]})


def test_a_python_source_runs_in_the_client_process(gw: cb.Environment) -> None:
    source = Pids()
    gw.register_source("pids", source)
    assert gw.sql("SELECT pid FROM pids").to_pylist() == [{"pid": os.getpid()}]
    assert source.pids == [os.getpid()]


def test_a_filesystem_table_over_the_gateway(gw: cb.Environment, tmp_path: Path) -> None:
    pq.write_table(
        pa.table({"id": [1, 2, 3], "city": ["Paris", "Lyon", None]}), tmp_path / "a.parquet"
    )
    gw.execute(
        "CREATE TABLE places (id BIGINT, city STRING, "
        "fname STRING METADATA FROM 'file.name' VIRTUAL) "
        f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'parquet')"
    )
    assert "filter=" in gw.explain("SELECT id FROM places WHERE city = 'Lyon'")
    rows = gw.sql("SELECT id, fname FROM places WHERE city = 'Lyon'").to_pylist()
    assert rows == [{"id": 2, "fname": "a.parquet"}]
    gw.execute("INSERT INTO places (id, city) VALUES (4, 'Nice')")
    assert len(list(tmp_path.glob("*.parquet"))) == 2
    assert gw.sql("SELECT COUNT(*) AS n FROM places").to_pylist() == [{"n": 4}]


def test_large_results_stream_in_chunks(
    gw: cb.Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_gateway, "CHUNK_BYTES", 4096)
    batches = [pa.record_batch({"i": list(range(k * 1000, (k + 1) * 1000))}) for k in range(50)]
    gw.register_arrow("many", pa.Table.from_batches(batches))
    table = gw.sql("SELECT i FROM many WHERE i % 2 = 0").to_arrow_table()
    assert table.column("i").to_pylist() == list(range(0, 50_000, 2))
    reader = gw.sql("SELECT i FROM many").to_arrow_reader()
    assert reader.read_next_batch().num_rows > 0
    del reader  # an unread rest is dropped in the JVM; the environment goes on
    assert gw.sql("SELECT COUNT(*) AS n FROM many").to_pylist() == [{"n": 50_000}]


def test_a_failure_in_a_later_chunk_is_an_error(
    gw: cb.Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_gateway, "CHUNK_BYTES", 4096)
    values = [str(i) for i in range(200_000)] + ["oops"]
    gw.register_arrow("s", pa.table({"x": values}))
    result = gw.sql("SELECT CAST(x AS INT) AS n FROM s")
    with pytest.raises(cb.ExecutionError, match=r"failed while it ran.*oops"):
        result.to_arrow_table()
    assert gw.sql("SELECT 1 AS a").to_pylist() == [{"a": 1}]


def test_clients_get_their_own_callbacks(gateway_address: str) -> None:
    """Two processes with Python sources on one gateway: each source runs in its own process."""
    script = textwrap.dedent(
        f"""
        import os, pyarrow as pa, calcite_bridge as cb

        class Pids:
            def schema(self):
                return pa.schema([("pid", pa.int64())])
            def scan(self, request):
                return pa.table({{"pid": [os.getpid()]}})

        env = cb.connect(gateway={gateway_address!r}, token={GATEWAY_TOKEN!r})
        env.register_source("pids", Pids())
        for _ in range(20):
            assert env.sql("SELECT pid FROM pids").to_pylist() == [{{"pid": os.getpid()}}]
        print("ok", flush=True)
        """
    )
    other = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    env = cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN)
    try:
        env.register_source("pids", Pids())
        for _ in range(20):
            assert env.sql("SELECT pid FROM pids").to_pylist() == [{"pid": os.getpid()}]
        out, err = other.communicate(timeout=TIMEOUT)
        assert other.returncode == 0, err
        assert out.strip() == "ok"
    finally:
        env.close()
        if other.poll() is None:
            other.kill()
            other.communicate()


def test_ctrl_c_cancels_a_statement_in_the_gateway(gateway_address: str) -> None:
    script = textwrap.dedent(
        f"""
        import threading, time
        import calcite_bridge as cb

        env = cb.connect(gateway={gateway_address!r}, token={GATEWAY_TOKEN!r})

        def announce():
            time.sleep(1.0)  # let the query get going
            print("ready", flush=True)

        start = time.monotonic()
        threading.Thread(target=announce, daemon=True).start()
        try:
            env.sql({LONG_QUERY!r}).to_pylist()
            print("finished without interruption")
        except KeyboardInterrupt:
            print("KeyboardInterrupt after", round(time.monotonic() - start), flush=True)
        print("after", env.sql("SELECT 1 AS a").to_pylist(), flush=True)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        ready = proc.stdout.readline()
        assert ready.strip() == "ready", ready + (proc.stderr.read() if proc.stderr else "")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "KeyboardInterrupt after" in out
    assert "after [{'a': 1}]" in out


def _start(args: list[str], cwd: Path) -> tuple[subprocess.Popen[str], list[str]]:
    """Starts a gateway command; returns it and the lines it printed up to the address."""
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline()]
    if "listening on" not in lines[0]:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"no address printed: {lines} {err}")
    return proc, lines


def test_the_cli_makes_a_token_and_stops_on_sigterm(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    proc, lines = _start([str(cli), "gateway", "--port", "0"], tmp_path)
    try:
        assert proc.stdout is not None
        token_line = proc.stdout.readline()
        connect_line = proc.stdout.readline()
        address = re.search(r"listening on (\S+)", lines[0])
        token = re.fullmatch(r"token: (\S+)\n", token_line)
        assert address is not None and token is not None, (lines, token_line)
        assert f"cb.connect(gateway='{address.group(1)}'" in connect_line
        env = cb.connect(gateway=address.group(1), token=token.group(1))
        assert env.sql("SELECT 40 + 2 AS a").to_pylist() == [{"a": 42}]
        with pytest.raises(cb.GatewayError, match=r"printed it on the line 'token: \.\.\.'"):
            cb.connect(gateway=address.group(1), token="not-the-token-but-long-enough")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
        assert "gateway stopped" in err
        with pytest.raises(cb.GatewayError, match="Lost the connection"):
            env.sql("SELECT 1")
        with pytest.raises(cb.GatewayError, match="No gateway answers"):
            cb.connect(gateway=address.group(1), token=token.group(1))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_the_cli_writes_a_new_token_file_for_clients(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    token_file = tmp_path / "token"
    proc, lines = _start([str(cli), "gateway", "--token-file", str(token_file)], tmp_path)
    try:
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        token = token_file.read_text().strip()
        assert len(token) >= 24
        address = re.search(r"listening on (\S+)", lines[0])
        assert address is not None
        assert proc.stdout is not None
        # not printed: it is in the file
        assert f"token=<the token in {token_file}>" in proc.stdout.readline()
        env = cb.connect(gateway=address.group(1), token=token_file.read_text().strip())
        assert env.sql("SELECT 1 AS a").to_pylist() == [{"a": 1}]
        with pytest.raises(cb.GatewayError, match="refused the token") as refused:
            cb.connect(gateway=address.group(1), token=token + "x")
        assert f"It reads its token from the file {token_file};" in str(refused.value)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=TIMEOUT)
    assert f"wrote a new token to {token_file}" in err


def test_the_cli_refuses_a_non_loopback_address(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    proc = subprocess.run(
        [str(cli), "gateway", "--host", "192.0.2.1", "--token", GATEWAY_TOKEN],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stdout
    assert "loopback" in proc.stderr and "--allow-remote" in proc.stderr


def test_a_gateway_started_with_java_alone(tmp_path: Path) -> None:
    java_home = _jvm._java_home_of(_jvm.find_jvm())
    assert java_home is not None
    (tmp_path / "token").write_text("from-a-file-of-the-owner\n")
    (tmp_path / "token").chmod(0o600)
    args = [
        str(java_home / "bin" / "java"),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp",
        str(_jvm.jar_path()),
        "io.calcitebridge.gateway.BridgeGateway",
        "--port",
        "0",
        "--token-file",
        "token",
    ]
    proc, lines = _start(args, tmp_path)
    try:
        address = re.search(r"listening on (\S+)", lines[0])
        assert address is not None
        env = cb.connect(gateway=address.group(1), token="from-a-file-of-the-owner")
        env.execute("CREATE TABLE t (a INT) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO t VALUES (1), (2)")
        assert env.sql("SELECT SUM(a) AS s FROM t").to_pylist() == [{"s": 3}]
    finally:
        proc.terminate()
        proc.communicate(timeout=TIMEOUT)


def test_environments_share_one_channel_and_run_from_threads(gateway_address: str) -> None:
    envs = [cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN) for _ in range(3)]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            env = envs[k]
            env.execute("CREATE TABLE t (a INT) WITH ('connector' = 'memory')")
            env.execute(f"INSERT INTO t VALUES ({k})")
            for _ in range(10):
                assert env.sql("SELECT a FROM t").to_pylist() == [{"a": k}]
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for env in envs:
        env.close()
    assert errors == []


def test_the_cli_reports_a_port_in_use_and_exits(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [str(cli), "gateway", "--port", str(port), "--token", GATEWAY_TOKEN],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
            cwd=tmp_path,
        )
    assert proc.returncode == 1, proc.stdout
    assert f"Could not listen on 127.0.0.1:{port}" in proc.stderr


def test_a_gateway_of_another_version_is_refused(
    gateway_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_gateway, "_clients", {})  # a new connection, so the version is checked
    monkeypatch.setattr(cb._version, "__version__", "9.9.9")
    with pytest.raises(cb.GatewayError, match=r"runs calcite-bridge 0\.1\.0 but .* is 9\.9\.9"):
        cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--token", "a"], "the token given with --token is 1 bytes long"),
        (["--token", "é" * 7 + "a"], "is 15 bytes long"),  # 8 characters, 15 bytes
    ],
)
def test_the_cli_refuses_a_token_under_16_bytes(
    tmp_path: Path, args: list[str], reason: str
) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    proc = subprocess.run(
        [str(cli), "gateway", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stdout
    assert reason in proc.stderr
    assert "at least 16 bytes" in proc.stderr and "guessed" in proc.stderr


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620, 0o602])
def test_the_cli_refuses_a_token_file_others_may_read_or_write(tmp_path: Path, mode: int) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    token_file = tmp_path / "token"
    token_file.write_text(GATEWAY_TOKEN)
    token_file.chmod(mode)
    proc = subprocess.run(
        [str(cli), "gateway", "--token-file", str(token_file)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stdout
    assert f"has mode {mode:04o}" in proc.stderr
    assert "other users can read or change the token" in proc.stderr
    assert f"chmod 600 {token_file}" in proc.stderr


def test_the_cli_refuses_a_short_token_in_a_file(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    token_file = tmp_path / "token"
    token_file.write_text("short\n")
    token_file.chmod(0o600)
    proc = subprocess.run(
        [str(cli), "gateway", "--token-file", str(token_file)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stdout
    assert f"the token in {token_file} is 5 bytes long" in proc.stderr


@pytest.mark.parametrize(
    ("content", "mode", "reason"),
    [
        ("from-a-file-of-the-owner", 0o644, "rw-r--r--: other users can read or change"),
        ("short", 0o600, "The token is 5 bytes long; a gateway needs one of at least 16"),
    ],
)
def test_a_gateway_started_with_java_alone_refuses_a_weak_token(
    tmp_path: Path, content: str, mode: int, reason: str
) -> None:
    java_home = _jvm._java_home_of(_jvm.find_jvm())
    assert java_home is not None
    (tmp_path / "token").write_text(content)
    (tmp_path / "token").chmod(mode)
    proc = subprocess.run(
        [
            str(java_home / "bin" / "java"),
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-cp",
            str(_jvm.jar_path()),
            "io.calcitebridge.gateway.BridgeGateway",
            "--token-file",
            "token",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stdout
    assert reason in proc.stderr


def test_the_wrong_token_message_names_every_way_a_gateway_takes_its_token(
    gateway_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fixture's gateway read its token from --token-file and printed none: the message names
    # that file, where the client's token came from, and not a printed token.
    with pytest.raises(cb.GatewayError) as given:
        cb.connect(gateway=gateway_address, token="not-the-token-but-long-enough")
    message = str(given.value)
    assert "refused the token given as token=" in message
    assert "It reads its token from the file " in message and "printed" not in message
    assert message.rstrip(".").split("from the file ")[1].split(";")[0].endswith("/token")
    monkeypatch.setenv("CALCITE_BRIDGE_TOKEN", "another-wrong-token-long-enough")
    with pytest.raises(cb.GatewayError, match=r"refused the token from \$CALCITE_BRIDGE_TOKEN"):
        cb.connect(gateway=gateway_address)


def test_a_statement_past_its_timeout_stops_on_the_gateway(gw: cb.Environment) -> None:
    gw.execute("CREATE TABLE big (x BIGINT) WITH ('connector' = 'memory')")
    gw.execute("INSERT INTO big VALUES " + ", ".join(f"({i})" for i in range(3000)))
    cross = "SELECT a.x FROM big a, big b, big c WHERE a.x + b.x + c.x < 0"
    for timeout, setting in ((2, None), (None, "2 s")):
        if setting is not None:
            gw.config.set("execution.timeout", setting)
        start = time.monotonic()
        with pytest.raises(cb.TimeoutError, match=r"execution\.timeout"):
            gw.sql(cross, timeout=timeout).to_arrow_table()
        elapsed = time.monotonic() - start
        # 2.7 * 10^10 triples take minutes on any machine; 3 s of room for a loaded one.
        assert elapsed < 2 + 3, f"raised {elapsed:.2f} s after a 2 s limit"
    gw.config.reset("execution.timeout")
    assert gw.sql("SELECT COUNT(*) AS n FROM big").to_pylist() == [{"n": 3000}]


def test_a_record_of_a_gateway_that_is_gone_gives_no_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from calcite_bridge._transport import announce

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    record = announce.announce(1, "option", None)
    assert record is not None and stat.S_IMODE(record.stat().st_mode) == 0o600
    assert announce.token_hint(1) == "It was started with --token; pass the same value."
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    record.write_text(record.read_text().replace(str(os.getpid()), str(dead.pid)))
    assert announce.token_hint(1) is None  # a record left by a gateway that is gone
    announce.withdraw(record)
    assert not record.exists() and announce.token_hint(1) is None


def test_a_process_wide_py4j_error_hook_does_not_take_the_gateways_errors(
    gw: cb.Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pyspark replaces py4j.java_gateway.get_return_value once a Spark session starts, with a
    # hook that reads every Java failure through Spark's own gateway. Here a hook that breaks on
    # any Java failure stands for it: the gateway's errors must still come back typed.
    from py4j import java_gateway, protocol

    original = protocol.get_return_value

    def spark_like(answer: Any, client: Any, target_id: Any = None, name: Any = None) -> Any:
        try:
            return original(answer, client, target_id, name)
        except protocol.Py4JJavaError as e:
            raise protocol.Py4JError(
                "Method exceptionString([class SparkConf]) does not exist"
            ) from e

    monkeypatch.setattr(java_gateway, "get_return_value", spark_like)
    with pytest.raises(cb.SqlParseError):
        gw.sql("SELEC 1")
    assert gw.sql("SELECT 1 AS x").fetchall() == [(1,)]
