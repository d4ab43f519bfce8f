"""The sandbox (docs/security.md): ``filesystem.allowed-paths``, ``external-access`` and the
lock that freezes them, on both transports and every backend of each.

The escape attempts are the cases of tests/fixtures/sandbox_escapes.sql, one attempt each; the
tests here run them, then check what a user of the sandbox sees otherwise: tables inside it work
as before, settings are checked, a locked configuration stays locked, and DuckDB's own databases
reach no file the environment forbids.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb
from calcite_bridge import _duckdb
from calcite_bridge.sources.filesystem import TMP_PREFIX

KEYS = {"expect", "match", "before", "setup", "plant"}
CASES = load_cases("sandbox_escapes.sql", keys=KEYS)
ERRORS: dict[str, type[cb.Error]] = {
    "AccessDeniedError": cb.AccessDeniedError,
    "ConfigError": cb.ConfigError,
    "SourceError": cb.SourceError,
}
SECRET_ROWS = [(42,)]


def build(root: Path) -> dict[str, str]:
    """The tree of the fixture file's header under ``root``; its placeholders."""
    allowed, secret, sibling = root / "allowed", root / "secret", root / "allowed_sibling"
    for d in (allowed / "data", allowed / "nested" / "deeper", allowed / "parts", secret, sibling):
        d.mkdir(parents=True)
    pq.write_table(
        pa.table({"a": pa.array([1, 2], pa.int64())}), allowed / "data" / "part-0.parquet"
    )
    pq.write_table(pa.table({"a": pa.array([1], pa.int64())}), allowed / "one.parquet")
    pq.write_table(pa.table({"a": pa.array([42], pa.int64())}), secret / "secret.parquet")
    pq.write_table(pa.table({"a": pa.array([43], pa.int64())}), sibling / "x.parquet")
    (secret / "secret.csv").write_text("line\nthe secret\n")
    links = {
        "link_file.parquet": secret / "secret.parquet",
        "link_dir": secret,
        "rel_link": Path("..") / "secret",
        "chain2": secret,
        "chain1": allowed / "chain2",
        "sib_link": sibling,
        "slash": Path("/"),
        "passwd_link": Path("/etc/passwd"),
        "parts/k=1": secret,
        "nested/deeper/escape": secret / "secret.parquet",
    }
    for name, target in links.items():
        (allowed / name).symlink_to(target)
    return {"root": str(root), "allowed": str(allowed), "secret": str(secret)}


def fingerprint(*dirs: Path) -> dict[str, str]:
    """Every file under ``dirs`` with a digest of its bytes (links as their targets)."""
    out = {}
    for d in dirs:
        for path in sorted(d.rglob("*")):
            if path.is_symlink():
                out[str(path)] = "-> " + os.readlink(path)
            elif path.is_file():
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[str(path)] = "dir"
    return out


def backends(transport: str) -> list[str | None]:
    """The backends a query runs on: Calcite's engine, and ``auto``, which runs on DuckDB what
    its translation covers (a gateway's clients run every plan on Calcite's engine)."""
    return ["enumerable", "auto"] if transport == "jpype" else [None]


@pytest.fixture
def sandboxed(
    connect: Callable[..., cb.Environment], tmp_path: Path
) -> Iterator[tuple[cb.Environment, dict[str, str]]]:
    """An environment before its sandbox is set, and the fixture tree's placeholders."""
    env = connect()
    yield env, build(tmp_path)
    env.close()


