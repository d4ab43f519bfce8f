"""The package's build backend: setuptools', after the Maven build of the bundled jar.

A wheel of calcite-bridge is useless without ``calcite_bridge/_jars/calcite-bridge.jar``: the
Python package drives the planner in that jar. So ``pip wheel .``, ``pip install .`` and ``python
-m build`` (which builds the wheel from the sdist, whose ``java/`` sources ``MANIFEST.in`` keeps)
all run ``mvn package`` first when the jar is missing or older than the Java sources, and fail
with a message naming what is missing when Java or Maven is not there. An editable install
(``make build``'s) leaves the jar to the Makefile.

The build is kept short: offline when Maven's local repository has everything, tests neither
compiled nor run, a jar already built from the current sources reused, and the two jars built
side by side. pip shows a build backend's output only with ``-v``: the progress lines also go
to the terminal when one is attached, so that ``pip install .`` is never silent for minutes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the hooks this module does not change)

ROOT = Path(__file__).resolve().parents[2]
JAVA = ROOT / "java"
BUILT = JAVA / "target" / "calcite-bridge.jar"
PACKAGED = ROOT / "python" / "calcite_bridge" / "_jars" / "calcite-bridge.jar"
# The second jar: the dynamic-columns functions as Spark UDFs (java-spark-udf/, which compiles
# the codec from java/src/main).
UDF = ROOT / "java-spark-udf"
UDF_BUILT = UDF / "target" / "calcite-bridge-spark-udf.jar"
UDF_PACKAGED = PACKAGED.parent / "calcite-bridge-spark-udf.jar"


class BuildError(RuntimeError):
    """The jar cannot be built here."""


def _newest_source() -> float:
    sources = [JAVA / "pom.xml", *(p for p in (JAVA / "src" / "main").rglob("*") if p.is_file())]
    return max(p.stat().st_mtime for p in sources)


def _jar_is_current() -> bool:
    if not PACKAGED.is_file():
        return False
    if not (JAVA / "pom.xml").is_file():  # an sdist built from a tree that had the jar
        return True
    return PACKAGED.stat().st_mtime >= _newest_source()


def _need(tool: str, what: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise BuildError(
            f"Building calcite-bridge needs {what}, and `{tool}` is not on PATH. "
            "Install a JDK 17 or newer and Apache Maven 3.8 or newer (Debian: "
            "`apt-get install openjdk-17-jdk-headless maven`), or install a published wheel."
        )
    return found


def ensure_jar() -> None:
    """Builds the jar with Maven unless the packaged one is up to date."""
    if _jar_is_current():
        return
    if not (JAVA / "pom.xml").is_file():
        raise BuildError(
            f"The calcite-bridge jar is missing ({PACKAGED}) and there are no Java sources "
            f"({JAVA}) to build it from."
        )
    _need("java", "a Java Development Kit (17 or newer)")
    if BUILT.is_file() and BUILT.stat().st_mtime >= _newest_source():
        _say(f"reusing {BUILT.relative_to(ROOT)}, built from the current sources")
        _copy(BUILT, PACKAGED)
        return
    _maven_package(JAVA, BUILT, PACKAGED, "jar")


def ensure_udf_jar() -> None:
    """Builds the Spark UDF jar with Maven unless the packaged one is up to date (or there are no
    sources for it: an sdist from a tree that had the jar)."""
    if not (UDF / "pom.xml").is_file():
        if not UDF_PACKAGED.is_file():
            raise BuildError(f"The Spark UDF jar is missing ({UDF_PACKAGED}) and has no sources.")
        return
    sources = [UDF / "pom.xml", *(p for p in (UDF / "src").rglob("*") if p.is_file())]
    newest = max(*(p.stat().st_mtime for p in sources), _newest_source())
    if UDF_PACKAGED.is_file() and UDF_PACKAGED.stat().st_mtime >= newest:
        return
    if UDF_BUILT.is_file() and UDF_BUILT.stat().st_mtime >= newest:
        _say(f"reusing {UDF_BUILT.relative_to(ROOT)}, built from the current sources")
        _copy(UDF_BUILT, UDF_PACKAGED)
        return
    _maven_package(UDF, UDF_BUILT, UDF_PACKAGED, "Spark UDF jar")


# Maven's own JVM runs for a minute or two: the client compiler alone starts it faster.
MAVEN_OPTS = "-XX:+TieredCompilation -XX:TieredStopAtLevel=1"
# The lines of Maven's log that say where the build is: a plugin goal starting, the result.
_PROGRESS = re.compile(r"^\[INFO\] (--- |BUILD |Total time|Building )")


def _maven_package(project: Path, built: Path, packaged: Path, what: str) -> None:
    """Runs ``mvn package`` in ``project`` (tests neither compiled nor run) and copies ``built``
    to ``packaged``. Offline first when Maven's local repository exists (no network round trip
    per dependency), online when that fails. Each step is reported on standard error as it
    starts (``pip install -v`` shows them; pip hides a backend's output otherwise)."""
    mvn = _need("mvn", "Apache Maven")
    with _say_lock:
        terminal = _open_terminal()
        if terminal is not None:
            print(
                f"calcite-bridge: building the {what} with Maven, a minute or more; its steps "
                "follow (`pip install -v` shows them in pip's log too)",
                file=terminal,
                flush=True,
            )
    # -T 1C: a thread per core for the plugins that can use them.
    command = [mvn, "-B", "-T", "1C", "-Dmaven.test.skip=true", "package"]
    attempts = [[*command[:2], "-o", *command[2:]], command] if _has_local_repository() else []
    attempts = attempts or [command]
    code = 0
    for i, attempt in enumerate(attempts):
        _say(f"building the {what}: {' '.join(attempt)}")
        code = _run_reporting(attempt, project, what)
        if code == 0 and built.is_file():
            break
        if i + 1 < len(attempts):
            _say(f"the offline build failed (exit code {code}); again with the network")
    if code != 0 or not built.is_file():
        raise BuildError(f"The Maven build of the {what} failed (exit code {code}).")
    _copy(built, packaged)


def _copy(built: Path, packaged: Path) -> None:
    packaged.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built, packaged)


