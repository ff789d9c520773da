"""The doctor's pin checks: the pin map, and what the Pi's boot config has taken for itself.

``/boot/firmware/config.txt`` can switch a pin to another job at boot (SPI,
I2C, the serial port, 1-Wire, an audio HAT, a fan...). A pin the box uses and
the system has taken does not work as a button or an LED, and nothing else
says so. These checks read the config text (tests pass their own) and name the
line to change.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from controller.config import HEADER_GPIOS, RESERVED_GPIOS, Config, ConfigError, validate
from controller.doctor.check import Check
from controller.header import pin_label

BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
#: the running kernel's command line first: the firmware drops or renames ``console=serial0`` there
CMDLINES = (Path("/proc/cmdline"), Path("/boot/firmware/cmdline.txt"), Path("/boot/cmdline.txt"))


@dataclass(frozen=True)
class Taken:
    """Pins a boot config line gives to something else."""

    line: str
    what: str
    pins: frozenset[int]


#: overlays that take fixed pins (their default pins; a gpiopin-style parameter moves them)
OVERLAY_PINS: dict[str, tuple[str, set[int]]] = {
    "w1-gpio": ("1-Wire", {4}), "w1-gpio-pullup": ("1-Wire", {4}),
    "gpio-shutdown": ("the shutdown button", {3}), "gpio-fan": ("the fan", {12}),
    "gpio-ir": ("an IR receiver", {18}), "gpio-ir-tx": ("an IR sender", {18}),
    "pwm": ("PWM", {18}), "pwm-2chan": ("PWM", {18, 19}), "audremap": ("analogue audio on PWM", {12, 13}),
    "spi1-1cs": ("SPI1", {18, 19, 20, 21}), "spi1-2cs": ("SPI1", {17, 18, 19, 20, 21}),
    "spi1-3cs": ("SPI1", {16, 17, 18, 19, 20, 21}),
    "uart2": ("UART2", {0, 1}), "uart3": ("UART3", {4, 5}), "uart4": ("UART4", {8, 9}),
    "uart5": ("UART5", {12, 13}), "i2c3": ("I2C3", {4, 5}), "i2c4": ("I2C4", {6, 7}),
    "i2c5": ("I2C5", {12, 13}), "i2c6": ("I2C6", {22, 23}), "spi3-1cs": ("SPI3", {0, 1, 2, 3}),
    "spi4-1cs": ("SPI4", {4, 5, 6, 7}), "spi5-1cs": ("SPI5", {12, 13, 14, 15}),
    "spi6-1cs": ("SPI6", {18, 19, 20, 21}),
}
I2S = {18, 19, 20, 21}
#: sound cards on the I2S pins (overlay name prefixes)
I2S_OVERLAYS = ("hifiberry", "iqaudio", "googlevoicehat", "i2s-", "allo-", "justboom", "rpi-dac",
                "rpi-proto", "seeed-", "adau", "audioinjector", "pisound", "max98357")
PIN_PARAMS = ("gpiopin", "gpio_pin", "pin")
ON = ("", "on", "true", "yes", "1")


def active_lines(text: str, model: str | None = None) -> list[str]:
    """The config's lines that apply: comments dropped; ``[pi4]``/``[pi5]`` sections kept only
    for that model (other filters are assumed to apply, to be on the safe side)."""
    out: list[str] = []
    applies = True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"\[([^\]]+)\]", line)
        if m:
            section = m.group(1).strip().lower()
            if section == "all":
                applies = True
            elif re.fullmatch(r"pi\d+|pi0w?|cm\d+", section):
                applies = model is None or section == model
            else:
                applies = True
            continue
        if applies:
            out.append(line)
    return out


def _params(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        out[key.strip()] = value.strip().lower()
    return out


def taken_pins(config_txt: str, cmdline: str = "", model: str | None = None) -> list[Taken]:
    """Every pin the boot config and the kernel command line give to something else."""
    taken: list[Taken] = []
    dtparams: dict[str, tuple[str, str]] = {}
    for line in active_lines(config_txt, model):
        key, _, value = line.partition("=")
        key = key.strip()
        if key in ("dtparam", "device_tree_param"):
            for name, val in _params(value).items():
                dtparams[name] = (val, line)
        elif key == "enable_uart" and value.strip() == "1":
            taken.append(Taken(line, "the serial port (UART)", frozenset({14, 15})))
        elif key in ("dtoverlay", "device_tree_overlay") and value:
            name, _, rest = value.partition(",")
            name = name.strip()
            params = _params(rest) if rest else {}
            moved = {int(params[p]) for p in PIN_PARAMS if params.get(p, "").isdigit()}
            if name in OVERLAY_PINS:
                what, pins = OVERLAY_PINS[name]
                taken.append(Taken(line, what, frozenset(moved or pins)))
            elif name.startswith(I2S_OVERLAYS):
                taken.append(Taken(line, f"an I2S sound card ({name})", frozenset(I2S)))
            elif moved:
                taken.append(Taken(line, f"the {name} overlay", frozenset(moved)))
    for name, what, pins in (("spi", "SPI0", {7, 8, 9, 10, 11}), ("i2c_arm", "I2C", {2, 3}),
                             ("i2c", "I2C", {2, 3}), ("i2s", "I2S", I2S),
                             ("uart0", "the serial port (UART)", {14, 15})):
        if name in dtparams and dtparams[name][0] in ON:
            taken.append(Taken(dtparams[name][1], what, frozenset(pins)))
    # on a Pi 5, serial0 is the separate debug connector; elsewhere it is GPIO 14 and 15
    uarts = "ttyAMA0|ttyS0" if model == "pi5" else "serial0|ttyAMA0|ttyS0"
    console = re.search(rf"console=({uarts})\S*", cmdline)
    if console:
        taken.append(Taken(f"{console.group(0)} (cmdline.txt)", "the serial console", frozenset({14, 15})))
    return taken


def read_first(paths: tuple[Path, ...]) -> tuple[Path | None, str]:
    for p in paths:
        try:
            return p, p.read_text(errors="replace")
        except OSError:
            continue
    return None, ""


def fix_for(t: Taken) -> str:
    if "serial console" in t.what:
        return "sudo raspi-config nonint do_serial_cons 1 (serial console off), then reboot"
    if "UART" in t.what:
        return "sudo raspi-config nonint do_serial_hw 1 (serial port off), then reboot"
    if t.what == "SPI0":
        return "sudo raspi-config nonint do_spi 1 (SPI off), then reboot"
    if t.what == "I2C":
        return "sudo raspi-config nonint do_i2c 1 (I2C off), then reboot"
    return f"comment out '{t.line}' in config.txt and reboot, or move the box's pins in clinkbox.toml"


def check_pin_map(cfg: Config) -> list[Check]:
    """The configured pin map: every pin on the header, none twice, the reserved ones left free."""
    try:
        validate(cfg)
    except ConfigError as exc:
        return [Check("pin map", "FAIL", str(exc), "fix the pins in clinkbox.toml (see wiring.md)")]
    pins = cfg.pins()
    checks = [Check("pin map", "PASS", f"{len(pins)} pins, none used twice "
                    f"({len(cfg.stations)} stations with LEDs, the 4-button pad)")]
    for pin, use in sorted(pins.items()):
        if pin in RESERVED_GPIOS:
            checks.append(Check(f"pin {use}", "WARN", f"{pin_label(pin)} is {RESERVED_GPIOS[pin]}, kept free for "
                                "an audio HAT or a display", "move it to a free pin if you add a HAT"))
    return checks


def check_boot_config(cfg: Config, config_txt: str, cmdline: str, source: str,
                      model: str | None = None) -> list[Check]:
    """Pins the box uses that the boot config gives to something else."""
    used = cfg.pins()
    free = sorted(HEADER_GPIOS - set(used) - set(RESERVED_GPIOS))
    checks: list[Check] = []
    for t in taken_pins(config_txt, cmdline, model):
        clash = sorted(t.pins & set(used))
        if not clash:
            continue
        names = ", ".join(f"{pin_label(p)} = {used[p]}" for p in clash)
        checks.append(Check(f"pins vs {t.what}", "FAIL", f"'{t.line}' in {source} gives {names} to {t.what}",
                            f"{fix_for(t)}; free pins: {', '.join(map(str, free)) or 'none'}"))
    if not checks:
        checks.append(Check("pins vs boot config", "PASS", f"nothing in {source} takes the box's pins"))
    return checks


def check_system_pins(cfg: Config, on_pi: bool, model: str | None = None) -> list[Check]:
    if not on_pi:
        return [Check("pins vs boot config", "SKIP", "not a Raspberry Pi: no boot config to read")]
    path, text = read_first(BOOT_CONFIGS)
    if path is None:
        return [Check("pins vs boot config", "WARN", "no /boot/firmware/config.txt found",
                      "mount the boot partition; on Bookworm it is /boot/firmware")]
    _, cmdline = read_first(CMDLINES)
    return check_boot_config(cfg, text, cmdline, str(path), model)


def check_gpio_access(on_pi: bool) -> Check:
    if not on_pi:
        return Check("GPIO access", "SKIP", "not a Raspberry Pi: the simulator's keyboard is the buttons")
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        return Check("GPIO access", "FAIL", "no /dev/gpiochip*", "update the kernel: sudo apt full-upgrade")
    if not all(os.access(c, os.R_OK | os.W_OK) for c in chips):
        return Check("GPIO access", "FAIL", f"{os.environ.get('USER', 'this user')} cannot open {chips[0]}",
                     "sudo usermod -aG gpio $USER, then log out and back in")
    return Check("GPIO access", "PASS", f"{', '.join(str(c) for c in chips)} readable and writable")