def _run(env: cb.Environment, sql: str, backend: str | None) -> list[tuple[object, ...]]:
    if sql.lstrip().upper().startswith(("SELECT", "WITH")):
        return env.sql(sql, backend=backend).fetchall()
    return env.execute(sql).fetchall()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_escape_attempt(
    case: SqlCase,
    sandboxed: tuple[cb.Environment, dict[str, str]],
    transport: str,
) -> None:
    env, where = sandboxed
    root = Path(where["root"])
    outside = fingerprint(root / "secret", root / "allowed_sibling")
    for sql in case.all("before"):
        env.execute(sql.format(**where))
    env.config.set("filesystem.allowed-paths", where["allowed"])
    env.lock_config()
    for sql in case.all("setup"):
        env.execute(sql.format(**where))
    for plant in case.all("plant"):
        link, target = (part.strip() for part in plant.split("->"))
        if (root / link).is_dir() and not (root / link).is_symlink():
            (root / link).rmdir()
        elif (root / link).exists():
            (root / link).unlink()
        (root / link).symlink_to(root / target)
    sql = case.sql.format(**where)
    expect = case.get("expect")
    for backend in backends(transport):
        with pytest.raises(ERRORS[str(expect)]) as raised:
            _run(env, sql, backend)
        assert (case.get("match") or "") in str(raised.value), case.where
        assert "42" not in str(raised.value)  # no secret value in a message
    assert fingerprint(root / "secret", root / "allowed_sibling") == outside


def test_the_fixture_file_holds_at_least_50_attempts() -> None:
    assert len(CASES) >= 50
    assert {c.get("expect") for c in CASES} <= set(ERRORS)


# --- inside the sandbox, everything works ---------------------------------------------------------


def test_tables_inside_the_allowed_directories_work(
    sandboxed: tuple[cb.Environment, dict[str, str]], transport: str
) -> None:
    env, where = sandboxed
    env.config.set("filesystem.allowed-paths", [where["allowed"], "/nonexistent/elsewhere"])
    env.lock_config()
    allowed = where["allowed"]
    env.execute(
        "CREATE TABLE t (a BIGINT, n STRING METADATA FROM 'file.name' VIRTUAL, "
        "size BIGINT METADATA FROM 'file.size' VIRTUAL) "
        f"WITH ('connector' = 'filesystem', 'path' = '{allowed}/data')"
    )
    env.execute(
        "CREATE TABLE w (a BIGINT) WITH ('connector' = 'filesystem', "
        f"'path' = '{allowed}/w', 'sink.create-path' = 'true')"
    )
    env.execute("INSERT INTO w SELECT a * 10 FROM t")
    size = os.path.getsize(f"{allowed}/data/part-0.parquet")
    for backend in backends(transport):
        assert sorted(env.sql("SELECT a FROM t", backend=backend).fetchall()) == [(1,), (2,)]
        assert env.sql("SELECT DISTINCT n, size FROM t", backend=backend).fetchall() == [
            ("part-0.parquet", size)
        ]
        assert env.sql("SELECT SUM(a) AS s FROM w", backend=backend).fetchall() == [(30,)]
        assert env.sql("SELECT COUNT(*) AS c FROM t", backend=backend).fetchall() == [(2,)]
    (written,) = os.listdir(f"{allowed}/w")
    assert written.startswith("part-") and written.endswith(".parquet")


def test_an_allowed_directory_named_through_a_link_and_links_that_stay_inside(
    sandboxed: tuple[cb.Environment, dict[str, str]], transport: str, tmp_path: Path
) -> None:
    env, where = sandboxed
    real = Path(where["allowed"]) / "data"
    (real / "inner").symlink_to(real / "part-0.parquet")  # a link that stays inside
    (real / ".hidden").symlink_to(Path(where["secret"]))  # skipped by readers: not checked
    alias = tmp_path / "alias"
    alias.symlink_to(real)
    env.config.set("filesystem.allowed-paths", str(alias))
    env.lock_config()
    env.execute(f"CREATE TABLE t (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{alias}')")
    for backend in backends(transport):
        rows = env.sql("SELECT a FROM t", backend=backend).fetchall()
        assert sorted(rows) == [(1,), (1,), (2,), (2,)]  # the file, and once more by its link


def test_an_unconfined_environment_reads_anywhere(
    sandboxed: tuple[cb.Environment, dict[str, str]], transport: str
) -> None:
    env, where = sandboxed
    assert env.config.get("filesystem.allowed-paths") == []
    env.execute(
        "CREATE TABLE s (a BIGINT) WITH ('connector' = 'filesystem', "
        f"'path' = '{where['allowed']}/link_file.parquet')"
    )
    for backend in backends(transport):
        assert env.sql("SELECT a FROM s", backend=backend).fetchall() == SECRET_ROWS


