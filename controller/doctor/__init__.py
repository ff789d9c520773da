"""``clinkbox doctor``: checks the box and says what to fix.

Checks, each with what to do when it is not right: the config file, the pin
map (pins used twice, pins the boot config gives to SPI, I2C, the serial port,
1-Wire or an audio HAT), GPIO access, the buttons at rest and the LED pins,
each buzzer, pad button and LED by hand (only on a terminal, with the real
pins), the microphone and its level, the speech model, the display, the
speaker (with a test sound), the games (each one the registry lists loads), the phones
(off, or their port free), disk space, the journal and the service.

Prints a table of PASS / WARN / FAIL / SKIP; the exit code is 0 only when no
check warned or failed (a SKIP is a check that could not run here, and says why).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller import config as config_mod
from controller.config import Config
from controller.doctor.check import Check, all_passed, summary, table
from controller.doctor.devices import (
    check_config,
    check_disk,
    check_display,
    check_journal,
    check_microphone,
    check_service,
    check_speaker,
    check_speech_model,
    vosk_model_dir,
)
from controller.doctor.listening import check_listening_cost
from controller.doctor.phones import check_phones
from controller.doctor.pins import check_gpio_access, check_pin_map, check_system_pins

log = logging.getLogger(__name__)


def pi_model() -> tuple[bool, str | None]:
    """(on a Raspberry Pi, "pi4"/"pi5"/None) from the device tree."""
    try:
        text = Path("/proc/device-tree/model").read_text(errors="ignore")
    except OSError:
        return False, None
    for n in ("5", "4", "3"):
        if f"Raspberry Pi {n}" in text or f"Compute Module {n}" in text:
            return True, f"pi{n}"
    return "Raspberry Pi" in text, None


def open_panel(cfg: Config, pin_factory: Any = None) -> Any:
    from hardware.buttons import Panel

    return Panel({i: (s.button, s.led) for i, s in enumerate(cfg.stations, 1)},
                 {"prev": cfg.pad.prev, "next": cfg.pad.next, "ok": cfg.pad.ok, "back": cfg.pad.back},
                 lambda ev: None, bounce_s=cfg.buttons.bounce_s, pin_factory=pin_factory)


def check_panel(cfg: Config, *, on_pi: bool, interactive: bool, pin_factory: Any = None,
                say: Callable[[str], None] = print, ask: Callable[[str], str] = input) -> list[Check]:
    """Buttons and LEDs: at rest and driven (always on real or given pins), then by hand if asked."""
    from controller.doctor.live import check_buttons_at_rest, check_leds_driven, press_each

    if pin_factory is None and not on_pi:
        return [Check("buttons and LEDs", "SKIP", "not a Raspberry Pi: no pins to test "
                      "(the simulator's keys 1-8 and the arrows are the buttons)")]
    try:
        panel = open_panel(cfg, pin_factory)
    except Exception as exc:  # noqa: BLE001 (a pin in use by another program, no permission...)
        return [Check("buttons and LEDs", "FAIL", f"cannot open the pins ({exc})",
                      "stop the box first (sudo systemctl stop clinkbox) and check GPIO access")]
    try:
        checks = [*check_buttons_at_rest(panel), check_leds_driven(panel)]
        if interactive:
            say("\nHands-on test: press what is asked for (10 s each); Ctrl-C to stop.")
            checks += press_each(panel, say, ask)
        else:
            checks.append(Check("press test", "SKIP", "not interactive: run 'clinkbox doctor' on a terminal "
                                "at the box to press each buzzer and watch each LED"))
        return checks
    finally:
        panel.close()


def run_checks(cfg: Config, problem: str | None, *, interactive: bool = False, pin_factory: Any = None,
               env: dict[str, str] | None = None, on_pi: bool | None = None, model: str | None = None,
               config_path: Path | None = None, say: Callable[[str], None] = print,
               ask: Callable[[str], str] = input) -> list[Check]:
    """Every check, in the order a builder would fix things."""
    if on_pi is None:
        on_pi, model = pi_model()
    env = dict(os.environ) if env is None else env
    data = cfg.data_path()
    checks = [check_config(config_mod.config_path(config_path), problem)]
    checks += check_pin_map(cfg)
    checks += check_system_pins(cfg, on_pi, model)
    checks.append(check_gpio_access(on_pi))
    checks += check_panel(cfg, on_pi=on_pi, interactive=interactive, pin_factory=pin_factory, say=say, ask=ask)
    mic_device = config_mod.sound_device(cfg.speech.device)
    checks += check_microphone(mic_device, listen_s=2.0 if interactive else 0.0)
    checks.append(check_speech_model(cfg.speech.engine, vosk_model_dir(data)))
    checks.append(check_listening_cost(cfg.speech.engine, data))
    if interactive:
        checks.append(check_toast_heard(cfg, say))
    checks.append(check_display(cfg.display.mode, env, on_pi))
    checks.append(check_speaker(config_mod.sound_device(cfg.sound.device), cfg.sound.enabled,
                                play=_test_sound(cfg) if interactive else None))
    checks.append(check_games())
    checks.append(check_phones(cfg.phones, data / "settings.json"))
    checks.append(check_disk(data))
    checks.append(check_journal(data / "journal.sqlite3"))
    checks.append(check_service(on_pi))
    return checks


def check_games() -> Check:
    """Every game in the registry loads (a broken one is left off the menu, and named here)."""
    from controller.games import BROKEN, built_in

    loaded = built_in()
    titles = ", ".join(g.title for g in loaded)
    if BROKEN:
        broken = "; ".join(f"{name}: {why}" for name, why in BROKEN.items())
        return Check("games", "FAIL", f"cannot load {broken} (playable: {titles or 'none'})",
                     "reinstall clinkbox (make install), or see the log for the game's error")
    return Check("games", "PASS", titles)


def _test_sound(cfg: Config) -> Callable[[], None]:
    def play() -> None:
        import time

        from hardware.sound import Speaker

        Speaker(True, cfg.sound.volume, config_mod.sound_device(cfg.sound.device)).play("win")
        time.sleep(0.8)

    return play


def check_toast_heard(cfg: Config, say: Callable[[str], None]) -> Check:
    """Say a toast into the microphone: the speech package hears it (when it is installed)."""
    try:
        from hardware import speech
    except ImportError as exc:
        return Check("toast heard", "SKIP", f"the speech package is not available ({exc})")
    listen = getattr(speech, "listen_once", None)
    if listen is None:
        return Check("toast heard", "SKIP", "this speech package has no one-shot listen: use clinkbox mic-test")
    say("Say a toast now (\"Prost!\", \"Cheers!\", \"Salud!\") ...")
    try:
        heard = listen(cfg.data_path(), device=config_mod.sound_device(cfg.speech.device), seconds=5.0)
    except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
        return Check("toast heard", "FAIL", f"listening failed ({exc})", "see the microphone check above")
    if heard is None:
        return Check("toast heard", "WARN", "no toast heard in 5 s", "speak up, closer; try clinkbox mic-test")
    return Check("toast heard", "PASS", f"heard {heard}")


def main(cfg: Config, problem: str | None, *, interactive: bool | None = None,
         config_path: Path | None = None, out: Any = None) -> int:
    """Run the checks, print the table; 0 when every check that ran passed.

    ``interactive`` None means: hands-on tests when run on a terminal.
    """
    out = out or sys.stdout
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    checks = run_checks(cfg, problem, interactive=interactive, config_path=config_path,
                        say=lambda s: print(s, file=out, flush=True))
    print("\nclinkbox doctor\n", file=out)
    print(table(checks), file=out)
    print(f"\n{summary(checks)}", file=out)
    return 0 if all_passed(checks) else 1
