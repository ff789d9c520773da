"""No replay file gives a traceback, a hang or unbounded memory: a seeded fuzzer mutates the
golden replays (values, bytes, lines), and the known troublemakers are tried one by one.
Every outcome is either a played game or a ReplayError that names the file and the line.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller import replay
from controller.replay import ReplayError
from controller.replay_file import MAX_INPUTS, MAX_LINE_BYTES

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = [p for p in sorted((ROOT / "tests" / "replays").glob("*/*.jsonl")) if not p.name.endswith(".expected.jsonl")]
NASTY: list[Any] = [99, 0, -1, 2**62, 10**18, 1.5, -0.0, True, False, None, "", "x", "ZZ9", "\ud800", 1e308, -1e308,
                    [], {}, [1, 2], [[[]]], {"a": 1}, ["D24", 5], {"1": 5}, {"x": "FR"}, {"A": [1, 1]},
                    ["mint"] * 5, {"type": ["pour"]}, {"type": "pour", "seat": [1]}, {"type": None}]
NAMED = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+): \S")


def mutate(rng: random.Random, obj: Any) -> Any:
    """Replace, delete or reach into one value somewhere in ``obj``."""
    if isinstance(obj, dict) and obj:
        key = rng.choice(list(obj))
        if isinstance(obj[key], (dict, list)) and obj[key] and rng.random() < 0.6:
            mutate(rng, obj[key])
        elif rng.random() < 0.1:
            del obj[key]
        else:
            obj[key] = copy.deepcopy(rng.choice(NASTY))
    elif isinstance(obj, list) and obj:
        i = rng.randrange(len(obj))
        if isinstance(obj[i], (dict, list)) and obj[i] and rng.random() < 0.6:
            mutate(rng, obj[i])
        else:
            obj[i] = copy.deepcopy(rng.choice(NASTY))
    return obj


def play_file(path: Path) -> tuple[int, str]:
    """``clinkbox replay`` in this process: (exit code, what it said)."""
    out = io.StringIO()
    try:
        return replay.main(str(path), out), out.getvalue()
    except ReplayError as exc:
        return 2, str(exc)


def assert_named(path: Path, code: int, said: str) -> None:
    if code == 0:
        for line in said.splitlines():
            json.loads(line)  # every decision is a JSON line
        return
    m = NAMED.match(said)
    assert m and m["file"] == str(path), f"not named by file and line: {said!r}"


@pytest.mark.parametrize("seed", range(4))
def test_mutated_values_in_golden_replays_are_played_or_named(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    for k in range(60):
        golden = rng.choice(GOLDEN)
        lines = [json.loads(x) for x in golden.read_text(encoding="utf-8").splitlines() if x.strip()]
        for _ in range(rng.randrange(1, 4)):
            mutate(rng, lines[0 if rng.random() < 0.5 else rng.randrange(len(lines))])
        path = tmp_path / f"{seed}-{k}.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8", errors="surrogatepass")
        assert_named(path, *play_file(path))


BYTES = [b"\xff", b"\x00", b"\xc3", b"\xed\xa0\x80", b"[" * 5000, b"{", b"}", b"\n", b"9" * 5000, b"1e999",
         b"NaN", b"-Infinity", b'"\\ud800"', b"\r", b" " * 100]


@pytest.mark.parametrize("seed", range(3))
def test_mutated_bytes_in_golden_replays_are_played_or_named(tmp_path: Path, seed: int) -> None:
    rng = random.Random(1000 + seed)
    for k in range(60):
        data = bytearray(rng.choice(GOLDEN).read_bytes())
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(data) + 1)
            roll = rng.random()
            if roll < 0.4:
                data[at:at] = rng.choice(BYTES)
            elif roll < 0.7:
                del data[at:at + rng.randrange(1, 40)]
            elif roll < 0.85:
                data = data[:at]
            else:
                lines = data.split(b"\n")
                rng.shuffle(lines)
                data = bytearray(b"\n".join(lines))
        path = tmp_path / f"b{seed}-{k}.jsonl"
        path.write_bytes(bytes(data))
        assert_named(path, *play_file(path))


TCHIN = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
         "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24", "D08"], "first": 1}
CHEERS = json.loads((ROOT / "tests/replays/cheers/actions_and_cheers.jsonl").read_text().splitlines()[0])
GOBLETS = json.loads((ROOT / "tests/replays/goblets/base_four.jsonl").read_text().splitlines()[0])


@pytest.mark.parametrize("header,field", [
    ({**TCHIN, "players": 99}, "'players'"),
    ({**TCHIN, "first": 9}, "first"),
    ({**TCHIN, "first": [1]}, "'first'"),
    ({**TCHIN, "deck": ["ZZ9"]}, "deck"),
    ({**TCHIN, "deck": "D24"}, "'deck'"),
    ({**TCHIN, "characters": {"1": "FR", "2": "FR", "3": "MX", "4": "RU"}}, "character"),
    ({**TCHIN, "characters": [1]}, "'characters'"),
    ({**TCHIN, "options": {"pre_s": -1}}, "pre_s"),
    ({**CHEERS, "teams": {"A": [1, 1], "B": [2, 4]}}, "team"),
    ({**CHEERS, "goals": {"A": ["grenadine", "mint", "lemon", "cassis", "curacao"]}}, "goal"),
    ({**CHEERS, "players": 99}, "'players'"),
    ({**GOBLETS, "host": 9}, "host"),
    ({**GOBLETS, "goblets": {"1": ["x"]}}, "goblets"),
    ({**TCHIN, "seed": 10**30}, "64 bits"),
    ({**TCHIN, "deck": ["\ud800"]}, "surrogate"),
])
def test_a_header_the_game_refuses_is_an_error_on_line_one_naming_the_field(tmp_path, header, field):
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps(header) + '\n{"t": 1, "press": 1}\n', encoding="utf-8")
    code, said = play_file(path)
    assert code == 2 and said.startswith(f"{path}:1: ") and field in said, said


@pytest.mark.parametrize("line,message", [
    (b'{"t": 1, "press": 1}\xff\n', "not UTF-8 text (byte 0xff"),
    (b"[" * 60_000 + b"\n", "nested more than"),
    (b'{"t": 1, "press": ' + b"9" * 5000 + b"}\n", "not usable JSON"),
    (b'{"t": ' + b"9" * 400 + b', "press": 1}\n', "beyond 64 bits in 't'"),
    (b'{"t": 1e308, "press": 1}\n', "'t' must be a number of seconds from 0 to 1000000"),
    (b'{"t": 1e999, "press": 1}\n', "not finite (inf) in 't'"),
    (b'{"t": NaN, "press": 1}\n', "not finite (nan) in 't'"),
    (b'{"t": 1, "say": "prost", "end": Infinity}\n', "not finite"),
    (b'{"t": 1, "say": "\\ud800", "end": 1.2}\n', "lone surrogate"),
    (b'{"t": 1, "do": {"type": ["pour"], "seat": 1}}\n', "'do' needs a 'type' that is a string"),
    (b'{"t": 1, "press": 1, "at": 0.5}\n', "'at'"),
    (b'{"t": 1, "say": "prost", "end": 1.2, "confidence": 7}\n', "'confidence'"),
    (b'{"t": 1, "do": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}\n", "nested more than 32"),
    (b'{"t": 1, "do": {"type": "x", "v": [' + b"0," * 5000 + b"0]}}\n", "JSON values on one line"),
    (b'{"t": 1, "press": 1, "pad": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n', "a line longer than"),
])
def test_each_known_troublemaker_is_a_named_error(tmp_path, line, message):
    for game in (TCHIN, GOBLETS):
        path = tmp_path / "t.jsonl"
        path.write_bytes(json.dumps(game).encode() + b"\n" + line)
        code, said = play_file(path)
        assert code == 2 and said.startswith(f"{path}:2: ") and message in said, said


def test_a_goblets_action_with_odd_values_is_refused_by_the_game_not_raised(tmp_path):
    path = tmp_path / "g.jsonl"
    odd = [{"type": "pour", "seat": [1], "token": {"x": 1}, "goblet": "one"}, {"type": "toast", "seat": None},
           {"type": "swap", "seat": 1, "goblets": [[1], [2]]}, {"type": "pour"}]
    path.write_text("\n".join([json.dumps(GOBLETS), *(json.dumps({"t": i + 1, "do": d}) for i, d in enumerate(odd))]))
    code, said = play_file(path)
    assert code == 0 or NAMED.match(said), said


def cli(args: list[str], cwd: Path, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """The real command, with a 1 GiB address-space cap and a guard against a hang."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, preexec_fn=cap, check=False)


