"""bench/results.json: every benchmark merges its own keys into one file."""

from __future__ import annotations

import json
from collections.abc import Sequence
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


def share(xs: Sequence[bool | float], digits: int = 3) -> float | None:
    """The mean of ``xs`` rounded as the results files write it (``None`` for no values):
    the share of right toasts, of false accepts, of one toast's clips heard."""
    return round(float(sum(xs)) / len(xs), digits) if len(xs) else None
