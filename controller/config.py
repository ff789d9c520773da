"""Configuration: one TOML file, read once into frozen, documented dataclasses.

The defaults run on a laptop (the simulator) and on the default build of
wiring.md. Every key is checked: an unknown key, a pin used twice, a pin that
does not exist or a bad value is a :class:`ConfigError` that names it, raised
before anything starts.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from controller.files import regular_file
from models.tchin_tchin.actions import Options

#: BCM numbers usable on the 40-pin header (GPIO 0 and 1 are the HAT ID EEPROM bus).
HEADER_GPIOS = frozenset(range(2, 28))
#: I2C (2, 3) and I2S (18-21) are kept free for an audio HAT or a display.
RESERVED_GPIOS = {2: "I2C SDA", 3: "I2C SCL", 18: "I2S BCLK", 19: "I2S LRCLK", 20: "I2S DIN", 21: "I2S DOUT"}


class ConfigError(ValueError):
    """A configuration file the box cannot start from; the message names the key."""


@dataclass(frozen=True)
class Station:
    """One player station: an arcade buzzer and the LED inside it."""

    button: int
    """BCM pin of the buzzer (to ground; the internal pull-up is used)."""
    led: int
    """BCM pin of the LED (through its resistor, to ground)."""


DEFAULT_STATIONS = (
    Station(4, 17), Station(27, 22), Station(23, 24), Station(25, 5),
    Station(6, 12), Station(13, 16), Station(26, 7), Station(8, 11),
)


@dataclass(frozen=True)
class Pad:
    """The menu pad's four buttons (BCM pins)."""

    prev: int = 14
    next: int = 15
    ok: int = 9
    back: int = 10


@dataclass(frozen=True)
class Buttons:
    bounce_s: float = 0.02
    """Contact bounce: a buzzer's press within this time of its last edge is ignored (by the game,
    from the journal), a pad button's later edges are dropped at the pin; the first edge is never delayed."""
    stuck_s: float = 30.0
    """A buzzer held down this long is taken as stuck: its station is disabled and the table told."""
    long_back_s: float = 5.0
    """Holding Back this long returns to the main menu from anywhere."""


@dataclass(frozen=True)
class Display:
    mode: str = "auto"
    """"auto" (full screen on a Pi, a window elsewhere, headless with no display), "window", "fullscreen" or "headless"."""
    width: int = 1280
    height: int = 720
    fps: int = 30


@dataclass(frozen=True)
class Speech:
    engine: str = "auto"
    """"auto" (the toast spotter, measured best on held-out voices, else PocketSphinx),
    "spotter", "vosk" (only when its English model is fetched), "pocketsphinx" or "off"."""
    device: str = ""
    """Microphone: (part of) its name, or its index as digits (``"2"``); empty for the system
    default (:func:`sound_device`)."""
    keep_audio: bool = False
    """Also save each toast the ear learns at the introduction as a WAV file (in the data
    folder's ``voices/``); off, the box keeps only the ear's templates (numbers, never audio)."""
    listen_for_card: bool = True
    """While a card is in play, the toast spotter listens harder for the words that could win
    it (docs/speech.md, "Listening for the card's word"); off, every toast always at its own
    threshold."""


@dataclass(frozen=True)
class Sound:
    enabled: bool = True
    volume: float = 0.6
    device: str = ""


@dataclass(frozen=True)
class TchinTchin:
    """Timings of the Tchin Tchin referee (seconds); see docs/rules/tchin-tchin.md.

    The defaults are the rules' own (:class:`models.tchin_tchin.Options`), written there once."""

    pre_s: float = Options.pre_s
    window_s: float = Options.window_s
    veto_s: float = Options.veto_s
    card_timeout_s: float = Options.card_timeout_s
    auto_reveal_s: float = 0.0
    """0 means off: the revealer's buzzer reveals the next card."""
    events: bool = False


@dataclass(frozen=True)
class Phones:
    """Phones as private screens (docs/phones.md). Off by default: no port is opened then."""

    enabled: bool = False
    """The default of Settings → Phones (the host's choice in the menu, once made, wins)."""
    host: str = "0.0.0.0"
    """The address the phone server listens on ("0.0.0.0": every network of the box)."""
    port: int = 8080
    """The port (0: any free one, as the tests use)."""
    address: str = ""
    """The address written in the join codes; empty: the box's own address on its network."""
    wifi_ssid: str = ""
    """A Wi-Fi network to show a join code for on the TV (empty: none shown)."""
    wifi_password: str = ""
    wifi_security: str = "WPA"
    """"WPA", "WEP" or "nopass"."""
    max_message_bytes: int = 2048
    """A phone's message longer than this is refused (with the reason); far longer closes it."""
    messages_per_s: float = 8.0
    """How many messages a phone may send per second, on average."""
    burst: int = 16
    """How many messages a phone may send at once before the rate applies."""