def test_audio_lines_read_only_regular_files_of_a_stated_size(tmp_path):
    fifo = tmp_path / "fifo.wav"
    os.mkfifo(fifo)
    big = tmp_path / "big.wav"
    with big.open("wb") as f:
        f.truncate(200 * 2**20)  # sparse: no disk used, but too big to be read
    (tmp_path / "folder.wav").mkdir()
    lines = [json.dumps(TCHIN)]
    cases = ["/dev/zero", "/dev/urandom", str(fifo), str(big), "folder.wav"]
    for n, audio in enumerate(cases):
        path = tmp_path / f"a{n}.jsonl"
        path.write_text("\n".join([*lines, json.dumps({"t": 1, "audio": audio})]) + "\n")
        out = cli(["replay", str(path)], tmp_path)
        assert out.returncode == 2 and out.stderr.startswith(f"clinkbox replay: {path}:2: "), out.stderr
        assert "Traceback" not in out.stderr
        assert "not a regular file" in out.stderr or "folder" in out.stderr or "at most" in out.stderr, out.stderr


def test_a_replay_path_that_is_a_fifo_a_folder_or_stdin_garbage_never_hangs(tmp_path):
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path):
        out = cli(["replay", str(target)], tmp_path)
        assert out.returncode == 2 and str(target) in out.stderr and "Traceback" not in out.stderr, out.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    piped = subprocess.run([sys.executable, "-m", "controller.cli", "replay", "-"], input=b"\xff\xfe[[[\n",
                           capture_output=True, env=env, timeout=60, check=False)
    assert piped.returncode == 2 and b"stdin:1: not UTF-8" in piped.stderr


