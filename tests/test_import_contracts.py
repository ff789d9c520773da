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


# -- no import circles -------------------------------------------------------------------

PACKAGES = ("controller", "hardware", "models", "bench")


def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages."""
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the project's modules it imports anywhere in its text (inside functions and
    ``if TYPE_CHECKING:`` too: a circle hidden in a late import is still a circle)."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, round and round (Tarjan's SCCs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_round_a_circle():
    assert circles(import_graph(ROOT)) == []


def test_the_circle_check_finds_a_circle_even_through_a_late_import(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("")
    (tmp_path / "models" / "a.py").write_text("from models.b import x\n")
    (tmp_path / "models" / "b.py").write_text("def f():\n    from models import a\n")
    (tmp_path / "models" / "c.py").write_text("from . import a\n")
    assert circles(import_graph(tmp_path)) == [["models.a", "models.b"]]


# -- the shell knows no game by name -------------------------------------------------------

#: the box's core: it reaches every game through the registry (controller/games/__init__.py)
CORE = ("controller/shell.py", "controller/session.py", "controller/replay.py", "controller/flow.py",
        "controller/screenshots.py", "controller/menu.py", "controller/turns.py",
        "controller/phones/hub.py", "controller/phones/server.py", "controller/phones/pages.py",
        "controller/phones/service.py", "controller/phones/page.html")


def game_names() -> set[str]:
    from controller.games import PACKAGES, built_in

    names = set()
    for package in PACKAGES:
        names |= {package, package.replace("_", " "), package.replace("_", "-")}
    for game in built_in():
        names |= {game.game, game.title}
    return {n.lower() for n in names}


def games_named(root: Path, names: set[str]) -> list[str]:
    found = []
    for entry in CORE:
        for path in [root / entry]:
            for n, line in enumerate(path.read_text(encoding="utf-8").lower().splitlines(), 1):
                found += [f"{path.relative_to(root)}:{n} names {name!r}" for name in sorted(names)
                          if name in line]
    return found


def test_the_box_core_names_no_game():
    assert games_named(ROOT, game_names()) == []


def test_the_game_name_check_fails_on_a_game_named_in_the_shell(tmp_path):
    for entry in CORE:
        (tmp_path / entry).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / entry).write_text("")
    (tmp_path / "controller" / "shell.py").write_text('if game == "tchin-tchin":\n    pass\n')
    assert games_named(tmp_path, game_names()) == ["controller/shell.py:1 names 'tchin-tchin'"]


# -- the rules keep no clock and no global random ----------------------------------------

#: what a rule may not reach for: the clock, the file system, the network, threads
NO_RULES_IMPORT = {"time", "datetime", "os", "io", "socket", "asyncio", "threading", "subprocess",
                   "sqlite3", "pathlib", "logging"}


def impure_rules(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "models").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, top in imported_packages(path):
            if top in NO_RULES_IMPORT:
                found.append(f"{path.relative_to(root)}:{line} imports {top}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "random" and node.attr != "Random":
                found.append(f"{path.relative_to(root)}:{node.lineno} uses the global random.{node.attr}")
    return found


def test_the_rules_use_no_clock_no_io_and_no_global_random():
    assert impure_rules(ROOT) == []


def test_the_purity_check_finds_a_clock_and_a_global_random(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "bot.py").write_text(
        "import random\nimport time\n\ndef pick(xs, rng: random.Random):\n"
        "    t = time.perf_counter()\n    return random.choice(xs)\n")
    assert impure_rules(tmp_path) == ["models/bot.py:2 imports time",
                                      "models/bot.py:6 uses the global random.choice"]


# -- a game lives in its own two packages ---------------------------------------------------

#: modules outside a game's packages that may import them, and why
GAME_IMPORT_EXCEPTIONS = {
    "controller.config": "the config file's [tchin_tchin] section takes its defaults from the rules",
}


def game_packages(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "models").iterdir()
                  if (p / "__init__.py").exists() and (root / "controller" / "games" / p.name).is_dir())


def foreign_game_imports(root: Path) -> list[str]:
    """Imports of a game's packages (``models/<game>``, ``controller/games/<game>``) from
    anywhere else in the box (the benchmarks may time a game's bots)."""
    graph = import_graph(root)
    found = []
    for game in game_packages(root):
        own = (f"models.{game}", f"controller.games.{game}")
        for module, deps in sorted(graph.items()):
            if module.startswith("bench.") or module in GAME_IMPORT_EXCEPTIONS \
                    or any(module == o or module.startswith(o + ".") for o in own):
                continue
            found += [f"{module} imports {d}" for d in sorted(deps)
                      if any(d == o or d.startswith(o + ".") for o in own)]
    return found


def test_a_game_is_reached_only_through_the_registry_and_the_protocol():
    assert game_packages(ROOT) == ["cheers", "goblets", "tchin_tchin"]
    assert foreign_game_imports(ROOT) == []


def test_the_game_import_check_finds_the_shell_reaching_into_a_game(tmp_path):
    for d in ("models/darts", "controller/games/darts", "controller/games", "bench"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
        (tmp_path / d / "__init__.py").write_text("")
    (tmp_path / "hardware").mkdir()
    (tmp_path / "controller" / "__init__.py").write_text("")
    (tmp_path / "models" / "__init__.py").write_text("")
    (tmp_path / "models" / "darts" / "rules.py").write_text("X = 1\n")
    (tmp_path / "controller" / "games" / "darts" / "flow.py").write_text("from models.darts.rules import X\n")
    (tmp_path / "bench" / "darts.py").write_text("from models.darts import rules\n")
    (tmp_path / "controller" / "shell.py").write_text("from controller.games.darts.flow import X\n")
    assert foreign_game_imports(tmp_path) == ["controller.shell imports controller.games.darts.flow"]
