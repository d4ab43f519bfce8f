"""The CLI's daemon: a one-shot command served by a warm JVM prints exactly what the command
run in its own process prints (the same bytes on stdout and stderr, the same exit code).

Most tests share one daemon, started the way a user's first command starts it. Each daemon runs
with its socket directory under pytest's tmp dir and is stopped before its test ends; the suite
otherwise runs its CLI subprocesses with ``CALCITE_BRIDGE_DAEMON=0`` (``conftest.py``).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from calcite_bridge._daemon import client, place, server

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Unix domain sockets, SIGINT")

SCRIPT = Path(sys.executable).parent / "calcite-bridge"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Plenty for a JVM's start and warm-up on a machine with both cores busy.
START_SECONDS = 240

CATALOG = """CREATE TABLE f (a INT, s STRING, z INT) WITH (
    'connector' = 'filesystem', 'path' = 'data', 'format' = 'parquet');
"""
# 10^10 rows through Calcite's own engine (about 5 minutes: its nested-loop joins compute each
# inner input once, 10^8 took 3 s), unless Ctrl-C stops it.
SLOW = "SELECT COUNT(*) AS n FROM " + ", ".join(
    f"(VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)) AS t{i}(x)" for i in range(10)
)


@dataclass
class Run:
    code: int
    out: bytes
    err: bytes


@dataclass
class Place:
    cwd: Path
    env: dict[str, str]

    def cli(self, *args: str, daemon: str = "1", stdin: bytes | None = None, **env: str) -> Run:
        environ = {**self.env, place.USE_VAR: daemon, **env}
        proc = subprocess.run(
            [str(SCRIPT), *args],
            input=stdin if stdin is not None else b"",
            capture_output=True,
            cwd=self.cwd,
            env=environ,
            timeout=START_SECONDS,
            check=False,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    def slow_query(self) -> subprocess.Popen[bytes]:
        """The slow query, started through the daemon; returns once the daemon runs it."""
        child = subprocess.Popen(
            [str(SCRIPT), "query", "--set", "execution.backend=enumerable", SLOW],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.cwd,
            env={**self.env, place.USE_VAR: "1"},
        )
        deadline = time.monotonic() + 60
        while not (self.status() or {}).get("busy"):
            if time.monotonic() > deadline or child.poll() is not None:
                child.kill()
                out, err = child.communicate()
                raise AssertionError(f"the daemon did not take the slow query: {out!r} {err!r}")
            time.sleep(0.1)
        return child

    def status(self, **env: str) -> dict[str, object] | None:
        return place.ask(place.STATUS, {**self.env, **env}, str(self.cwd))

    def wait_ready(self, **env: str) -> dict[str, object]:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            answer = self.status(**env)
            if answer is not None:
                return answer
            time.sleep(0.5)
        logs = "".join(p.read_text() for p in Path(self.env[place.DIR_VAR]).glob("*.log"))
        raise AssertionError(f"no daemon answered in {START_SECONDS} s; logs:\n{logs}")

    def stop(self, **env: str) -> None:
        """Stops the daemon of this place, if one runs, and waits until its process ended."""
        answer = place.ask(place.STOP, {**self.env, **env}, str(self.cwd))
        if answer is None:
            return
        pid = int(str(answer["pid"]))
        deadline = time.monotonic() + 120
        while _alive(pid):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"the daemon {pid} did not end after --stop")
            time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A child of this process that ended but was not reaped yet is not alive either.
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)
    return done == 0


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return ""


def _new_place(root: Path, name: str) -> Place:
    cwd = root / name
    (cwd / "data").mkdir(parents=True)
    folder = root / f"{name}-daemons"
    folder.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k not in place.OWN_VARS}
    env[place.DIR_VAR] = str(folder)
    # Python functions of the working directory are importable, in a daemon as in a process.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(cwd), env.get("PYTHONPATH")) if p)
    for var in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        env.pop(var, None)
    (cwd / "emp.sql").write_text((FIXTURES / "cli_catalog.sql").read_text())
    (cwd / "files.sql").write_text(CATALOG)
    pq.write_table(
        pa.table({"a": pa.array([1, 2, None], pa.int32()), "s": ["x", None, "z"]}),
        cwd / "data" / "part-0.parquet",
    )
    return Place(cwd, env)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Place]:
    """One daemon for most tests, started as a first command on a terminal would start it."""
    here = _new_place(tmp_path_factory.mktemp("daemon"), "work")
    first = here.cli("query", "SELECT 1 AS x", "--format", "csv")
    assert (first.code, first.out) == (0, b"x\n1\n"), first.err
    try:
        here.wait_ready()
        yield here
    finally:
        here.stop()


def _served(here: Place) -> int:
    answer = here.status()
    assert answer is not None, "the daemon is gone"
    return int(str(answer["served"]))


# Each case: the arguments, and stdin. Run once in its own process and once by the daemon.
CASES = {
    "explain text": (
        ["explain", "--catalog", "emp.sql", "SELECT name FROM emp WHERE id > 1"],
        None,
    ),
    "explain json": (
        [
            "explain",
            "--catalog",
            "emp.sql",
            "--format",
            "json",
            "SELECT e.name FROM emp e JOIN emp f ON e.id = f.id",
        ],
        None,
    ),
    "explain dot": (
        [
            "explain",
            "--catalog",
            "emp.sql",
            "--format",
            "dot",
            "SELECT e.name FROM emp e JOIN emp f ON e.id = f.id",
        ],
        None,
    ),
    "validate": (
        [
            "validate",
            "--catalog",
            "emp.sql",
            "SELECT id, addr.city, props['level'] AS lvl FROM emp",
        ],
        None,
    ),
    "describe": (["describe", "--catalog", "emp.sql", "emp"], None),
    "query table with NULLs": (
        [
            "--catalog",
            "emp.sql",
            "query",
            "SELECT id, name, addr.city AS city, tags FROM emp ORDER BY id",
        ],
        None,
    ),
    "query csv": (
        [
            "query",
            "--catalog",
            "emp.sql",
            "--format",
            "csv",
            "SELECT id, name, tags, props FROM emp ORDER BY id",
        ],
        None,
    ),
    "query json": (
        [
            "query",
            "--catalog",
            "emp.sql",
            "--format",
            "json",
            "SELECT id, name, salary, addr, tags, props, bonus FROM emp ORDER BY id",
        ],
        None,
    ),
    "query line": (
        [
            "query",
            "--catalog",
            "emp.sql",
            "--format",
            "line",
            "--max-rows",
            "2",
            "SELECT id, addr FROM emp ORDER BY id",
        ],
        None,
    ),
    "filesystem table over a relative path, warning on stderr": (
        ["query", "--catalog", "files.sql", "SELECT a, s, z FROM f ORDER BY a"],
        None,
    ),
    "SQL from stdin": (
        ["query", "--catalog", "emp.sql", "--format", "csv"],
        b"SELECT COUNT(*) AS n FROM emp;\n",
    ),
    "SQL from a file, a script": (["query", "--catalog", "emp.sql", "-f", "script.sql"], None),
    "SQL error with a caret": (["query", "--catalog", "emp.sql", "SELECT nme FROM emp"], None),
    "parse error from stdin": (["validate"], b"SELECT FROM emp\n"),
    "usage error": (["query", "--format", "csv", "--max-rows", "-3", "SELECT 1"], None),
    "missing catalog file": (["query", "--catalog", "nowhere.sql", "SELECT 1"], None),
    "an unknown table in describe": (["describe", "nosuch"], None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_command_prints_the_same_bytes_as_in_its_own_process(shared: Place, case: str) -> None:
    (shared.cwd / "script.sql").write_text(
        "CREATE TABLE t (a INT) WITH ('connector' = 'memory');\n"
        "INSERT INTO t VALUES (1), (NULL);\n"
        "SELECT a FROM t ORDER BY a;\n"
        "SELECT name FROM emp WHERE id = 2;\n"
    )
    args, stdin = CASES[case]
    alone = shared.cli(*args, stdin=stdin, daemon="0")
    # A client that hears nothing from the daemon within its wait (a machine starved by other
    # work) runs the command itself, by design: try again, up to three times, for a served run.
    for _ in range(3):
        before = _served(shared)
        served = shared.cli(*args, stdin=stdin)
        if _served(shared) == before + 1:
            break
    assert _served(shared) == before + 1, "the daemon did not serve the command, three times"
    assert served == alone
    assert alone.code in (0, 1, 2)
    if "error" in case:
        assert alone.code == (2 if case == "usage error" else 1)
        assert b"Traceback" not in alone.err


def test_the_cases_cover_what_the_commands_print(shared: Place) -> None:
    # A few of the outputs compared above, checked for what they must show, so that two
    # identical failures would not pass for equal outputs.
    nulls = shared.cli(*CASES["query table with NULLs"][0])
    assert nulls.code == 0 and b"NULL" in nulls.out
    files = shared.cli(*CASES["filesystem table over a relative path, warning on stderr"][0])
    assert files.code == 0, files.err
    assert files.err.startswith(b"Warning: ") and b"z" in files.err
    stdin = shared.cli(*CASES["SQL from stdin"][0], stdin=CASES["SQL from stdin"][1])
    assert stdin.out == b"n\n3\n"
    caret = shared.cli(*CASES["SQL error with a caret"][0])
    assert caret.code == 1
    assert b"1 | SELECT nme FROM emp\n  |        ^^^" in caret.err
    usage = shared.cli(*CASES["usage error"][0])
    assert usage.code == 2 and usage.err.startswith(b"Usage: calcite-bridge query")


def test_an_edited_python_function_is_imported_again(shared: Place) -> None:
    (shared.cwd / "udf.sql").write_text(
        "CREATE TEMPORARY SYSTEM FUNCTION label AS 'labels.label' LANGUAGE PYTHON;\n"
    )
    args = ["query", "--set", "python.allowed-modules=labels", "--catalog", "udf.sql"]
    args += ["--format", "csv", "SELECT label('x') AS v"]
    before = _served(shared)
    for text in ("one", "second"):
        (shared.cwd / "labels.py").write_text(
            "import calcite_bridge as cb\n\n\n"
            "@cb.udf(return_type='STRING', arg_types=['STRING'])\n"
            f"def label(s):\n    return None if s is None else {text!r}\n"
        )
        run = shared.cli(*args)
        assert (run.code, run.out) == (0, f"v\n{text}\n".encode()), run.err
    assert _served(shared) == before + 2


def test_parquet_output_goes_to_the_clients_relative_path(shared: Place) -> None:
    sql = "SELECT id, name, tags FROM emp ORDER BY id"
    args = ["query", "--catalog", "emp.sql", "--format", "parquet", "-o"]
    alone = shared.cli(*args, "alone.parquet", sql, daemon="0")
    served = shared.cli(*args, "out/served.parquet", sql)
    assert served.code == 1 and b"served.parquet" in served.err  # no such directory, as alone
    (shared.cwd / "out").mkdir(exist_ok=True)
    served = shared.cli(*args, "out/served.parquet", sql)
    assert (
        (served.code, served.out, served.err) == (alone.code, alone.out, alone.err) == (0, b"", b"")
    )
    written = pq.read_table(shared.cwd / "out" / "served.parquet")
    assert written.equals(pq.read_table(shared.cwd / "alone.parquet"))
    assert written.column("name").to_pylist() == ["ann", "bob", "cy"]
    assert written.column("tags").to_pylist() == [["a", "b"], ["c"], None]


def _on_terminal(
    here: Place, args: list[str], daemon: str, stderr: bool
) -> tuple[int, bytes, bytes]:
    """Runs the CLI with stdout (and ``stderr`` too, else a pipe) on a terminal of 60 columns:
    its exit code, what the terminal received and what the pipe did."""
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 60, 0, 0))
    env = {**here.env, place.USE_VAR: daemon, "TERM": "xterm-256color"}
    try:
        proc = subprocess.Popen(
            [str(SCRIPT), *args],
            stdin=subprocess.DEVNULL,
            stdout=secondary,
            stderr=secondary if stderr else subprocess.PIPE,
            cwd=here.cwd,
            env=env,
        )
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the terminal closed: every process that held it ended
                break
            if not chunk:
                break
            chunks.append(chunk)
        _, piped = proc.communicate(timeout=START_SECONDS)
    finally:
        os.close(primary)
    return proc.returncode, b"".join(chunks), piped or b""


def test_on_a_terminal_the_colours_and_width_are_the_same(shared: Place) -> None:
    args = ["query", "--catalog", "emp.sql", "SELECT id, name, tags, props FROM emp ORDER BY id"]
    alone = _on_terminal(shared, args, "0", stderr=False)
    before = _served(shared)
    served = _on_terminal(shared, args, "1", stderr=False)
    assert _served(shared) == before + 1
    assert served == alone
    assert alone[0] == 0
    assert b"\x1b[" in alone[1]  # styled: a terminal
    assert max(len(line) for line in _plain(alone[1]).splitlines()) <= 60
    # On a terminal, stderr is styled too. The command in its own process may show a progress
    # line first (it starts a JVM, which takes more than a second): the rest is the same.
    error = ["query", "--catalog", "emp.sql", "SELECT nme FROM emp"]
    code, err, _ = _on_terminal(shared, error, "1", stderr=True)
    alone_code, alone_err, _ = _on_terminal(shared, error, "0", stderr=True)
    assert code == alone_code == 1
    assert alone_err.endswith(err)
    assert err.startswith(b"\x1b[31m\x1b[1mSqlValidationError\x1b[0m: ")


def _plain(raw: bytes) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", raw.decode()).replace("\r", "")


def test_ctrl_c_stops_the_command_and_the_daemon_serves_the_next(shared: Place) -> None:
    before = _served(shared)
    child = shared.slow_query()
    try:
        time.sleep(1)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert err.endswith(b"Cancelled (KeyboardInterrupt).\n")
    assert out == b""
    assert _served(shared) == before + 1
    after = shared.cli("query", "--format", "csv", "SELECT 7 AS n")
    assert (after.code, after.out) == (0, b"n\n7\n")
    assert _served(shared) == before + 2


def test_a_busy_daemon_lets_the_next_command_run_in_its_own_process(shared: Place) -> None:
    slow = shared.slow_query()
    try:
        busy_served = _served(shared)
        other = shared.cli("query", "--format", "csv", "SELECT 8 AS n")
        assert (other.code, other.out, other.err) == (0, b"n\n8\n", b"")
        assert _served(shared) == busy_served  # it ran in its own process
    finally:
        slow.send_signal(signal.SIGINT)
        slow.communicate(timeout=60)


def test_a_place_is_the_working_directory_and_what_the_jvm_reads_at_start(
    shared: Place, tmp_path: Path
) -> None:
    cwd = str(shared.cwd)
    env = shared.env
    same = place.key(env, cwd)
    assert place.key({**env, place.IDLE_VAR: "5", place.USE_VAR: "1", "OTHER": "x"}, cwd) == same
    for var, value in [
        ("TZ", "Asia/Tokyo"),
        ("LC_ALL", "C"),
        ("JAVA_TOOL_OPTIONS", "-Xmx1g"),
        ("CALCITE_BRIDGE_JVM_OPTIONS", "-Xss4m"),
        ("PATH", "/nowhere"),
    ]:
        assert place.key({**env, var: value}, cwd) != same, var
    assert place.key(env, str(tmp_path)) != same
    # Another zone finds no daemon: it would start its own.
    assert shared.status() is not None
    assert shared.status(TZ="Asia/Tokyo") is None
    run = shared.cli("query", "--format", "csv", "SELECT 1 AS n", daemon="", TZ="Asia/Tokyo")
    assert run.out == b"n\n1\n"
    assert shared.status(TZ="Asia/Tokyo") is None  # not a terminal: none started


def test_another_directory_gets_its_own_daemon_and_a_killed_one_falls_back(
    shared: Place, tmp_path: Path
) -> None:
    other = _new_place(tmp_path, "other")
    try:
        started = other.cli("query", "--format", "csv", "SELECT 2 AS n")
        assert started.out == b"n\n2\n"
        answer = other.wait_ready()
        pid = int(str(answer["pid"]))
        assert pid != int(str((shared.status() or {})["pid"]))
        folder = Path(other.env[place.DIR_VAR])
        assert [p.suffix for p in folder.glob("*.sock")] == [".sock"]
        # The daemon dies during a command: a clear error, exit 1, and the command is not
        # run again.
        child = other.slow_query()
        os.kill(pid, signal.SIGKILL)
        out, err = child.communicate(timeout=60)
        assert child.returncode == 1
        assert b"daemon ended during the command" in err and out == b""
        # Its socket is left behind; the next command runs in its own process and removes it.
        assert list(folder.glob("*.sock"))
        after = other.cli("query", "--format", "csv", "SELECT 3 AS n", daemon="")
        assert (after.code, after.out, after.err) == (0, b"n\n3\n", b"")
        assert not list(folder.glob("*.sock"))
        assert other.status() is None
    finally:
        other.stop()


def test_an_idle_daemon_ends_and_status_and_stop_say_so(tmp_path: Path) -> None:
    here = _new_place(tmp_path, "idle")
    env = {**here.env, place.IDLE_VAR: "2"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "calcite_bridge", "daemon"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=here.cwd,
        env=env,
    )
    try:
        log, _ = proc.communicate(timeout=START_SECONDS)
    finally:
        proc.kill()
    assert proc.returncode == 0, log
    assert b"ready" in log and b"ends: idle for 2 s; 0 commands served" in log
    status = here.cli("daemon", "--status")
    assert (status.code, status.out) == (1, b"No calcite-bridge daemon runs for this place.\n")
    stop = here.cli("daemon", "--stop")
    assert (stop.code, stop.out) == (0, b"No calcite-bridge daemon runs for this place.\n")
    assert not list(Path(here.env[place.DIR_VAR]).glob("*.sock"))


def test_status_and_stop_of_a_running_daemon(shared: Place) -> None:
    status = shared.cli("daemon", "--status")
    assert status.code == 0
    text = status.out.decode()
    assert text.startswith("A calcite-bridge daemon runs for this place: pid ")
    assert "commands served" in text and str(shared.env[place.DIR_VAR]) in text


def test_a_directory_others_can_enter_is_not_used(tmp_path: Path) -> None:
    here = _new_place(tmp_path, "open")
    folder = Path(here.env[place.DIR_VAR])
    folder.chmod(0o755)
    assert "open to other users" in (place.directory_problem(folder) or "")
    run = here.cli("query", "--format", "csv", "SELECT 4 AS n")
    assert (run.code, run.out) == (0, b"n\n4\n")
    assert list(folder.iterdir()) == []  # no daemon started there
    folder.chmod(0o700)
    assert place.directory_problem(folder) is None
    assert "does not exist" in (place.directory_problem(tmp_path / "none") or "")


def test_the_daemon_answers_only_its_own_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(place.DIR_VAR, str(tmp_path))
    daemon = server.Daemon(lambda args, prog: 0, 60.0)
    mine, theirs = socket.socketpair(socket.AF_UNIX)
    assert place.peer_uid(mine) == os.getuid()
    monkeypatch.setattr(place, "peer_uid", lambda sock: os.getuid() + 1)
    place.send(theirs, place.STATUS)
    daemon.greet(mine)
    try:
        answer = theirs.recv(100)
    except ConnectionResetError:  # closed with the request unread
        answer = b""
    assert answer == b""  # no word to another user
    theirs.close()
    mine, theirs = socket.socketpair(socket.AF_UNIX)
    monkeypatch.setattr(place, "peer_uid", lambda sock: os.getuid())
    place.send(theirs, place.STATUS)
    daemon.greet(mine)
    frame = place.receive(theirs)
    theirs.close()
    assert frame is not None and frame[0] == place.INFO


def test_the_client_finds_the_command_after_the_groups_options() -> None:
    assert client.command_of(["--catalog", "c.sql", "--no-color", "query", "SELECT 1"]) == "query"
    assert client.command_of(["--set", "a=b", "--format", "csv", "explain", "x"]) == "explain"
    assert client.command_of(["--set=a=b", "describe", "t"]) == "describe"
    for args in (
        ["--no-daemon", "query", "SELECT 1"],
        ["query", "--help"],
        ["shell"],
        ["doctor"],
        ["-f", "script.sql"],
        [],
        ["daemon", "--status"],
    ):
        assert client.command_of(args) is None, args


def test_the_client_imports_nothing_heavy_before_the_daemon_answers(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from calcite_bridge._daemon import client\n"
        "assert client.serve_here(['query', 'SELECT 1']) is None\n"
        "print(sorted(m for m in ('click', 'rich', 'pyarrow', 'jpype', 'numpy', 'duckdb')"
        " if m in sys.modules))\n"
    )
    env = {**os.environ, place.DIR_VAR: str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout == "[]\n"


def test_a_daemon_notices_that_its_jar_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jar = tmp_path / "bridge.jar"
    jar.write_bytes(b"jar")
    monkeypatch.setenv("CALCITE_BRIDGE_JAR", str(jar))
    monkeypatch.setenv(place.DIR_VAR, str(tmp_path))
    daemon = server.Daemon(lambda args, prog: 0, 60.0)
    assert not daemon.changed()
    os.utime(jar, (time.time() + 10, time.time() + 10))
    assert daemon.changed()


def test_a_command_runs_as_the_client_and_leaves_the_process_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "client_module_of_the_test.py").write_text("VALUE = 1\n")
    mine, theirs = socket.socketpair(socket.AF_UNIX)
    stream = {"tty": True, "encoding": "utf-8", "errors": "strict", "line_buffering": True}
    request = {
        "environ": {"ONLY_THE_CLIENTS": "1", "PATH": os.environ.get("PATH", "")},
        "cwd": str(tmp_path),
        "argv0": "/somewhere/calcite-bridge",
        "args": ["query", "SELECT 1"],
        "path0": str(tmp_path),
        "size": [77, 22],
        "stdin": None,
        "stdout": stream,
        "stderr": {**stream, "tty": False},
    }
    before_env, before_cwd, before_out = dict(os.environ), os.getcwd(), sys.stdout
    with server._as_client(request, server._Channel(mine), server.queue.Queue()):
        assert os.environ.get("ONLY_THE_CLIENTS") == "1"
        assert (os.environ["COLUMNS"], os.environ["LINES"]) == ("77", "22")
        assert os.getcwd() == str(tmp_path)
        assert sys.argv == ["/somewhere/calcite-bridge", "query", "SELECT 1"]
        assert sys.stdin is None
        assert sys.stdout.isatty() and not sys.stderr.isatty()
        import client_module_of_the_test  # noqa: F401  (from the client's directory)

        print("to the client")
    frame = place.receive(theirs)
    mine.close()
    theirs.close()
    assert frame == (place.STDOUT, b"to the client\n")
    assert dict(os.environ) == before_env
    assert os.getcwd() == before_cwd and sys.stdout is before_out
    assert "client_module_of_the_test" not in sys.modules


def test_a_socket_path_too_long_for_an_address_is_reached_through_its_directory(
    tmp_path: Path,
) -> None:
    """A home or runtime directory deep enough that ``<dir>/<key>.sock`` passes a Unix socket
    address's 107 bytes still serves: bound and reached through the directory's descriptor."""
    folder = tmp_path / ("d" * 60) / ("e" * 60)
    folder.mkdir(parents=True)
    path = place.socket_file(folder, "k" * 24)
    assert len(os.fsencode(path)) > 108
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with place.address(path) as at:
            listener.bind(at)
        listener.listen(1)
        assert path.exists()
        sock = place.connect(path, folder, "k" * 24)
        assert sock is not None
        conn, _ = listener.accept()
        place.send(sock, place.STATUS, b"hello")
        assert place.receive(conn) == (place.STATUS, b"hello")
        conn.close()
        sock.close()
    finally:
        listener.close()


def test_a_command_whose_client_gave_up_before_go_does_not_run_in_the_daemon(
    shared: Place,
) -> None:
    """A client that stopped waiting for the daemon's answer runs its command itself; the
    daemon, which had accepted it, must not run it too (an INSERT would happen twice)."""
    out = shared.cwd / "twice.csv"
    args = ["query", "--format", "csv", "-o", str(out), "SELECT 1 AS x"]
    before = _served(shared)
    key = place.key(shared.env, str(shared.cwd))
    folder = Path(shared.env[place.DIR_VAR])
    sock = place.connect(place.socket_file(folder, key), folder, key)
    assert sock is not None
    with sock:
        sock.settimeout(30)
        request = {**client.request(args, key), "cwd": str(shared.cwd), "environ": shared.env}
        place.send(sock, place.REQUEST, json.dumps(request).encode())
        answer = place.receive(sock)
        assert answer is not None and answer[0] == place.ACCEPTED
    # Closed without GO. The daemon is free again and has not run the command.
    deadline = time.monotonic() + 30
    while (shared.status() or {}).get("busy") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _served(shared) == before
    assert not out.exists()
    run = shared.cli("query", "--format", "csv", "SELECT 2 AS y")
    assert (run.code, run.out) == (0, b"y\n2\n"), run.err
    assert _served(shared) == before + 1


def test_the_files_of_daemons_that_ended_long_ago_are_swept(tmp_path: Path) -> None:
    # Every place a daemon ever served left its lock and log (and a socket if it was killed).
    folder = tmp_path / "daemons"
    folder.mkdir(mode=0o700)
    month_ago = time.time() - 30 * 86400

    def files(name: str, *suffixes: str, old: bool = True) -> list[Path]:
        made = []
        for suffix in suffixes:
            path = folder / f"{name}{suffix}"
            path.write_bytes(b"")
            if old:
                os.utime(path, (month_ago, month_ago))
            made.append(path)
        return made

    ended = files("ended", ".lock", ".log", ".sock")
    killed_without_lock = files("nolock", ".log")
    recent = files(
        "recent", ".lock", ".log", old=False
    )  # ended yesterday: its log may still be read
    own = files("own", ".lock", ".log")  # the sweeping daemon's own place
    live = files("live", ".lock", ".log")  # a daemon idle for a month still holds its lock
    other = files("notes", ".txt")
    fd = os.open(live[0], os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        removed = place.sweep(folder, keep="own")
    finally:
        os.close(fd)
    assert sorted(removed) == sorted([*ended, *killed_without_lock])
    assert sorted(folder.iterdir()) == sorted([*recent, *own, *live, *other])


def test_a_daemon_takes_a_lock_file_a_sweep_removed_as_it_opened_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "daemons"
    folder.mkdir(mode=0o700)
    daemon = server.Daemon(lambda args, prog: 0, 60.0)
    daemon.folder, daemon.key = folder, "k"
    lock = place.lock_file(folder, "k")
    lock.write_bytes(b"")
    real_open = os.open
    swept = []

    def open_then_swept(path: object, flags: int, *mode: int) -> int:
        fd = real_open(path, flags, *mode)  # type: ignore[arg-type]
        if path == lock and not swept:
            swept.append(True)
            lock.unlink()  # a sweep removes the file between this open and the flock
        return fd

    monkeypatch.setattr(os, "open", open_then_swept)
    assert daemon.claim()
    assert swept and lock.exists()
    # The lock the daemon holds is the file's: another daemon for the place is refused.
    assert place.held(lock)
    daemon.close()
