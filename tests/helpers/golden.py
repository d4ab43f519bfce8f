"""Golden plans: the optimized plan of every case of a fixture file, kept in ``tests/golden/``.

``tests/golden/<fixture>.plan`` holds, in case order, ``-- name: <case>`` followed by the text
of ``env.explain(sql)``. A check fails on any difference with a unified diff per case;
``pytest --update-golden`` (``make golden``) writes the files instead.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

_NAME = re.compile(r"^-- name: (\S+)$")
# Text that changes from run to run and is no part of the plan: identity hashes of objects.
_VOLATILE = [(re.compile(r"@[0-9a-f]{6,16}\b"), "@<id>")]


def normalise(plan: str, replace: dict[str, str] | None = None) -> str:
    """The plan without trailing blanks or volatile text; ``replace`` maps text (e.g. a
    temporary path) to a stable placeholder."""
    for old, new in (replace or {}).items():
        plan = plan.replace(old, new)
    for pattern, repl in _VOLATILE:
        plan = pattern.sub(repl, plan)
    return "\n".join(line.rstrip() for line in plan.strip().splitlines())


def render(fixture: str, plans: dict[str, str]) -> str:
    head = [
        f"# Optimized plans of the cases of tests/fixtures/{fixture}, in case order.",
        "# Written by `make golden`; review the diff before committing.",
    ]
    body = [f"-- name: {name}\n{plan}\n" for name, plan in plans.items()]
    return "\n".join(head) + "\n\n" + "\n".join(body)


def parse(text: str) -> dict[str, str]:
    """The sections of a golden file, by case name, in file order."""
    plans: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        found = _NAME.match(line)
        if found:
            current = plans.setdefault(found.group(1), [])
        elif current is not None:
            current.append(line)
        elif line.strip() and not line.startswith("#"):
            raise ValueError(f"plan text before the first '-- name:': {line!r}")
    return {name: "\n".join(lines).strip() for name, lines in plans.items()}


def golden_path(fixture: str) -> Path:
    return GOLDEN / (Path(fixture).stem + ".plan")


def check(config: pytest.Config, fixture: str, plans: dict[str, str]) -> None:
    """Compares ``plans`` (case name to plan) with the golden file of ``fixture``, or rewrites
    the file under ``--update-golden``."""
    path = golden_path(fixture)
    plans = {name: normalise(plan) for name, plan in plans.items()}
    if config.getoption("update_golden"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(fixture, plans), encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make golden` to write it")
    want = parse(path.read_text(encoding="utf-8"))
    rel = f"tests/golden/{path.name}"
    problems = []
    for name in [*want, *(n for n in plans if n not in want)]:
        expected, got = want.get(name), plans.get(name)
        if expected == got:
            continue
        diff = difflib.unified_diff(
            [] if expected is None else expected.splitlines(),
            [] if got is None else got.splitlines(),
            fromfile=f"{rel} [{name}]" + ("" if expected is not None else " (not in the file)"),
            tofile=f"plan of {name}" + ("" if got is not None else " (no such case any more)"),
            lineterm="",
        )
        problems.append("\n".join(diff))
    if not problems and list(want) != list(plans):
        problems.append(f"the cases are in another order than in {rel}")
    if problems:
        count = len(problems)
        pytest.fail(
            f"{count} plan(s) differ from {rel} (run `make golden` to accept them):\n\n"
            + "\n\n".join(problems),
            pytrace=False,
        )