# --- settings and the lock ------------------------------------------------------------------------


def test_settings_are_listed_with_their_defaults(env: cb.Environment) -> None:
    settings = env.config.to_dict()
    assert settings["filesystem.allowed-paths"] == ""
    assert settings["external-access"] == "true"
    assert settings["lock-config"] == "false"
    assert settings["python.allowed-modules"] == ""
    shown = dict(env.execute("SET").fetchall())
    assert {
        k: shown[k] for k in ("filesystem.allowed-paths", "external-access", "lock-config")
    } == {
        "filesystem.allowed-paths": "",
        "external-access": "true",
        "lock-config": "false",
    }


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("filesystem.allowed-paths", "relative/dir", "expected absolute directory paths"),
        ("filesystem.allowed-paths", "file:///data", "no URIs"),
        ("filesystem.allowed-paths", "/ok;../up", "'../up'"),
        ("external-access", "no", "allowed values: true, false"),
        ("lock-config", "yes", "allowed values: true, false"),
    ],
)
def test_bad_values_are_refused_when_set(
    env: cb.Environment, key: str, value: str, message: str
) -> None:
    with pytest.raises(cb.ConfigError, match=message.replace("(", r"\(")):
        env.execute(f"SET '{key}' = '{value}'")
    with pytest.raises(cb.ConfigError):
        env.config.set(key, value)


def test_unlocked_settings_change_from_sql(env: cb.Environment, tmp_path: Path) -> None:
    env.execute(f"SET 'filesystem.allowed-paths' = '{tmp_path};/data/'")
    assert env.config.get("filesystem.allowed-paths") == [str(tmp_path), "/data/"]
    env.execute("SET 'external-access' = 'FALSE'")
    assert env.config.get("external-access") == "false"
    env.execute("RESET 'external-access'")
    env.execute("SET 'python.allowed-modules' = 'tests.helpers'")
    env.execute("RESET")
    assert env.config.get("filesystem.allowed-paths") == []
    assert env.config.get("python.allowed-modules") == []


LOCKED_CHANGES = [
    "SET 'python.allowed-modules' = 'os;subprocess;builtins'",
    "SET 'filesystem.allowed-paths' = ''",
    "SET 'external-access' = 'true'",
    "SET 'lock-config' = 'false'",
    "RESET 'python.allowed-modules'",
    "RESET 'filesystem.allowed-paths'",
    "RESET 'external-access'",
    "RESET 'lock-config'",
    "RESET",
]


@pytest.mark.parametrize("how", ["connect", "sql", "method", "config"])
def test_a_locked_configuration_refuses_every_change_of_the_security_settings(
    connect: Callable[..., cb.Environment], tmp_path: Path, how: str
) -> None:
    settings = {"filesystem.allowed-paths": str(tmp_path), "python.allowed-modules": "tests"}
    if how == "connect":
        # lock-config first in the mapping: it is still applied last
        env = connect(config={"lock-config": "true", **settings})
    else:
        env = connect(config=settings)
        if how == "sql":
            env.execute("SET 'lock-config' = 'true'")
        elif how == "method":
            env.lock_config()
        else:
            env.config.set("lock-config", "true")
    try:
        for sql in LOCKED_CHANGES:
            with pytest.raises(cb.ConfigError, match=r"The configuration is locked") as raised:
                env.execute(sql)
            assert "for the life of this environment" in str(raised.value)
        for key in ("python.allowed-modules", "filesystem.allowed-paths", "external-access"):
            with pytest.raises(cb.ConfigError, match="locked"):
                env.config.set(key, "false" if key == "external-access" else "/")
            with pytest.raises(cb.ConfigError, match="locked"):
                env.config.reset(key)
        with pytest.raises(cb.ConfigError, match="locked"):
            env.config.reset()
        # Nothing changed; locking again is allowed, and other settings still change.
        assert env.config.get("filesystem.allowed-paths") == [str(tmp_path)]
        assert env.config.get("python.allowed-modules") == ["tests"]
        assert env.config.get("lock-config") == "true"
        env.execute("SET 'lock-config' = 'true'")
        env.execute("SET 'table.local-time-zone' = 'Europe/Paris'")
        env.execute("RESET 'table.local-time-zone'")
    finally:
        env.close()


