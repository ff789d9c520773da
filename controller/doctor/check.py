"""One finding of ``clinkbox doctor``, and the table they are printed in."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

STATUSES = ("PASS", "WARN", "FAIL", "SKIP")


@dataclass(frozen=True)
class Check:
    """What one check found, and what to do about it.

    ``status``: PASS (works), WARN (works, but something will bite), FAIL (does not
    work), SKIP (not checked here, ``detail`` says why).
    """

    name: str
    status: str
    detail: str
    fix: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown check status {self.status!r} (one of {', '.join(STATUSES)})")


def table(checks: list[Check], width: int = 100) -> str:
    """The findings as a plain-text table: status, check, what was found; the fix below it."""
    name_w = min(28, max([len("CHECK"), *(len(c.name) for c in checks)]))
    text_w = max(30, width - name_w - 9)
    lines = [f"{'STATUS':<6}  {'CHECK':<{name_w}}  FOUND / WHAT TO DO", "-" * min(width, 6 + name_w + 4 + text_w)]
    for c in checks:
        found = textwrap.wrap(c.detail, text_w) or [""]
        lines.append(f"{c.status:<6}  {c.name:<{name_w}}  {found[0]}")
        pad = " " * (6 + 2 + name_w + 2)
        lines += [pad + more for more in found[1:]]
        if c.fix and c.status != "PASS":
            fix = textwrap.wrap("fix: " + c.fix, text_w, subsequent_indent="     ")
            lines += [pad + f for f in fix]
    return "\n".join(lines)


def summary(checks: list[Check]) -> str:
    counts = {s: sum(c.status == s for c in checks) for s in STATUSES}
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n)


def all_passed(checks: list[Check]) -> bool:
    """True when nothing that was checked warned or failed (a SKIP is a check not run, and says why)."""
    return all(c.status in ("PASS", "SKIP") for c in checks)