def test_the_most_inputs_allowed_play_within_a_bounded_memory_and_one_more_is_refused(tmp_path):
    """Memory cannot grow with the file: at most MAX_INPUTS inputs are played (here under a
    1 GiB address-space cap), one more is a named error."""
    for count, code in ((MAX_INPUTS - 1, 0), (MAX_INPUTS + 1, 2)):
        path = tmp_path / f"long{count}.jsonl"
        lines = [json.dumps({"game": "tchin-tchin", "seed": 3, "players": 8})]
        lines += [json.dumps({"t": round(0.01 * (i + 1), 3), ("press", "release")[i % 2]: 1 + (i // 2) % 8})
                  for i in range(count)]
        path.write_text("\n".join(lines) + "\n")
        out = cli(["replay", str(path)], tmp_path, timeout=300)
        assert out.returncode == code and "Traceback" not in out.stderr, out.stderr
        if code:
            assert f"{path}:{MAX_INPUTS + 2}: more than {MAX_INPUTS} inputs" in out.stderr


def test_a_deal_the_header_fixed_for_a_later_course_is_named_on_line_one_when_the_game_gets_there(tmp_path):
    golden = (ROOT / "tests/replays/goblets/characters_b.jsonl").read_text().splitlines()
    header = json.loads(golden[0])
    header["goblets"]["2"] = []  # course 2's goblets: not a deal at all
    path = tmp_path / "later.jsonl"
    path.write_text("\n".join([json.dumps(header), *golden[1:]]) + "\n")
    code, said = play_file(path)
    assert code == 2 and said.startswith(f"{path}:1: ") and "goblets for course 2" in said, said


def test_a_byte_order_mark_from_an_editor_is_read_past(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(TCHIN).encode() + b'\n{"t": 1, "press": 1}\n')
    code, said = play_file(path)
    assert code == 0 and '"event": "start"' in said
