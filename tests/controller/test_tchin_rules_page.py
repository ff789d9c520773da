"""docs/rules/tchin-tchin.md: every house rule names a test, and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules" / "tchin-tchin.md"


def test_every_test_the_rules_page_names_exists() -> None:
    names = set(re.findall(r"`(test_[a-z0-9_]+)`", PAGE.read_text(encoding="utf-8")))
    defined = set()
    for path in (ROOT / "tests").rglob("test_tchin_*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)", path.read_text(encoding="utf-8"), re.MULTILINE))
    assert names and not names - defined, f"named but missing: {sorted(names - defined)}"


def test_every_house_rule_names_its_test() -> None:
    items = re.split(r"\n(?=- |\n)", PAGE.read_text(encoding="utf-8"))
    house = [i for i in items if "House rule" in i and not i.lstrip().startswith("Rules marked")]
    assert len(house) >= 15
    for item in house:
        assert re.search(r"`test_[a-z0-9_]+`", item), f"house rule without a test: {item[:80]!r}"
