"""The players' rules pages: every house rule is named as such and points at a test that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs" / "rules").glob("*.md"))
TEST_NAME = re.compile(r"`(test_[A-Za-z0-9_]+)`")


def defined_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").rglob("*.py"):
        names |= set(re.findall(r"^\s*(?:async\s+)?def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return names


def house_rules(page: Path) -> list[str]:
    """Each house rule's paragraph: from its 'House rule' mark to the next bullet or heading."""
    text = page.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"House rule", text):
        end = re.search(r"\n(?:- |#|\n)", text[m.end():])
        out.append(text[m.start(): m.end() + (end.start() if end else len(text))])
    return out


def test_there_is_a_rules_page_per_game():
    assert {p.stem for p in PAGES} >= {"tchin-tchin", "cheers", "goblets"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_house_rule_names_a_test(page):
    rules = house_rules(page)
    assert rules, f"{page.name} names no house rule"
    missing = [r[:80] for r in rules if not TEST_NAME.search(r)]
    assert not missing, f"house rules without a test in {page.name}: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_test_a_rules_page_names_exists(page):
    named = set(TEST_NAME.findall(page.read_text(encoding="utf-8")))
    assert named, f"{page.name} names no test"
    assert sorted(named - defined_tests()) == []