def _has_local_repository() -> bool:
    return (Path.home() / ".m2" / "repository").is_dir()


_say_lock = threading.Lock()
_terminal: Any = None
_terminal_tried = False


def _open_terminal() -> Any:
    """The controlling terminal, when standard error is not it (pip captures a backend's
    output and shows it only with ``-v``); None without one, or when
    ``CALCITE_BRIDGE_BUILD_QUIET`` is set."""
    global _terminal, _terminal_tried
    if not _terminal_tried:
        _terminal_tried = True
        if not os.environ.get("CALCITE_BRIDGE_BUILD_QUIET") and not sys.stderr.isatty():
            try:
                _terminal = open("/dev/tty", "w")  # kept open for the build
            except OSError:
                _terminal = None
    return _terminal


def _say(text: str) -> None:
    with _say_lock:
        print(f"calcite-bridge: {text}", file=sys.stderr, flush=True)
        terminal = _open_terminal()
        if terminal is not None:
            try:
                print(f"calcite-bridge: {text}", file=terminal, flush=True)
            except OSError:
                pass


def _run_reporting(command: list[str], cwd: Path, what: str) -> int:
    """Runs Maven, printing its progress lines with the seconds since it began; the whole log
    is printed when it fails."""
    env = dict(os.environ)
    env.setdefault("MAVEN_OPTS", MAVEN_OPTS)
    began = time.monotonic()
    log: list[str] = []
    with subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    ) as maven:
        assert maven.stdout is not None
        for raw in maven.stdout:
            line = raw.rstrip("\n")
            log.append(line)
            if _PROGRESS.match(line):
                _say(f"[{time.monotonic() - began:5.0f} s] {what}: {line[7:]}")
        code = maven.wait()
    if code != 0:
        print("\n".join(log[-200:]), file=sys.stderr, flush=True)
    return code


def _build_jars() -> None:
    """Builds both jars side by side (two Maven processes: each is mostly single-threaded)."""
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(ensure_jar), pool.submit(ensure_udf_jar)]
        for job in jobs:
            job.result()
    if time.monotonic() - began > 5:
        _say(f"the jars are built ({time.monotonic() - began:.0f} s)")


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _build_jars()
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    # The sdist carries the Java sources, not the jar: the wheel built from it runs Maven.
    return str(_setuptools.build_sdist(sdist_directory, config_settings))
