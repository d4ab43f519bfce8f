"""Installs the wheel in dist/ into a new virtual environment outside the repository and checks
it as a user would: the README's runnable examples, a CLI call, and the start-up time once the
first start has written its class-data-sharing archive. ``make wheel-check`` runs it (CI too).

Prints one JSON line with the start-up figures; exits non-zero on the first failure.
"""

from __future__ import annotations

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


def main() -> None:
    wheels = sorted((ROOT / "dist").glob("calcite_bridge-*.whl"))
    if not wheels:
        sys.exit("no wheel in dist/: run `make wheel` first")
    wheel = wheels[-1]
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
