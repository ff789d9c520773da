"""A disputed toast, end to end: a live scripted Tchin Tchin game whose toast (a WAV played
through the file-backed microphone, heard by the real spotter) starts before the claim press
and is recognised after it; the journal's export replays every decision byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from speech_clips import say  # noqa: E402

from hardware.speech.audio import write_wav  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"game": "tchin-tchin", "seed": 12, "players": 4, "options": {"events": False},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D08"], "first": 1}
PRESS = 2.3  # the word in the clip played at 1.6 s starts at about 2.1 s and ends at about 2.6 s


def clinkbox(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    env.pop("CLINKBOX_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=300, check=False)


@pytest.mark.realtime
def test_a_toast_begun_before_the_claim_and_heard_after_it_is_exported_and_replayed_exactly(tmp_path):
    write_wav(tmp_path / "chin.wav", say(tmp_path, "flite", "kal", "chin chin"))
    lines = [HEADER, {"t": 0.5, "press": 1}, {"t": 0.6, "release": 1}, {"t": 1.6, "audio": "chin.wav"},
             {"t": PRESS, "press": 3}, {"t": PRESS + 0.1, "release": 3}]
    (tmp_path / "game.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    live = clinkbox(tmp_path, "run", "--headless", "--simulate", "--script", "game.jsonl", "--seconds", "120")
    assert live.returncode == 0, live.stderr
    decided = [json.loads(x) for x in live.stdout.splitlines()]
    assert [(e["event"], e.get("station")) for e in decided if e["event"] in ("claim", "correct")] == \
        [("claim", 3), ("correct", 3)]

    exported = clinkbox(tmp_path, "journal", "--export", "1")
    assert exported.returncode == 0, exported.stderr
    inputs = [json.loads(x) for x in exported.stdout.splitlines()[1:]]
    claim = next(i for i, x in enumerate(inputs) if x.get("press") == 3)
    toast = next(i for i, x in enumerate(inputs) if "say" in x)
    assert toast > claim, "recognised after the claim press: journaled after it"
    assert inputs[toast]["t"] < PRESS < inputs[toast]["at"], "begun before the press, arrived after it"

    (tmp_path / "export.jsonl").write_text(exported.stdout)
    replayed = clinkbox(tmp_path, "replay", "export.jsonl")
    assert replayed.returncode == 0, replayed.stderr
    again = [json.loads(x) for x in replayed.stdout.splitlines()]
    assert again[0]["event"] == "start" and again[1:] == decided, "the same decisions, byte for byte"
    assert replayed.stdout.splitlines()[1:] == live.stdout.splitlines()
