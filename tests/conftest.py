"""Shared fixtures: one JVM for the whole run, a fresh Environment per test.

The API tests run on both transports: ``jpype`` (the JVM in this process) and ``py4j`` (a
gateway in another process, started once for the run). A test about the in-process JVM itself
says so with ``@pytest.mark.jpype_only(reason=...)`` and runs on ``jpype`` alone.
"""

from __future__ import annotations

import functools
import gc
import os
import re
import secrets
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.helpers import golden as golden_plans

import calcite_bridge as cb

# A suite started in the background of a shell that is not interactive (`make test &`) gets
# SIGINT ignored, and so would every process it starts: a test that stops its child with SIGINT
# (test_interrupt, test_gateway, test_startup) would then wait for it forever. Python's own
# handler again here; a child started from this process gets SIGINT's default action.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The suite's CLI subprocesses run each command in its own process and start no daemon (a test
# suite would otherwise leave warm JVMs behind); test_cli_daemon.py sets its own.
os.environ["CALCITE_BRIDGE_DAEMON"] = "0"

TRANSPORTS = ("jpype", "py4j")
GATEWAY_TOKEN = secrets.token_urlsafe(16)
ROOT = Path(__file__).resolve().parent.parent

EMP_DDL = """CREATE TABLE emp (
    id INT NOT NULL,
    name STRING,
    salary DOUBLE,
    addr ROW<city STRING, zip INT>,
    tags ARRAY<STRING>,
    props MAP<STRING, STRING>,
    bonus AS salary * 0.1
) WITH ('connector' = 'memory')"""

EMP_INSERT = """INSERT INTO emp (id, name, salary, addr, tags, props) VALUES
    (1, 'ann', 100.0, ROW('Paris', 75), ARRAY['a', 'b'], MAP['k', 'v1', 'level', 'senior']),
    (2, 'bob', 40.0, ROW('Lyon', 69), ARRAY['c'], MAP['k', 'v2']),
    (3, 'cy', 80.0, NULL, NULL, NULL)"""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the golden plans in tests/golden/ instead of comparing with them",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "jpype_only(reason): about the in-process JVM; runs on the jpype transport alone",
    )
    config.addinivalue_line(
        "markers", "golden: compares optimized plans with tests/golden/ (`make golden` rewrites)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "transport" not in metafunc.fixturenames:
        return
    only = metafunc.definition.get_closest_marker("jpype_only")
    if only is not None and not only.kwargs.get("reason"):
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: jpype_only needs a reason=")
    metafunc.parametrize("transport", ["jpype"] if only else TRANSPORTS, indirect=True)


# The longest test files, started first: `make test` runs the suite in two processes
# (pytest-xdist, a file per process at a time, in collection order), so the file that takes a
# quarter of the run (the sqllogictest files) goes to one process at the start while the other
# works through the rest, instead of starting last and running alone.
LONGEST_FIRST = ("tests/test_logic.py",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: the order within and among the other files is kept


# Seconds each test file took (setup, call and teardown of its tests), summed in the process
# that reports (the controller under pytest-xdist): the run's summary lists the slowest files,
# which is what balancing two processes and keeping `make test` short needs to know.
FILE_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = report.nodeid.split("::", 1)[0]
    FILE_SECONDS[path] = FILE_SECONDS.get(path, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FILE_SECONDS:
        return
    slowest = sorted(FILE_SECONDS.items(), key=lambda kv: -kv[1])[:15]
    total = sum(FILE_SECONDS.values())
    terminalreporter.write_sep("=", f"slowest test files ({total:.0f} s in all tests)")
    for path, seconds in slowest:
        terminalreporter.write_line(f"{seconds:8.1f} s  {path}")


@pytest.fixture
def transport(request: pytest.FixtureRequest) -> str:
    """The transport under test: ``jpype`` or ``py4j``."""
    return str(request.param)


@pytest.fixture(scope="session")
def gateway_token() -> str:
    """The token of the gateway that ``gateway_address`` starts."""
    return GATEWAY_TOKEN


@pytest.fixture(scope="session")
def gateway_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``HOST:PORT`` of a gateway process (``calcite-bridge gateway``), shared by the run."""
    folder = tmp_path_factory.mktemp("gateway")
    (folder / "token").write_text(GATEWAY_TOKEN)
    (folder / "token").chmod(0o600)  # a token file others may read is refused
    with (folder / "stderr").open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "calcite_bridge", "gateway", "--token-file", "token"],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            cwd=folder,
        )
    assert proc.stdout is not None
    found = re.search(r"listening on (\S+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"the gateway did not start: {(folder / 'stderr').read_text()}")
    try:
        yield found.group(1)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


@pytest.fixture
def connect(transport: str, request: pytest.FixtureRequest) -> Callable[..., cb.Environment]:
    """``cb.connect`` for the transport under test (takes ``config=`` as ``cb.connect`` does).

    A test module that checks Calcite's engine itself (its plans, its operators) says
    ``BACKEND = "enumerable"``; the environments it gets run every query there. Whether the
    other backends give the same answers is the differential tests' job (tests/differential/).
    """
    backend = getattr(request.module, "BACKEND", None)
    extra = {} if backend is None else {"backend": backend}
    if transport == "jpype":
        return functools.partial(cb.connect, **extra)
    address = request.getfixturevalue("gateway_address")
    return functools.partial(cb.connect, gateway=address, token=GATEWAY_TOKEN, **extra)


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, dict[str, str]], None]:
    """``golden(fixture, plans)``: checks the plans of a fixture file's cases (name to plan)
    against ``tests/golden/``, or rewrites the file under ``--update-golden``."""
    return functools.partial(golden_plans.check, request.config)


@pytest.fixture
def env(connect: Callable[..., cb.Environment]) -> Iterator[cb.Environment]:
    """A new, empty Environment; every test gets its own catalog and config."""
    e = connect()
    yield e
    e.close()


@pytest.fixture
def emp_env(env: cb.Environment) -> cb.Environment:
    """An Environment holding the ``emp`` table of the demo, with three rows."""
    env.execute(EMP_DDL)
    env.execute(EMP_INSERT)
    return env


@pytest.fixture(scope="session", autouse=True)
def _release_arrow_buffers() -> Iterator[None]:
    # Arrow results point into JVM memory: free them before the interpreter (and the JVM) exits.
    yield
    gc.collect()
