"""Every module of the box imports first, on its own: no import cycle that only the order of
imports elsewhere hides (``controller.doctor`` and the phones' check once imported each other)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "controller" or m.startswith("controller.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print("\\n".join(failed))
"""


def _modules(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_every_controller_module_imports_first_on_its_own() -> None:
    modules = _modules("controller")
    assert "controller.doctor.phones" in modules and "controller.phones.server" in modules
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *modules], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=True)
    assert done.stdout.strip() == "", f"modules that fail to import first:\n{done.stdout}"