def test_connect_takes_lock_config(connect: Callable[..., cb.Environment]) -> None:
    env = connect(config={"external-access": "false"}, lock_config=True)
    try:
        assert env.config.get("lock-config") == "true"
        with pytest.raises(cb.ConfigError, match="locked"):
            env.execute("SET 'external-access' = 'true'")
    finally:
        env.close()


def test_each_environment_has_its_own_lock(connect: Callable[..., cb.Environment]) -> None:
    locked = connect(lock_config=True)
    free = connect()
    try:
        free.execute("SET 'python.allowed-modules' = 'tests.helpers'")
        assert free.config.get("python.allowed-modules") == ["tests.helpers"]
        assert locked.config.get("python.allowed-modules") == []
    finally:
        locked.close()
        free.close()


# --- external access ------------------------------------------------------------------------------


def test_external_access_off_refuses_the_file_and_python_connectors(
    sandboxed: tuple[cb.Environment, dict[str, str]], transport: str
) -> None:
    env, where = sandboxed
    env.config.set("python.allowed-modules", "tests.helpers")
    data = f"{where['allowed']}/data"
    env.execute(f"CREATE TABLE f (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{data}')")
    env.execute(
        "CREATE TABLE p (id INT, name STRING) WITH ('connector' = 'python', "
        "'class' = 'tests.helpers.sink:MetadataSink')"
    )
    assert env.sql("SELECT COUNT(*) AS c FROM p").fetchall()[0][0] >= 0
    env.execute("SET 'external-access' = 'false'")
    env.lock_config()
    for connector, options in (
        ("filesystem", f"'path' = '{where['allowed']}/data'"),
        ("python", "'class' = 'tests.helpers.sink:MetadataSink'"),
    ):
        sql = f"CREATE TABLE n (a BIGINT) WITH ('connector' = '{connector}', {options})"
        with pytest.raises(cb.AccessDeniedError, match=f"The '{connector}' connector is off") as e:
            env.execute(sql)
        assert (e.value.line, e.value.column) == (1, 1)
        assert "'external-access' = 'false'" in str(e.value)
    # Tables made before are refused at every use.
    for backend in backends(transport):
        for sql in ("SELECT a FROM f", "SELECT COUNT(*) AS c FROM f", "SELECT id FROM p"):
            with pytest.raises(cb.AccessDeniedError, match="connector is off"):
                env.sql(sql, backend=backend).fetchall()
    with pytest.raises(cb.AccessDeniedError, match="connector is off"):
        env.execute("INSERT INTO f VALUES (3)")
    # Memory tables and registered Arrow data are the application's own, and keep working.
    env.execute("CREATE TABLE m (a INT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO m VALUES (1)")
    assert env.sql("SELECT a FROM m").fetchall() == [(1,)]
    assert sorted(os.listdir(f"{where['allowed']}/data")) == ["part-0.parquet"]


# --- DuckDB's own databases -------------------------------------------------------------------