@dataclass(frozen=True)
class Config:
    """The whole configuration of one box."""

    stations: tuple[Station, ...] = DEFAULT_STATIONS
    pad: Pad = field(default_factory=Pad)
    buttons: Buttons = field(default_factory=Buttons)
    display: Display = field(default_factory=Display)
    speech: Speech = field(default_factory=Speech)
    sound: Sound = field(default_factory=Sound)
    tchin_tchin: TchinTchin = field(default_factory=TchinTchin)
    phones: Phones = field(default_factory=Phones)
    data_dir: str = ""
    """Where the journal and speech models live; empty for $XDG_DATA_HOME/clinkbox."""

    def data_path(self) -> Path:
        if self.data_dir:
            return Path(self.data_dir).expanduser()
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "clinkbox"

    def pins(self) -> dict[int, str]:
        """Every pin in use, BCM number -> what uses it."""
        out: dict[int, str] = {}
        for i, st in enumerate(self.stations, start=1):
            out[st.button] = f"stations[{i}].button"
            out[st.led] = f"stations[{i}].led"
        for name in ("prev", "next", "ok", "back"):
            out[getattr(self.pad, name)] = f"pad.{name}"
        return out


_SECTIONS: dict[str, type] = {
    "pad": Pad, "buttons": Buttons, "display": Display, "speech": Speech,
    "sound": Sound, "tchin_tchin": TchinTchin, "phones": Phones,
}
#: (section, key) -> the smallest and largest value the box can run with
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("buttons", "bounce_s"): (0.0, 0.2),
    ("buttons", "stuck_s"): (1.0, 3600.0),
    ("buttons", "long_back_s"): (0.5, 60.0),
    ("display", "width"): (320, 7680),
    ("display", "height"): (240, 4320),
    ("display", "fps"): (1, 240),
    ("sound", "volume"): (0.0, 1.0),
    ("tchin_tchin", "pre_s"): (0.0, 10.0),
    ("tchin_tchin", "window_s"): (0.5, 30.0),
    ("tchin_tchin", "veto_s"): (0.5, 60.0),
    ("tchin_tchin", "card_timeout_s"): (1.0, 3600.0),
    ("tchin_tchin", "auto_reveal_s"): (0.0, 3600.0),
    ("phones", "port"): (0, 65535),
    ("phones", "max_message_bytes"): (64, 65536),
    ("phones", "messages_per_s"): (0.1, 1000.0),
    ("phones", "burst"): (1, 1000),
}
#: the largest config file read (a config is a few hundred bytes)
MAX_CONFIG_BYTES = 1024 * 1024

_CHOICES = {
    ("display", "mode"): ("auto", "window", "fullscreen", "headless"),
    ("speech", "engine"): ("auto", "spotter", "vosk", "pocketsphinx", "off"),
    ("phones", "wifi_security"): ("WPA", "WEP", "nopass"),
}


def _section(name: str, cls: type, raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"[{name}] must be a table, not {type(raw).__name__}")
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"unknown key {name}.{key} (known: {', '.join(known)})")
        default = getattr(cls(), key)
        values[key] = _coerce(f"{name}.{key}", value, default)
        _in_range(name, key, values[key])
        choices = _CHOICES.get((name, key))
        if choices and values[key] not in choices:
            raise ConfigError(f"{name}.{key} = {value!r} is not one of {', '.join(choices)}")
    return cls(**values)


