"""``clinkbox run --script`` hears a script's ``audio`` lines through the file-backed microphone:
the real box (a subprocess), the real listener and toast spotter, the real journal."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from speech_clips import say  # noqa: E402

from controller.journal import Journal  # noqa: E402
from controller.script_feed import ScriptError, ScriptFeeder  # noqa: E402
from hardware.speech.audio import write_wav  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"game": "tchin-tchin", "seed": 12, "players": 4,
          "options": {"events": False, "pre_s": 1.0, "window_s": 2.5, "veto_s": 3.0},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D08"], "first": 1}


def script(tmp_path: Path, audio: str) -> Path:
    lines = [HEADER, {"t": 0.5, "press": 1}, {"t": 0.6, "release": 1},
             {"t": 1.6, "audio": audio}, {"t": 2.0, "press": 3}, {"t": 2.1, "release": 3}]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def run_box(tmp_path: Path, path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    env.pop("CLINKBOX_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--headless", "--simulate",
                           "--script", str(path), "--seconds", "120"], cwd=tmp_path, env=env,
                          text=True, capture_output=True, timeout=300)


@pytest.fixture(scope="module")
def chin_chin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("script-audio")
    wav = folder / "chin.wav"
    write_wav(wav, say(folder, "flite", "kal", "chin chin"))
    return wav


@pytest.mark.realtime
def test_a_scripted_toast_is_heard_live_decided_and_journaled(tmp_path: Path, chin_chin: Path) -> None:
    (tmp_path / "chin.wav").write_bytes(chin_chin.read_bytes())
    done = run_box(tmp_path, script(tmp_path, "chin.wav"))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [(e["event"], e.get("station"), e.get("word")) for e in events]
    assert ("claim", 3, None) in kinds
    assert ("correct", 3, "tchin tchin") in kinds
    assert events[-1]["event"] == "game_over" and events[-1]["winners"] == [3]
    # the toast heard went into the journal as a real game's would: a say input with its times
    journal = Journal(tmp_path / "share" / "clinkbox" / "journal.sqlite3")
    lines = [json.loads(x) for x in journal.export(1).splitlines()[1:]]
    journal.close()
    said = [x for x in lines if "say" in x]
    assert len(said) == 1 and said[0]["say"] == "tchin tchin"
    # the word starts 0.5 s into the clip played at 1.6 s (game time); the spotter's start is
    # where its voice detector heard the speech begin
    assert 1.9 <= said[0]["t"] <= 2.4 < said[0]["end"] <= 3.3


def test_an_audio_line_that_is_no_regular_file_is_refused_with_its_line(tmp_path: Path) -> None:
    done = run_box(tmp_path, script(tmp_path, "/dev/zero"))
    assert done.returncode == 2
    assert "game.jsonl:4: /dev/zero is not a regular file" in done.stderr


def test_a_script_keeps_its_recordings_for_the_microphone_not_as_toasts(tmp_path: Path,
                                                                      chin_chin: Path) -> None:
    feeder = ScriptFeeder.from_file(script(tmp_path, str(chin_chin)), io.StringIO())
    assert [i.kind for i in feeder.inputs] == ["press", "release", "press", "release"]
    assert [t for t, _ in feeder.recordings] == [1.6]
    with pytest.raises(ScriptError, match=r"game\.jsonl:4: .*nothing\.wav does not exist"):
        ScriptFeeder.from_file(script(tmp_path, "nothing.wav"))
