"""bench/results.json: every benchmark merges its own keys into one file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results.json"


def merge(values: dict[str, Any], path: Path = RESULTS) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = json.loads(path.read_text())
        except ValueError:
            data = {}
    data.update(values)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return data