@pytest.mark.jpype_only(reason="DuckDB runs in the process that reads the results")
def test_duckdb_of_a_confined_environment_reaches_only_the_allowed_directories(
    sandboxed: tuple[cb.Environment, dict[str, str]],
) -> None:
    env, where = sandboxed
    allowed = where["allowed"]
    env.config.set("filesystem.allowed-paths", allowed)
    env.lock_config()
    env.execute(
        f"CREATE TABLE t (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{allowed}/data')"
    )
    plan = env.explain("SELECT a FROM t WHERE a > 1", backend="duckdb")
    assert "read_parquet" not in plan  # the scan is handed over at run time, not planned as SQL
    assert env.sql("SELECT a FROM t WHERE a > 1", backend="duckdb").fetchall() == [(2,)]
    database = _duckdb._databases[((os.path.join(os.path.realpath(allowed), ""),), 0)]
    cursor = database.connection.cursor()
    try:
        settings = dict(
            cursor.execute(
                "SELECT name, value FROM duckdb_settings() WHERE name IN "
                "('enable_external_access', 'lock_configuration')"
            ).fetchall()
        )
        assert settings == {"enable_external_access": "false", "lock_configuration": "true"}
        import duckdb

        for sql in (
            f"SELECT * FROM read_parquet('{where['secret']}/secret.parquet')",
            f"SELECT * FROM read_parquet('{allowed}/link_file.parquet')",  # DuckDB resolves it too
            f"SELECT * FROM read_parquet('{allowed}/../secret/secret.parquet')",
            "SELECT * FROM read_csv('/etc/passwd')",
            f"COPY (SELECT 1) TO '{where['secret']}/out.csv'",
        ):
            with pytest.raises(duckdb.PermissionException):
                cursor.execute(sql)
        with pytest.raises(duckdb.Error, match="locked"):
            cursor.execute("SET enable_external_access = true")
    finally:
        cursor.close()
    assert sorted(os.listdir(where["secret"])) == ["secret.csv", "secret.parquet"]


@pytest.mark.jpype_only(reason="DuckDB runs in the process that reads the results")
def test_duckdb_reaches_no_file_for_a_query_that_reads_none(env: cb.Environment) -> None:
    env.register_arrow("t", pa.table({"a": [1, 2]}))
    assert env.sql("SELECT SUM(a) AS s FROM t", backend="duckdb").fetchall() == [(3,)]
    cursor = _duckdb._databases[((), 0)].connection.cursor()
    try:
        import duckdb

        with pytest.raises(duckdb.PermissionException):
            cursor.execute("SELECT * FROM read_csv('/etc/passwd')")
    finally:
        cursor.close()


# --- files the project did not create -----------------------------------------------------


@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_create_and_insert_never_touch_files_they_did_not_create(
    env: cb.Environment, tmp_path: Path, fmt: str
) -> None:
    # Files a user may well have: our old temporary names, and today's prefix too.
    users = {
        ".tmp-123-notes.txt": b"mine",
        ".tmp-draft": b"draft",
        f"{TMP_PREFIX}0-user.{fmt}": b"also mine",
        "_README": b"readme",
    }
    for name, data in users.items():
        (tmp_path / name).write_bytes(data)
    env.execute(
        f"CREATE TABLE t (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', "
        f"'format' = '{fmt}')"
    )
    env.execute("INSERT INTO t VALUES (1), (2)")
    env.execute(
        "CREATE TABLE t2 (a BIGINT) WITH ('connector' = 'filesystem', "
        f"'path' = '{tmp_path}', 'format' = '{fmt}')"
    )
    assert sorted(env.sql("SELECT a FROM t2").fetchall()) == [(1,), (2,)]
    for name, data in users.items():
        assert (tmp_path / name).read_bytes() == data, name
    made = [n for n in os.listdir(tmp_path) if n not in users]
    assert len(made) == 1 and made[0].startswith("part-"), made


