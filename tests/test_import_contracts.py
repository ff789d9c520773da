"""The dependency rule: controller imports models and hardware; models and hardware import
neither controller nor each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"models": {"controller", "hardware"}, "hardware": {"controller", "models"}}


def imported_packages(path: Path) -> set[tuple[int, str]]:
    """(line, top-level package) of every import in a source file, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {(node.lineno, alias.name.split(".")[0]) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: stays inside its own package
                continue
            if node.module:
                out.add((node.lineno, node.module.split(".")[0]))
    return out


def violations(root: Path) -> list[str]:
    found = []
    for package, banned in FORBIDDEN.items():
        for path in sorted((root / package).rglob("*.py")):
            for line, top in imported_packages(path):
                if top in banned:
                    found.append(f"{path.relative_to(root)}:{line} imports {top}")
    return found


def test_models_and_hardware_import_neither_controller_nor_each_other():
    assert violations(ROOT) == []


@pytest.mark.parametrize("package,target", [("models", "controller"), ("models", "hardware"),
                                            ("hardware", "controller"), ("hardware", "models")])
def test_the_contract_check_fails_on_a_forbidden_import(tmp_path, package, target):
    for p in ("models", "hardware", "controller"):
        (tmp_path / p).mkdir()
        (tmp_path / p / "__init__.py").write_text("")
    bad = tmp_path / package / "sneaky.py"
    bad.write_text(f"import os\nfrom {target}.thing import x\n")
    assert violations(tmp_path) == [f"{package}/sneaky.py:2 imports {target}"]


def test_the_contract_check_allows_controller_to_import_both(tmp_path):
    for p in ("models", "hardware", "controller"):
        (tmp_path / p).mkdir()
    (tmp_path / "controller" / "app.py").write_text("import models.base\nfrom hardware import buttons\n")
    assert violations(tmp_path) == []
