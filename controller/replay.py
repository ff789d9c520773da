"""``clinkbox replay FILE.jsonl``: a scripted game on a manual clock.

Line 1 is the header (``game``, ``seed``, ``players``, ``options`` plus the
game's own fields); each later line is one input at time ``t`` (seconds from
the start). The decisions come out as JSON lines, the same bytes every time.
After the last input the clock runs on through every pending timer until the
game ends or nothing is pending. A malformed line is a :class:`ReplayError`
naming its line number.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

from controller.flow import NAVS, HeaderError, Input
from controller.games import flow_for
from controller.session import GameSession

INPUT_KINDS = ("press", "release", "nav", "say", "audio", "do")


class ReplayError(ValueError):
    """A replay file that cannot be played; the message starts with ``file:line:``."""


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def parse_header(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise ValueError("the header must be a JSON object")
    for key in ("game", "seed", "players"):
        if key not in obj:
            raise ValueError(f"the header has no {key!r}")
    if not isinstance(obj["game"], str):
        raise ValueError("'game' must be a string")
    if not isinstance(obj["seed"], int) or isinstance(obj["seed"], bool):
        raise ValueError("'seed' must be an integer")
    if not isinstance(obj["players"], int) or isinstance(obj["players"], bool) or obj["players"] < 1:
        raise ValueError("'players' must be a positive integer")
    if not isinstance(obj.get("options", {}), dict):
        raise ValueError("'options' must be an object")
    obj.setdefault("options", {})
    flow_for(obj["game"])  # an unknown game is a header error
    return obj


def parse_input(obj: Any) -> tuple[float, str, Any, dict[str, Any]]:
    if not isinstance(obj, dict):
        raise ValueError("an input line must be a JSON object")
    if "t" not in obj or not _number(obj["t"]) or obj["t"] < 0:
        raise ValueError("'t' must be a number of seconds >= 0")
    kinds = [k for k in INPUT_KINDS if k in obj]
    if len(kinds) != 1:
        raise ValueError(f"exactly one of {', '.join(INPUT_KINDS)} is needed, found {kinds or 'none'}")
    kind = kinds[0]
    allowed = {"t", kind} | ({"end", "confidence", "typed"} if kind == "say" else set())
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ValueError(f"unknown field {extra[0]!r} for a {kind} line")
    value = obj[kind]
    if kind in ("press", "release") and (not isinstance(value, int) or isinstance(value, bool)):
        raise ValueError(f"'{kind}' must be a station number")
    if kind == "nav" and value not in NAVS:
        raise ValueError(f"'nav' must be one of {', '.join(NAVS)}")
    if kind == "say":
        if not isinstance(value, str):
            raise ValueError("'say' must be a string")
        end = obj.get("end", obj["t"])
        if not _number(end) or end < obj["t"]:
            raise ValueError("'end' must be a number no earlier than 't'")
        if not isinstance(obj.get("typed", False), bool):
            raise ValueError("'typed' must be true or false")
    if kind == "audio" and not isinstance(value, str):
        raise ValueError("'audio' must be a WAV file's path")
    if kind == "do" and not isinstance(value, dict):
        raise ValueError("'do' must be an object (a game action)")
    return float(obj["t"]), kind, value, obj


def load(lines: Iterable[str], name: str = "replay", base: Path | None = None,
         recognise: Callable[[Path], list[Any]] | None = None,
         audio: Callable[[float, Path], None] | None = None) -> tuple[dict[str, Any], list[Input]]:
    """Parse a replay file into its header and its inputs (audio already turned into toasts).

    ``audio``, when given, takes each ``audio`` line instead (its ``t`` and the recording's
    path, relative paths resolved against ``base``): the live box plays them through its
    microphone rather than recognising them here.
    """
    header: dict[str, Any] | None = None
    inputs: list[Input] = []
    last_t = 0.0
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{name}:{n}: not valid JSON ({exc.msg})") from None
        try:
            if header is None:
                header = parse_header(obj)
                continue
            t, kind, value, full = parse_input(obj)
            if t < last_t:
                raise ValueError(f"out of time order: t={t} comes after t={last_t}")
            last_t = t
            if kind == "audio" and audio is not None:
                audio(t, _recording_path(value, base))
            elif kind == "audio":
                inputs.extend(_audio_inputs(t, value, base, recognise))
            else:
                from controller.journal import input_from_dict

                inputs.append(input_from_dict(full))
        except (ValueError, HeaderError) as exc:
            raise ReplayError(f"{name}:{n}: {exc}") from None
    if header is None:
        raise ReplayError(f"{name}:1: the file is empty (a header line is needed)")
    inputs.sort(key=lambda i: i.t)  # toasts found in a recording keep their own time
    return header, inputs


def _recording_path(path: str, base: Path | None) -> Path:
    p = Path(path)
    return base / p if not p.is_absolute() and base is not None else p


def _audio_inputs(t: float, path: str, base: Path | None,
                  recognise: Callable[[Path], list[Any]] | None) -> list[Input]:
    p = _recording_path(path, base)
    if not p.exists():
        raise ValueError(f"no such recording: {p}")
    if recognise is None:
        from hardware.speech import recognise_file

        recognise = recognise_file
    out = []
    for heard in recognise(p):
        if heard.toast is None:
            continue
        out.append(Input(round(t + heard.start, 6), "say", word=heard.toast,
                         end=round(t + heard.end, 6), confidence=round(float(heard.confidence), 4)))
    return out


def run(header: dict[str, Any], inputs: list[Input], out: Callable[[dict[str, Any]], None]) -> GameSession:
    """Play the inputs on a manual clock; every decision goes to ``out``."""
    out({"t": 0.0, "event": "start", "game": header["game"], "seed": header["seed"],
         "players": header["players"]})
    session = GameSession(header, sink=out)
    for inp in inputs:
        session.feed(inp, record=False)
    session.run_out()
    return session


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False)


def main(path: str, stdout: TextIO) -> int:
    p = Path(path)
    if path == "-":
        import sys

        header, inputs = load(sys.stdin, "stdin", Path.cwd())
    else:
        if not p.exists():
            raise ReplayError(f"{path}: no such file")
        with p.open(encoding="utf-8") as f:
            header, inputs = load(f, str(p), p.parent)
    run(header, inputs, lambda ev: stdout.write(dumps(ev) + "\n"))
    return 0