def test_a_failing_insert_removes_only_its_own_temporary_file(
    env: cb.Environment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from calcite_bridge.sources.filesystem import FileSystemSource

    (tmp_path / ".tmp-1-x.parquet").write_bytes(b"mine")
    env.execute(
        f"CREATE TABLE t (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}')"
    )
    seen: list[str] = []

    def failing(self: FileSystemSource, table: pa.Table, fh: object) -> None:
        seen.append(str(getattr(fh, "name", "")))
        raise OSError("disk full")

    monkeypatch.setattr(FileSystemSource, "_write_file", failing)
    with pytest.raises(cb.SourceError, match="disk full"):
        env.execute("INSERT INTO t VALUES (1)")
    (tmp,) = seen
    name = os.path.basename(tmp)
    assert name.startswith(".calcite-bridge-tmp-") and len(name) > len(".calcite-bridge-tmp-") + 30
    assert sorted(os.listdir(tmp_path)) == [".tmp-1-x.parquet"]


# --- the command line and the Java API ----------------------------------------------------------


def test_the_cli_takes_the_sandbox_settings(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "calcite-bridge"
    secret = tmp_path / "secret"
    secret.mkdir()
    pq.write_table(pa.table({"a": pa.array([42], pa.int64())}), secret / "s.parquet")
    (tmp_path / "allowed").mkdir()
    catalog = tmp_path / "catalog.sql"
    catalog.write_text(
        f"CREATE TABLE s (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{secret}');\n"
    )
    base = [str(cli), "query", "--catalog", str(catalog)]
    confined = [
        "--set",
        f"filesystem.allowed-paths={tmp_path / 'allowed'}",
        "--set",
        "lock-config=true",
    ]
    run = subprocess.run(
        [*base, *confined, "SELECT a FROM s"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 1, run.stdout
    assert "AccessDeniedError" in run.stderr and "filesystem.allowed-paths" in run.stderr
    run = subprocess.run(
        [*base[:2], *confined, "SET 'filesystem.allowed-paths' = '/'"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1 and "The configuration is locked" in run.stderr, run.stderr
    run = subprocess.run([*base, "SELECT a FROM s"], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "42" in run.stdout, run.stderr


def test_a_setting_applies_from_the_next_statement_and_within_a_script(
    sandboxed: tuple[cb.Environment, dict[str, str]], transport: str
) -> None:
    env, where = sandboxed
    allowed, secret = where["allowed"], f"{where['secret']}/secret.parquet"
    env.execute(f"CREATE TABLE s (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{secret}')")
    env.execute(
        f"CREATE TABLE t (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{allowed}/data')"
    )
    assert env.sql("SELECT a FROM s").fetchall() == SECRET_ROWS  # read once: the sandbox is kept
    env.execute(f"SET 'filesystem.allowed-paths' = '{allowed}'")
    with pytest.raises(cb.AccessDeniedError):
        env.sql("SELECT a FROM s").fetchall()
    env.config.reset("filesystem.allowed-paths")
    assert env.sql("SELECT a FROM s").fetchall() == SECRET_ROWS
    script = (
        "SELECT COUNT(*) FROM t;\n"  # reads the sandbox before the SET
        f"SET 'filesystem.allowed-paths' = '{allowed}';\n"
        f"CREATE TABLE u (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '{secret}');\n"
    )
    with pytest.raises(cb.AccessDeniedError):
        env.execute_script(script)
    assert "u" not in env.tables()
    env.execute("SET 'external-access' = 'false'")
    with pytest.raises(cb.AccessDeniedError, match="connector is off"):
        env.sql("SELECT a FROM t").fetchall()


def test_real_paths_with_wildcards_are_not_handed_to_duckdb(tmp_path: Path) -> None:
    from calcite_bridge.sources.base import ScanRequest
    from calcite_bridge.sources.parquet_files import parquet_files

    schema = pa.schema([("a", pa.int64())])
    pq.write_table(pa.table({"a": pa.array([1], pa.int64())}), tmp_path / "x[1].parquet")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.parquet").symlink_to(tmp_path / "x[1].parquet")
    files = parquet_files(str(tmp_path / "d"), schema, ScanRequest(columns=("a",)), [".", "_"])
    assert files is not None and files.resolved() is None


def test_a_python_table_stops_when_its_module_leaves_the_allowed_list(env: cb.Environment) -> None:
    env.config.set("python.allowed-modules", "tests.helpers")
    env.execute(
        "CREATE TABLE p (id INT, name STRING) WITH ('connector' = 'python', "
        "'class' = 'tests.helpers.sink:MetadataSink')"
    )
    env.execute("INSERT INTO p VALUES (1, 'a')")
    env.config.set("python.allowed-modules", "tests.other")
    env.lock_config()
    with pytest.raises(cb.AccessDeniedError, match=r"no longer in 'python\.allowed-modules'"):
        env.sql("SELECT id FROM p").fetchall()
    with pytest.raises(cb.AccessDeniedError, match="no longer"):
        env.execute("INSERT INTO p VALUES (2, 'b')")
