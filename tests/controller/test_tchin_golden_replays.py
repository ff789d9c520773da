"""Golden Tchin Tchin replays: each file in tests/replays/tchin replays to its expected lines, byte for byte."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from controller import replay

HERE = Path(__file__).resolve().parents[1] / "replays" / "tchin"
GAMES = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def expected(path: Path) -> str:
    return path.with_name(path.stem + ".expected.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_golden_replay_gives_the_expected_decisions(path: Path) -> None:
    out = io.StringIO()
    replay.main(str(path), out)
    assert out.getvalue() == expected(path)


def test_there_are_golden_replays() -> None:
    assert len(GAMES) >= 6


def test_clinkbox_replay_command_prints_the_same_lines() -> None:
    path = HERE / "seed_example.jsonl"
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=HERE.parents[2], check=True)
    assert done.stdout == expected(path)
