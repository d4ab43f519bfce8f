"""The examples in the README run as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.docs import runnable_blocks, unmarked_blocks

ROOT = Path(__file__).parent.parent
BLOCKS = [(p.name, i, b) for p in [ROOT / "README.md"] for i, b in enumerate(runnable_blocks(p))]


def test_readme_has_runnable_examples() -> None:
    assert BLOCKS


@pytest.mark.parametrize(("name", "index", "code"), BLOCKS, ids=[f"{n}-{i}" for n, i, _ in BLOCKS])
def test_example_runs(name: str, index: int, code: str) -> None:
    exec(compile(code, f"{name}[{index}]", "exec"), {"__name__": "__doc_example__"})


def test_every_python_block_runs_or_says_why_not() -> None:
    # A block without the mark would go untested: mark it, or say why it cannot run alone.
    assert unmarked_blocks(ROOT / "README.md") == []


def _cli_examples() -> list[tuple[str, list[str], str]]:
    """The ``$ calcite-bridge ...`` lines of docs/cli.md's console blocks that a test can run
    as written (one command, no pipe, redirection or file of the reader's own), with the
    output the page shows under each."""
    import re
    import shlex

    text = (ROOT / "docs" / "cli.md").read_text()
    catalog = "--catalog tests/fixtures/cli_catalog.sql"
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ calcite-bridge ") or "$'" in line:
                continue
            command = line[2:].replace("$C", catalog)
            lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
            if any(token in ("|", ">", ">>", "<") for token in lexer):
                continue  # a pipe or a redirection outside quotes
            words = shlex.split(command)[1:]
            if words[0] not in ("explain", "validate", "query", "describe") or "-f" in words:
                continue
            output = []
            for out in lines[i + 1 :]:
                if out.startswith("$ "):
                    break
                output.append(out)
            while output and not output[-1].strip():
                output.pop()
            if output:
                examples.append((line, words, "\n".join(output)))
    return examples


CLI_EXAMPLES = _cli_examples()


def test_cli_page_has_examples_to_check() -> None:
    assert len(CLI_EXAMPLES) >= 5


@pytest.mark.parametrize(
    ("line", "words", "shown"), CLI_EXAMPLES, ids=[e[0][:60] for e in CLI_EXAMPLES]
)
def test_cli_example_prints_what_the_page_shows(
    line: str, words: list[str], shown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from calcite_bridge.cli import main

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    result = CliRunner().invoke(main, words, prog_name="calcite-bridge")
    # Click's output holds stdout and stderr in the order they were written, as a terminal shows
    assert _machine_neutral(result.output.rstrip()) == _machine_neutral(shown)


def _machine_neutral(text: str) -> str:
    """``text`` without what differs between machines: the default of ``execution.threads`` is
    the number of cores."""
    import re

    return re.sub(r"(execution\.threads\s*│\s*)\d+ *", r"\1N ", text)


def test_docs_show_no_path_of_the_checkout_they_were_written_in() -> None:
    # Output pasted from a developer's machine (doctor's paths) would show this checkout's path.
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        assert str(ROOT) not in page.read_text(), page.name
