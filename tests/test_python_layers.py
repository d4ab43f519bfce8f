"""The package's imports: no cycles and the declared layers (tools/check_python_imports.py)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

CHECKER = Path(__file__).resolve().parent.parent / "tools" / "check_python_imports.py"


@pytest.fixture(scope="module")
def checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_python_imports", CHECKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and annotations look the module up
    spec.loader.exec_module(module)
    return module


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root / "pkg"


def test_calcite_bridge_has_no_cycles_and_keeps_its_layers(checker: ModuleType) -> None:
    assert checker.check() == []


def test_a_cycle_through_a_function_local_import_fails(checker: ModuleType, tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg.b import helper\n",
            "b.py": """
                def helper():
                    from pkg import a
                    return a
            """,
        },
    )
    problems = checker.check(package, layers=None)
    assert len(problems) == 1
    assert "import cycle among pkg.a, pkg.b" in problems[0]
    assert checker.main([str(package)]) == 1


def test_type_checking_imports_do_not_count(checker: ModuleType, tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from .b import helper\n",
            "b.py": """
                from typing import TYPE_CHECKING

                if TYPE_CHECKING:
                    from .a import something

                def helper(): ...
            """,
        },
    )
    assert checker.check(package, layers=None) == []
    assert checker.main([str(package)]) == 0


def test_importing_a_submodule_runs_its_package_init(checker: ModuleType, tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": "from pkg.sub.leaf import x\n",
            "sub/__init__.py": "from pkg.sub.user import y\n",
            "sub/leaf.py": "x = 1\n",
            "sub/user.py": "from pkg.low import x as y\n",
        },
    )
    problems = checker.check(package, layers=None)
    assert len(problems) == 1
    assert "pkg.low, pkg.sub, pkg.sub.user" in problems[0]


def test_an_import_of_a_higher_layer_fails(checker: ModuleType, tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": "def f():\n    from . import high\n",
            "high.py": "",
            "stray.py": "from .missing import x\n",
        },
    )
    layers = [("low", ("pkg.low",)), ("high", ("pkg", "pkg.high"))]
    problems = checker.check(package, layers=layers)
    assert any("pkg.low (layer 'low') imports pkg.high (layer 'high')" in p for p in problems)
    assert any("pkg.stray is in no layer" in p for p in problems)
    assert any("imports pkg.missing, no module" in p for p in problems)


def test_a_type_only_import_of_a_higher_layer_fails(checker: ModuleType, tmp_path: Path) -> None:
    # An import under TYPE_CHECKING never runs, so it makes no cycle, but it still ties a lower
    # module to a higher one: the layer order holds for it too, and a downward one is fine.
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": """
                from typing import TYPE_CHECKING

                if TYPE_CHECKING:
                    from .high import Thing
            """,
            "high.py": """
                from typing import TYPE_CHECKING

                if TYPE_CHECKING:
                    from .low import Other
            """,
        },
    )
    layers = [("low", ("pkg.low",)), ("high", ("pkg", "pkg.high"))]
    problems = checker.check(package, layers=layers)
    assert len(problems) == 1, problems
    assert (
        "pkg.low (layer 'low') imports under TYPE_CHECKING pkg.high (layer 'high')" in (problems[0])
    )
