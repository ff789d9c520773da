"""Reading a replay file: every line checked, every limit stated, nothing trusted.

A replay file comes from anyone with a dispute, so no input may give a traceback,
a hang or unbounded memory: each problem is a :class:`ReplayError` whose message
starts ``file:line:`` (line 1 for the header, naming the field). The limits:

- the file at most :data:`MAX_FILE_BYTES` and :data:`MAX_INPUTS` inputs, a line at
  most :data:`MAX_LINE_BYTES` and :data:`MAX_VALUES` JSON values, UTF-8 text (no lone
  surrogates), JSON nested at most :data:`MAX_DEPTH` deep, whole numbers within 64
  bits, every number finite;
- every time (``t``, ``end``, ``at``) between 0 and :data:`MAX_T` seconds;
- an ``audio`` line names a regular file (not a device, a FIFO or a folder) of at
  most :data:`MAX_AUDIO_BYTES` holding at most :data:`MAX_AUDIO_S` seconds.

The header must be one the game accepts: it is dealt once while reading, so a
header the game refuses is an error on line 1, not a failure later.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, TypeGuard

from controller.files import regular_file
from controller.flow import NAVS, HeaderError, Input
from controller.games import flow_for

INPUT_KINDS = ("press", "release", "nav", "say", "audio", "do")
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_LINE_BYTES = 64 * 1024
MAX_INPUTS = 50_000
"""A long evening of Tchin Tchin is a few thousand inputs."""
MAX_DEPTH = 32
MAX_VALUES = 4096
"""JSON values on one line (a header's deck and deals are a few hundred)."""
MAX_INT = 2**63
MAX_T = 1_000_000.0
"""About eleven and a half days of game time: later times are refused."""
MAX_AUDIO_BYTES = 64 * 1024 * 1024
MAX_AUDIO_S = 600.0


class ReplayError(ValueError):
    """A replay file that cannot be played; the message starts with ``file:line:``."""


def _number(v: Any) -> TypeGuard[float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _time(obj: dict[str, Any], key: str, earliest: float = 0.0) -> float:
    v = obj[key]
    if not _number(v) or not earliest <= v <= MAX_T:
        raise ValueError(f"{key!r} must be a number of seconds from {earliest:g} to {MAX_T:.0f}, "
                         f"not {v!r}")
    return float(v)


def check_value(obj: Any, where: str = "") -> None:
    """Refuse what JSON allows but a game must never see: deep nesting, huge or non-finite
    numbers, lone surrogates. Iterative, so no input can exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(obj, where, 0)]
    seen = 0
    while stack:
        v, path, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise ValueError(f"more than {MAX_VALUES} JSON values on one line")
        if depth > MAX_DEPTH:
            raise ValueError(f"nested more than {MAX_DEPTH} deep{_at(path)}")
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, int):
            if not -MAX_INT <= v < MAX_INT:
                raise ValueError(f"a whole number beyond 64 bits{_at(path)}")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise ValueError(f"a number that is not finite ({v}){_at(path)}")
        elif isinstance(v, str):
            _text(v, path)
        elif isinstance(v, list):
            stack.extend((x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
        elif isinstance(v, dict):
            for k, x in v.items():
                _text(k, path)
                stack.append((x, f"{path}.{k}" if path else k, depth + 1))


def _text(s: str, path: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"text with a lone surrogate (not a character){_at(path)}") from None


def _at(path: str) -> str:
    return f" in {path!r}" if path else ""


def parse_header(obj: Any) -> dict[str, Any]:
    """Check line 1 (the fields every game has, then the game's own by dealing it)."""
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
    cls = flow_for(obj["game"])  # an unknown game is a header error
    if not cls.min_players <= obj["players"] <= cls.max_players:
        raise ValueError(f"'players': {cls.title} is for {cls.min_players} to {cls.max_players} "
                         f"players, not {obj['players']}")
    return obj


def deal_check(header: dict[str, Any]) -> None:
    """Deal the game from its header once, so a header the game refuses is a line-1 error."""
    from controller.session import GameSession

    try:
        GameSession(header, sink=lambda ev: None)
    except HeaderError:
        raise
    except Exception as exc:  # a refusal the game did not word: still named, never a traceback
        raise HeaderError(f"the game cannot start from this header ({type(exc).__name__}: {exc})") from None


def parse_input(obj: Any) -> tuple[float, str, Any, dict[str, Any]]:
    if not isinstance(obj, dict):
        raise ValueError("an input line must be a JSON object")
    if "t" not in obj or not _number(obj["t"]) or obj["t"] < 0:
        raise ValueError("'t' must be a number of seconds >= 0")
    t = _time(obj, "t")
    kinds = [k for k in INPUT_KINDS if k in obj]
    if len(kinds) != 1:
        raise ValueError(f"exactly one of {', '.join(INPUT_KINDS)} is needed, found {kinds or 'none'}")
    kind = kinds[0]
    allowed = {"t", "at", kind} | ({"end", "confidence", "typed"} if kind == "say" else set())
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ValueError(f"unknown field {extra[0]!r} for a {kind} line")
    if "at" in obj:
        if not _number(obj["at"]) or obj["at"] < t:
            raise ValueError("'at' (where the game clock stood when it arrived) must be a number no "
                             "earlier than 't'")
        _time(obj, "at", t)
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
        if end > MAX_T:
            raise ValueError(f"'end' must be at most {MAX_T:.0f} seconds")
        if not isinstance(obj.get("typed", False), bool):
            raise ValueError("'typed' must be true or false")
        conf = obj.get("confidence")
        if conf is not None and (not _number(conf) or not 0.0 <= conf <= 1.0):
            raise ValueError(f"'confidence' must be a number from 0 to 1, not {conf!r}")
    if kind == "audio" and not isinstance(value, str):
        raise ValueError("'audio' must be a WAV file's path")
    if kind == "do":
        if not isinstance(value, dict):
            raise ValueError("'do' must be an object (a game action)")
        if "type" in value and not isinstance(value["type"], str):
            raise ValueError(f"'do' needs a 'type' that is a string, not {value['type']!r}")
    return t, kind, value, obj


def arrival(inp: Input) -> float:
    """When an input reached the game: ``at`` when it came late, else its own ``t``."""
    return inp.at if inp.at is not None and inp.at > inp.t else inp.t


def load(lines: Iterable[str | bytes], name: str = "replay", base: Path | None = None,
         recognise: Callable[[Path], list[Any]] | None = None,
         audio: Callable[[float, Path], None] | None = None) -> tuple[dict[str, Any], list[Input]]:
    """Parse a replay file into its header and its inputs (see :func:`load_numbered`)."""
    header, inputs, _ = load_numbered(lines, name, base, recognise, audio)
    return header, inputs


def load_numbered(lines: Iterable[str | bytes], name: str = "replay", base: Path | None = None,
                  recognise: Callable[[Path], list[Any]] | None = None,
                  audio: Callable[[float, Path], None] | None = None) -> \
        tuple[dict[str, Any], list[Input], list[int]]:
    """Parse a replay file into its header and its inputs (audio already turned into toasts),
    in the order they reached the game, with the file's line number of each.

    ``audio``, when given, takes each ``audio`` line instead (its ``t`` and the recording's
    path, relative paths resolved against ``base``): the live box plays them through its
    microphone rather than recognising them here.
    """
    from controller.journal import input_from_dict

    header: dict[str, Any] | None = None
    inputs: list[tuple[Input, int]] = []
    last = 0.0
    for n, raw in enumerate(lines, start=1):
        text = _decode(raw, name, n)
        if not text.strip():
            continue
        obj = _json(text, name, n)
        try:
            check_value(obj)
            if header is None:
                header = parse_header(obj)
                deal_check(header)
                continue
            t, kind, value, full = parse_input(obj)
            came = max(t, float(full.get("at", t)))
            if came < last:
                raise ValueError(f"out of time order: t={t} comes after t={last}")
            last = came
            if len(inputs) >= MAX_INPUTS:
                raise ValueError(f"more than {MAX_INPUTS} inputs")
            if kind == "audio" and audio is not None:
                audio(t, _recording_path(value, base))
            elif kind == "audio":
                inputs.extend((i, n) for i in _audio_inputs(t, value, base, recognise))
            else:
                inputs.append((input_from_dict(full), n))
        except (ValueError, HeaderError) as exc:
            raise ReplayError(f"{name}:{n}: {exc}") from None
    if header is None:
        raise ReplayError(f"{name}:1: the file is empty (a header line is needed)")
    inputs.sort(key=lambda pair: arrival(pair[0]))  # toasts found in a recording keep their own time
    return header, [i for i, _ in inputs], [n for _, n in inputs]


def _decode(raw: str | bytes, name: str, n: int) -> str:
    if isinstance(raw, str):
        if len(raw) > MAX_LINE_BYTES:
            raise ReplayError(f"{name}:{n}: a line longer than {MAX_LINE_BYTES} bytes")
        return raw
    if len(raw) > MAX_LINE_BYTES:
        raise ReplayError(f"{name}:{n}: a line longer than {MAX_LINE_BYTES} bytes")
    try:
        return raw.decode("utf-8-sig" if n == 1 else "utf-8")  # a byte-order mark some editors write
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{name}:{n}: not UTF-8 text (byte {raw[exc.start]:#04x} at column "
                          f"{exc.start + 1})") from None


def _json(text: str, name: str, n: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{name}:{n}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise ReplayError(f"{name}:{n}: JSON nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise ReplayError(f"{name}:{n}: not usable JSON ({exc})") from None


def read_lines(stream: IO[bytes], name: str) -> Iterator[bytes]:
    """The lines of a binary stream, each at most :data:`MAX_LINE_BYTES`, the whole at most
    :data:`MAX_FILE_BYTES`: memory stays bounded whatever the stream holds."""
    total = 0
    n = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        n += 1
        total += len(line)
        if len(line) > MAX_LINE_BYTES:
            raise ReplayError(f"{name}:{n}: a line longer than {MAX_LINE_BYTES} bytes")
        if total > MAX_FILE_BYTES:
            raise ReplayError(f"{name}:{n}: the file is longer than {MAX_FILE_BYTES} bytes")
        yield line


def read(path: str | Path, recognise: Callable[[Path], list[Any]] | None = None,
         audio: Callable[[float, Path], None] | None = None) -> tuple[dict[str, Any], list[Input]]:
    """Read a replay file from disk (only a regular file, within the limits)."""
    header, inputs, _ = read_numbered(path, recognise, audio)
    return header, inputs


def read_numbered(path: str | Path, recognise: Callable[[Path], list[Any]] | None = None,
                  audio: Callable[[float, Path], None] | None = None) -> \
        tuple[dict[str, Any], list[Input], list[int]]:
    """:func:`read`, with each input's line number."""
    p = Path(path)
    try:
        regular_file(p, "replay file", MAX_FILE_BYTES)
    except ValueError as exc:
        raise ReplayError(f"{p}: {exc}") from None
    try:
        with p.open("rb") as f:
            return load_numbered(read_lines(f, str(p)), str(p), p.parent, recognise, audio)
    except OSError as exc:
        raise ReplayError(f"{p}: cannot be read ({exc.strerror or exc})") from None


def _recording_path(path: str, base: Path | None) -> Path:
    if "\x00" in path:
        raise ValueError("'audio' must be a WAV file's path, not text with a NUL")
    p = Path(path)
    return base / p if not p.is_absolute() and base is not None else p


def _audio_inputs(t: float, path: str, base: Path | None,
                  recognise: Callable[[Path], list[Any]] | None) -> list[Input]:
    p = _recording_path(path, base)
    regular_file(p, "recording", MAX_AUDIO_BYTES)  # missing, unreadable, not a file: a ValueError naming it
    out = []
    for heard in (recognise or recognise_recording)(p):
        if heard.toast is None:
            continue
        out.append(Input(round(t + heard.start, 6), "say", word=heard.toast,
                         end=round(t + heard.end, 6), confidence=round(float(heard.confidence), 4)))
    return out


def recognise_recording(path: Path) -> list[Any]:
    """The real recogniser on a recording of at most :data:`MAX_AUDIO_S` seconds."""
    from hardware.speech import choose_engine
    from hardware.speech.audio import read_recording

    samples = read_recording(path, MAX_AUDIO_BYTES, MAX_AUDIO_S)  # NotAWavFile names the fault
    engine, _ = choose_engine(None)
    return list(engine.classify(samples))


__all__ = ["INPUT_KINDS", "ReplayError", "load", "parse_header", "parse_input", "read"]