def _in_range(section: str, key: str, value: Any) -> None:
    """Every number finite and within what the box can run with, the key named if not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    where = f"{section}.{key}"
    if not math.isfinite(value):
        raise ConfigError(f"{where} = {value!r} must be a finite number")
    bounds = RANGES.get((section, key))
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise ConfigError(f"{where} = {value!r} must be between {bounds[0]:g} and {bounds[1]:g}")


def _coerce(where: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, not {value!r}")
        return value
    if isinstance(default, int) and not isinstance(default, bool):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{where} must be a whole number, not {value!r}")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number, not {value!r}")
        if value < 0:
            raise ConfigError(f"{where} must not be negative, not {value!r}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{where} must be a string, not {value!r}")
        if "\x00" in value:  # no path, device or address holds one: the box would fail on it
            raise ConfigError(f"{where} = {value!r} holds a NUL character")
        return value
    return value


def _stations(raw: Any) -> tuple[Station, ...]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError("stations must be a non-empty array of tables {button = N, led = N}")
    if len(raw) > 8:
        raise ConfigError(f"stations: at most 8 buzzer stations, got {len(raw)}")
    out = []
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise ConfigError(f"stations[{i}] must be a table {{button = N, led = N}}")
        extra = set(item) - {"button", "led"}
        if extra:
            raise ConfigError(f"unknown key stations[{i}].{sorted(extra)[0]} (known: button, led)")
        for key in ("button", "led"):
            if key not in item:
                raise ConfigError(f"stations[{i}].{key} is missing")
            if not isinstance(item[key], int) or isinstance(item[key], bool):
                raise ConfigError(f"stations[{i}].{key} must be a BCM pin number, not {item[key]!r}")
        out.append(Station(item["button"], item["led"]))
    return tuple(out)


def validate(cfg: Config) -> Config:
    """Check the pin map (every pin exists, none is used twice) and every number's range."""
    for (section, key) in RANGES:
        _in_range(section, key, getattr(getattr(cfg, section), key))
    seen: dict[int, str] = {}
    uses = [(st.button, f"stations[{i}].button") for i, st in enumerate(cfg.stations, 1)]
    uses += [(st.led, f"stations[{i}].led") for i, st in enumerate(cfg.stations, 1)]
    uses += [(getattr(cfg.pad, n), f"pad.{n}") for n in ("prev", "next", "ok", "back")]
    for pin, where in uses:
        if pin not in HEADER_GPIOS:
            raise ConfigError(f"{where} = {pin}: there is no GPIO{pin} on the 40-pin header (use 2-27)")
        if pin in seen:
            raise ConfigError(f"GPIO{pin} is used twice: by {seen[pin]} and by {where}")
        seen[pin] = where
    if cfg.display.width < 320 or cfg.display.height < 240:
        raise ConfigError(f"display size {cfg.display.width}x{cfg.display.height} is too small (min 320x240)")
    if not 0.0 <= cfg.sound.volume <= 1.0:
        raise ConfigError(f"sound.volume = {cfg.sound.volume} must be between 0 and 1")
    if cfg.buttons.bounce_s > 0.2:
        raise ConfigError(f"buttons.bounce_s = {cfg.buttons.bounce_s} is too long (at most 0.2 s)")
    if not 0 <= cfg.phones.port <= 65535:
        raise ConfigError(f"phones.port = {cfg.phones.port} is not a port number (1-65535; 0: any free one)")
    if not 64 <= cfg.phones.max_message_bytes <= 65536:
        raise ConfigError(f"phones.max_message_bytes = {cfg.phones.max_message_bytes} must be 64-65536")
    if cfg.phones.messages_per_s <= 0 or cfg.phones.burst < 1:
        raise ConfigError("phones.messages_per_s must be above 0 and phones.burst at least 1")
    return cfg


def parse(text: str, source: str = "config") -> Config:
    """Read a TOML text into a :class:`Config`."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    try:
        return validate(replace(Config(), **_changes(raw)))
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def _changes(raw: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "stations":
            changes["stations"] = _stations(value)
        elif key == "data_dir":
            changes["data_dir"] = _coerce("data_dir", value, "")
        elif key in _SECTIONS:
            changes[key] = _section(key, _SECTIONS[key], value)
        else:
            known = ", ".join(["stations", "data_dir", *_SECTIONS])
            raise ConfigError(f"unknown key {key!r} (known: {known})")
    return changes


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "clinkbox" / "clinkbox.toml"


def config_path(path: str | Path | None = None) -> Path:
    """The config file the box reads: ``path`` (``--config``), ``$CLINKBOX_CONFIG``, or the default."""
    return Path(path or os.environ.get("CLINKBOX_CONFIG") or default_path())


def sound_device(value: str) -> str | int | None:
    """A ``device`` key as sounddevice takes it: digits are a device's index, other text (part
    of) its name, empty the system's default."""
    value = value.strip()
    return int(value) if value.isdigit() else (value or None)


def load(path: str | Path | None = None) -> Config:
    """Load the config file (``--config``, ``$CLINKBOX_CONFIG``, or the default path); a
    missing default file means the defaults, a missing named one is an error."""
    p = config_path(path)
    if not p.exists():
        if path is not None or os.environ.get("CLINKBOX_CONFIG"):
            raise ConfigError(f"{p}: no such config file")
        return validate(Config())
    try:
        regular_file(p, "config file", MAX_CONFIG_BYTES)  # a FIFO would hang the start
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    try:
        text = p.read_text(encoding="utf-8-sig")  # the byte-order mark some editors write
    except (OSError, UnicodeDecodeError) as exc:  # a damaged SD card, a binary file
        raise ConfigError(f"{p}: cannot be read as a UTF-8 text file ({exc})") from None
    return parse(text, str(p))
