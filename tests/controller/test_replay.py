"""``clinkbox replay``: parsing, timing and byte-for-byte determinism, on a tiny test game."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import flows_for_tests  # noqa: F401  (registers "countdown-test")
import pytest

from controller import replay
from controller.replay import ReplayError

HEADER = '{"game": "countdown-test", "seed": 3, "players": 2, "options": {}}'


def run_text(text: str) -> list[dict]:
    out = io.StringIO()
    header, inputs = replay.load(text.splitlines(), "r.jsonl")
    replay.run(header, inputs, lambda ev: out.write(replay.dumps(ev) + "\n"))
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_header_only_file_is_a_valid_empty_run():
    events = run_text(HEADER)
    assert [e["event"] for e in events] == ["start", "ready"]
    assert all("t" in e for e in events)


def test_timers_run_on_after_the_last_input_until_the_game_ends():
    text = "\n".join([HEADER, '{"t": 1, "press": 1}', '{"t": 1.5, "press": 2}', '{"t": 2.0, "press": 1}'])
    events = run_text(text)
    rings = [(e["t"], e["station"]) for e in events if e["event"] == "ring"]
    assert rings == [(3.0, 1), (3.5, 2), (4.0, 1)]
    assert events[-1] == {"t": 4.0, "event": "game_over"}


def test_inputs_reach_the_flow_at_their_own_time():
    events = run_text("\n".join([HEADER, '{"t": 1, "press": 1}', '{"t": 2.5, "say": "kanpai", "end": 2.9}']))
    assert [(e["event"], e["t"]) for e in events][2:] == [("armed", 1.0), ("ring", 3.0)][:1] + [("heard", 2.5), ("ring", 3.0)]


def test_the_same_file_gives_the_same_bytes(tmp_path):
    f = tmp_path / "g.jsonl"
    f.write_text("\n".join([HEADER, '{"t": 0.5, "press": 2}', '{"t": 0.75, "nav": "ok"}']) + "\n")
    outs = []
    for _ in range(2):
        buf = io.StringIO()
        replay.main(str(f), buf)
        outs.append(buf.getvalue())
    assert outs[0] == outs[1] and '"event": "ring"' in outs[0]


@pytest.mark.parametrize("line,message", [
    ('{"t": 1, "press": 1', "r.jsonl:2: not valid JSON"),
    ('{"press": 1}', "r.jsonl:2: 't' must be a number"),
    ('{"t": -1, "press": 1}', "r.jsonl:2: 't' must be a number of seconds >= 0"),
    ('{"t": 1, "press": 1, "nav": "ok"}', "r.jsonl:2: exactly one of"),
    ('{"t": 1, "jump": 1}', "r.jsonl:2: exactly one of"),
    ('{"t": 1, "press": "one"}', "r.jsonl:2: 'press' must be a station number"),
    ('{"t": 1, "nav": "up"}', "r.jsonl:2: 'nav' must be one of prev, next, ok, back"),
    ('{"t": 1, "say": "prost", "end": 0.5}', "r.jsonl:2: 'end' must be a number no earlier than 't'"),
    ('{"t": 1, "press": 1, "colour": "red"}', "r.jsonl:2: unknown field 'colour'"),
    ('{"t": 1, "do": 5}', "r.jsonl:2: 'do' must be an object"),
    ('[1, 2]', "r.jsonl:2: an input line must be a JSON object"),
])
def test_a_malformed_line_is_an_error_naming_its_line(line, message):
    with pytest.raises(ReplayError) as err:
        run_text(HEADER + "\n" + line)
    assert str(err.value).startswith(message)


def test_a_line_out_of_time_order_is_refused_with_its_line_number():
    with pytest.raises(ReplayError, match=r"r.jsonl:3: out of time order"):
        run_text("\n".join([HEADER, '{"t": 2, "press": 1}', '{"t": 1, "press": 2}']))


@pytest.mark.parametrize("header,message", [
    ('{"seed": 1, "players": 2}', "no 'game'"),
    ('{"game": "chess", "seed": 1, "players": 2}', "unknown game 'chess'"),
    ('{"game": "countdown-test", "seed": "x", "players": 2}', "'seed' must be an integer"),
    ('{"game": "countdown-test", "seed": 1, "players": 0}', "'players' must be a positive integer"),
    ('{"game": "countdown-test", "seed": 1, "players": 2, "options": []}', "'options' must be an object"),
])
def test_a_bad_header_is_an_error_on_line_one(header, message):
    with pytest.raises(ReplayError) as err:
        run_text(header)
    assert str(err.value).startswith("r.jsonl:1: ") and message in str(err.value)


def test_an_empty_file_is_an_error():
    with pytest.raises(ReplayError, match="empty"):
        run_text("")


def test_a_recording_becomes_toasts_at_their_own_time(tmp_path):
    from dataclasses import dataclass

    @dataclass
    class Heard:
        toast: str | None
        start: float
        end: float
        confidence: float

    wav = tmp_path / "clip.wav"
    wav.write_bytes(b"RIFF")
    header, inputs = replay.load(
        [HEADER, '{"t": 1.0, "audio": "clip.wav"}', '{"t": 1.2, "press": 1}'], "r.jsonl", tmp_path,
        recognise=lambda p: [Heard("salud", 0.5, 0.9, 0.8), Heard(None, 1.0, 1.2, 0.1)])
    assert [(i.kind, i.t) for i in inputs] == [("press", 1.2), ("say", 1.5)]
    assert inputs[1].word == "salud" and inputs[1].end == 1.9


def test_a_missing_recording_is_named():
    with pytest.raises(ReplayError, match="r.jsonl:2: no such recording"):
        run_text(HEADER + '\n{"t": 1, "audio": "nowhere.wav"}')


def test_the_cli_reports_errors_on_stderr_with_exit_code_2(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"game": "nope", "seed": 1, "players": 2}\n')
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(f)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "bad.jsonl:1: unknown game 'nope'" in proc.stderr


def _wav(path, rate: int, bits: int, data: bytes) -> None:
    width = max(bits // 8, 1)
    fmt = (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + rate.to_bytes(4, "little") \
        + (rate * width).to_bytes(4, "little") + width.to_bytes(2, "little") + bits.to_bytes(2, "little")
    body = b"WAVE" + b"fmt " + len(fmt).to_bytes(4, "little") + fmt + b"data" \
        + len(data).to_bytes(4, "little") + data
    path.write_bytes(b"RIFF" + len(body).to_bytes(4, "little") + body)


def test_a_recording_path_the_system_cannot_look_up_is_named_with_its_line(tmp_path):
    line = json.dumps({"t": 1, "audio": "a" * 5000 + ".wav"})  # longer than any file name may be
    with pytest.raises(ReplayError, match=r"r\.jsonl:2: recording .*a\.wav cannot be read \(File name too long\)"):
        replay.load([HEADER, line], "r.jsonl", tmp_path)


def test_a_recording_whose_header_says_zero_bit_samples_is_named_with_its_line(tmp_path):
    _wav(tmp_path / "clip.wav", 16000, 0, b"\0" * 64)
    with pytest.raises(ReplayError, match=r"r\.jsonl:2: .*clip\.wav has an unsupported sample size of 0 bits"):
        replay.load([HEADER, '{"t": 1, "audio": "clip.wav"}'], "r.jsonl", tmp_path)


def test_a_recording_of_one_sample_at_48k_holds_no_toast(tmp_path):
    _wav(tmp_path / "clip.wav", 48000, 16, b"\x00\x10")  # one sample: none left once at 16 kHz
    header, inputs = replay.load([HEADER, '{"t": 1, "audio": "clip.wav"}'], "r.jsonl", tmp_path)
    assert inputs == []


def test_a_broken_config_named_for_a_replay_is_reported_and_the_replay_still_played(tmp_path, capsys):
    from controller.cli import main

    bad = tmp_path / "box.toml"
    bad.write_text("[pad]\nok = 4\n")
    game = tmp_path / "game.jsonl"
    game.write_text(HEADER + '\n{"t": 1.0, "press": 1}\n')
    assert main(["--config", str(bad), "replay", str(game)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith('{"t": 0.0, "event": "start"')
    assert f"clinkbox replay: warning: config error: {bad}: GPIO4 is used twice" in err
    assert "a replay does not use the config" in err


def test_a_replay_read_into_a_pipe_that_closes_ends_quietly(tmp_path):
    script = Path(__file__).resolve().parents[1] / "replays" / "tchin" / "dealt_from_seed.jsonl"
    run = subprocess.run(f"'{sys.executable}' -m controller.cli replay '{script}' | head -1", shell=True,
                         capture_output=True, text=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert run.stdout.count("\n") == 1 and '"event": "start"' in run.stdout
    assert "Traceback" not in run.stderr and "could not go on" not in run.stderr, run.stderr
