"""What the README shows a newcomer runs as shown: its replay example, its commands, its make targets."""

from __future__ import annotations

import re
from pathlib import Path

from controller import replay
from controller.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = [ROOT / "README.md", ROOT / "wiring.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_replay_example_is_a_replay_file_that_plays():
    [example] = re.findall(r"```json\n(.*?)```", README, re.DOTALL)
    header, inputs = replay.load(example.splitlines(), "README.md")
    events: list[dict] = []
    replay.run(header, inputs, events.append)
    assert [(e["event"], e.get("station")) for e in events if e["event"] in ("correct", "win")] == \
        [("correct", 3), ("win", 3)]


def test_every_command_in_the_readme_exists():
    [block] = re.findall(r"## Commands\n\n```\n(.*?)```", README, re.DOTALL)
    commands = {m.group(1) for m in re.finditer(r"^clinkbox ([a-z-]+)", block, re.MULTILINE)}
    known = set(re.findall(r"^    ([a-z-]+) ", build_parser().format_help(), re.MULTILINE))
    assert commands and commands <= known, commands - known


def test_every_make_target_the_docs_name_exists():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z0-9-]+):", makefile, re.MULTILINE))
    named = {t for doc in DOCS if doc.name != "speech-lab.md"
             for t in re.findall(r"`make ([a-z0-9-]+)", doc.read_text(encoding="utf-8"))}
    assert named and named <= targets, named - targets
