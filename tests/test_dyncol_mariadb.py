"""Differential tests of the dynamic-columns functions against a real MariaDB server.

Every expression of ``fixtures/dyncol_cases.sql`` runs on a private MariaDB server (Debian's
``mariadb-server``, started here on 127.0.0.1 with its own data directory) and on calcite-bridge;
the results must agree value for value, blobs compared as hex, errors by MariaDB's message.
"""

from __future__ import annotations

import datetime as dt
import decimal
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb

CASES_FILE = "dyncol_cases.sql"


def _binary(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin:/sbin")


class MariaDB:
    """A throw-away MariaDB server on 127.0.0.1 and a port of its own."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="dyncol-mariadb-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        datadir = self.dir / "data"
        subprocess.run(
            [
                _binary("mariadb-install-db") or "mariadb-install-db",
                "--no-defaults",
                f"--datadir={datadir}",
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
            ],
            check=True,
            capture_output=True,
        )
        args = [
            _binary("mariadbd") or "mariadbd",
            "--no-defaults",
            f"--datadir={datadir}",
            f"--socket={self.dir / 'mariadb.sock'}",
            f"--pid-file={self.dir / 'mariadb.pid'}",
            f"--log-error={self.dir / 'error.log'}",
            f"--port={self.port}",
            "--bind-address=127.0.0.1",
            "--skip-grant-tables",
            "--character-set-server=utf8mb4",
            "--collation-server=utf8mb4_general_ci",
        ]
        if os.geteuid() == 0:
            import pwd

            args.append(f"--user={pwd.getpwuid(0).pw_name}")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            ok, _, _ = self.query("SELECT 1")
            if ok:
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = (self.dir / "error.log").read_text(errors="replace")
                self.stop()
                raise RuntimeError(f"MariaDB did not start:\n{log[-3000:]}")
            time.sleep(0.2)

    def query(self, sql: str) -> tuple[bool, str, str]:
        """Runs one statement; (succeeded, first value as text, error message)."""
        p = subprocess.run(
            [
                _binary("mariadb") or "mariadb",
                "--no-defaults",
                "--protocol=TCP",
                "-h127.0.0.1",
                f"-P{self.port}",
                "--default-character-set=utf8mb4",
                "-N",
                "-B",
                "-r",
                "-e",
                sql,
            ],
            check=False,
            capture_output=True,
            timeout=30,
        )
        if p.returncode != 0:
            err = p.stderr.decode("utf-8", "replace").strip()
            # "ERROR 1921 (22007) at line 1: Illegal value ..."
            return False, "", err.split(": ", 1)[-1]
        return True, p.stdout.decode("utf-8", "replace").rstrip("\n"), ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def mariadb() -> Iterator[MariaDB]:
    missing = [b for b in ("mariadbd", "mariadb-install-db", "mariadb") if _binary(b) is None]
    if missing:
        msg = (
            f"MariaDB binaries not found ({', '.join(missing)}); install Debian's "
            "mariadb-server and mariadb-client to run the dynamic-columns differential tests"
        )
        if os.environ.get("CI"):
            pytest.fail(msg + " (CI is set: these tests must run)")
        pytest.skip(msg)
    server = MariaDB()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def bridge() -> Iterator[cb.Environment]:
    e = cb.connect()
    yield e
    e.close()


def _bridge_value(env: cb.Environment, expr: str) -> tuple[bool, object, str]:
    try:
        rows = env.execute(f"SELECT {expr}").fetchall()
    except cb.Error as e:
        return False, None, str(e)
    assert len(rows) == 1
    return True, rows[0][0], ""


def _same(ours: object, theirs: str) -> bool:  # noqa: PLR0911
    """Whether our value is what MariaDB printed."""
    if ours is None:
        return theirs == "NULL"
    if isinstance(ours, bytes):
        return ours.hex().upper() == theirs
    if isinstance(ours, bool):
        return str(int(ours)) == theirs
    if isinstance(ours, float):
        try:
            return float(theirs) == ours
        except ValueError:
            return False
    if isinstance(ours, decimal.Decimal):
        return decimal.Decimal(theirs) == ours and str(ours) == theirs
    if isinstance(ours, dt.datetime):
        return ours == dt.datetime.fromisoformat(theirs)
    if isinstance(ours, dt.date):
        return ours.isoformat() == theirs
    if isinstance(ours, dt.time):
        return ours == dt.time.fromisoformat(theirs)
    return str(ours) == theirs


CASES = [case.sql for case in load_cases(CASES_FILE, one_per_line=True)]


def test_fixture_has_dozens_of_cases() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("expr", CASES)
def test_same_as_mariadb(mariadb: MariaDB, bridge: cb.Environment, expr: str) -> None:
    ok, ours, our_error = _bridge_value(bridge, expr)
    if ok and isinstance(ours, bytes):
        m_ok, theirs, their_error = mariadb.query(f"SELECT HEX({expr})")
    else:
        m_ok, theirs, their_error = mariadb.query(f"SELECT {expr}")
    if not m_ok:
        assert not ok, f"MariaDB fails with {their_error!r}, we return {ours!r}"
        assert their_error in our_error, f"{their_error!r} not in {our_error!r}"
        return
    assert ok, f"we fail with {our_error!r}, MariaDB returns {theirs!r}"
    if isinstance(ours, bytes) and not expr.startswith("COLUMN_GET"):
        # MariaDB's blob must read back here, ours in MariaDB.
        assert theirs == ours.hex().upper(), f"ours {ours.hex().upper()} != MariaDB {theirs}"
        back_ok, back, _ = mariadb.query(f"SELECT COLUMN_CHECK(X'{ours.hex()}')")
        assert (back_ok and back in ("1", "NULL")) or ours == b"", back
    elif isinstance(ours, bytes):
        assert theirs == ours.hex().upper(), f"ours {ours.hex().upper()} != MariaDB {theirs}"
    else:
        assert _same(ours, theirs), f"ours {ours!r} != MariaDB {theirs!r}"


def test_blob_written_by_mariadb_reads_here(mariadb: MariaDB, bridge: cb.Environment) -> None:
    ok, blob_hex, err = mariadb.query(
        "SELECT HEX(COLUMN_CREATE('color', 'red', 'size', 10, 'price', 9.99,"
        " 'when', DATE '2024-05-01', 'inner', COLUMN_CREATE('x', 1.5e0)))"
    )
    assert ok, err
    ok, ours, err = _bridge_value(
        bridge,
        f"COLUMN_JSON(X'{blob_hex}')",
    )
    assert ok, err
    ok, theirs, err = mariadb.query(f"SELECT COLUMN_JSON(X'{blob_hex}')")
    assert ok, err
    assert ours == theirs
    ok, size, err = _bridge_value(bridge, f"COLUMN_GET(X'{blob_hex}', 'size' AS INT) * 2")
    assert ok and size == 20, err
