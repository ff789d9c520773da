"""A really full card: a small tmpfs filled to the last byte (needs root to mount it; skipped
where mounting is not allowed). SQLite's own "database or disk is full" is tested without it
in test_journal.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from controller.flow import Input
from controller.journal import Journal

HEADER = {"game": "tchin-tchin", "seed": 7, "players": 4, "options": {}}


@pytest.fixture
def small_card(tmp_path: Path):
    card = tmp_path / "card"
    card.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(card)], capture_output=True, check=False).returncode == 0
    if not mounted:
        pytest.skip("mounting a small tmpfs needs root and a kernel that allows it")
    try:
        yield card
    finally:
        subprocess.run(["umount", "-l", str(card)], check=False)


def fill(card: Path) -> None:
    fd = os.open(card / "photos.bin", os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    os.write(fd, b"\1" * size)
            except OSError:
                pass
    finally:
        os.close(fd)


def test_a_game_whose_inputs_went_to_memory_on_a_full_card_is_cut_short_not_offered_for_resume(small_card):
    path = small_card / "journal.sqlite3"
    j = Journal(path, watch=True)
    gid = j.start_game(HEADER)
    j.append(gid, Input(0.5, "press", station=1))
    fill(small_card)  # someone's photos take the rest of the card
    k = 0
    while j.problem is None and k < 100_000:
        k += 1
        j.append(gid, Input(1.0 + k * 0.001, "press", station=1 + k % 4))
    assert j.problem is not None and "full" in j.problem, "the table is told"
    assert len(j.load(gid).inputs) == k + 1, "every input kept, in memory"
    j.close()

    again = Journal(path, watch=True)  # the next start, the card still full
    assert again.in_progress() is None, "not offered for resume with inputs missing"
    assert again.games() == [(gid, "tchin-tchin", "cut short")]
    assert len(again.load(gid).inputs) >= 1, "what reached the card is still there to export"
