"""bench/results.json: every benchmark merges its own keys into one file."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results.json"


def merge(values: dict[str, Any], path: Path = RESULTS) -> dict[str, Any]:
    """Write ``values`` into the results file, keeping the other benchmarks' keys. A file that is
    not a JSON object (edited by hand, or cut short by a full disk) is kept aside as ``*.broken``, named on
    stderr, and started afresh: one broken file never stops the benchmarks."""
    data: dict[str, Any] = {}
    if path.exists():
        try:
            loaded: Any = json.loads(path.read_text())
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            data = loaded
        else:
            aside = path.with_name(path.name + ".broken")
            path.replace(aside)
            print(f"{path} was not a JSON object: kept aside as {aside}, started afresh",
                  file=sys.stderr)
    data.update(values)
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    part.replace(path)  # whole or not at all: a benchmark killed here leaves the file as it was
    return data


def share(xs: Sequence[bool | float], digits: int = 3) -> float | None:
    """The mean of ``xs`` rounded as the results files write it (``None`` for no values):
    the share of right toasts, of false accepts, of one toast's clips heard."""
    return round(float(sum(xs)) / len(xs), digits) if len(xs) else None
