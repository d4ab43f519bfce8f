"""The package's build backend: setuptools', after the Maven build of the bundled jar.

A wheel of calcite-bridge is useless without ``calcite_bridge/_jars/calcite-bridge.jar``: the
Python package drives the planner in that jar. So ``pip wheel .``, ``pip install .`` and ``python
-m build`` (which builds the wheel from the sdist, whose ``java/`` sources ``MANIFEST.in`` keeps)
all run ``mvn package`` first when the jar is missing or older than the Java sources, and fail
with a message naming what is missing when Java or Maven is not there. An editable install
(``make build``'s) leaves the jar to the Makefile.
"""

from __future__ import annotations

import shutil
import subprocess
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
    _maven_package(UDF, UDF_BUILT, UDF_PACKAGED, "Spark UDF jar")


def _maven_package(project: Path, built: Path, packaged: Path, what: str) -> None:
    """Runs ``mvn package`` (tests skipped) in ``project`` and copies ``built`` to ``packaged``."""
    mvn = _need("mvn", "Apache Maven")
    command = [mvn, "-B", "-q", "-DskipTests", "package"]
    print(f"calcite-bridge: building the {what}:", " ".join(command), flush=True)
    done = subprocess.run(command, cwd=project, check=False)
    if done.returncode != 0 or not built.is_file():
        raise BuildError(f"The Maven build of the {what} failed (exit code {done.returncode}).")
    packaged.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built, packaged)


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    ensure_jar()
    ensure_udf_jar()
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    # The sdist carries the Java sources, not the jar: the wheel built from it runs Maven.
    return str(_setuptools.build_sdist(sdist_directory, config_settings))
