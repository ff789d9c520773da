"""The doctor's hands-on part: press each buzzer and pad button, watch each LED.

It needs the real pins (the box's service stopped, so the pins are free) and a
person at the box; ``clinkbox doctor`` runs it only on a terminal, and never
with ``--no-interactive``. Without a person, :func:`check_buttons_at_rest`
still finds a buzzer stuck down (or wired to 3.3 V instead of ground) and
:func:`check_leds_driven` drives each LED's pin.

Every press is shown as it happens, so a swapped pair of wires shows at once.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any

from controller.doctor.check import Check
from controller.header import PHYSICAL, nearest_ground, pin_label
from hardware.buttons import ButtonEvent, Panel

Say = Callable[[str], None]
Ask = Callable[[str], str]


def _bcm(device: Any) -> int:
    """The BCM number of a gpiozero device's pin (``pin.info.number`` is the physical pin)."""
    return int(str(device.pin.info.name).removeprefix("GPIO"))


def check_buttons_at_rest(panel: Panel) -> list[Check]:
    """No buzzer or pad button reads pressed while nobody touches them."""
    checks = []
    for station, button in panel.buzzers.items():
        if button.is_pressed:
            checks.append(Check(f"station {station} buzzer", "FAIL",
                                f"reads pressed with nobody on it ({pin_label(_bcm(button))})",
                                "a jammed buzzer, or its wire goes to 3.3 V instead of ground"))
    for name, button in panel.pad.items():
        if button.is_pressed:
            checks.append(Check(f"pad {name}", "FAIL", f"reads pressed with nobody on it "
                                f"({pin_label(_bcm(button))})", "a jammed button, or a wire to 3.3 V"))
    if not checks:
        checks.append(Check("buttons at rest", "PASS",
                            f"{len(panel.buzzers)} buzzers and {len(panel.pad)} pad buttons all up"))
    return checks


def check_leds_driven(panel: Panel) -> Check:
    """Each LED pin goes high and low when told (whether the LED lights needs eyes: interactive)."""
    bad = []
    for station, led in panel.leds.items():
        led.on()
        high = led.value
        led.off()
        if not high or led.value:
            bad.append(station)
    if bad:
        return Check("LEDs", "FAIL", f"the pins of station {', '.join(map(str, bad))} do not follow",
                     "another program holds the pin? (sudo systemctl stop clinkbox)")
    return Check("LEDs", "PASS", f"{len(panel.leds)} LED pins switch on and off")


def _wait_for(events: queue.Queue[ButtonEvent], want: Callable[[ButtonEvent], bool], wait_s: float,
              say: Say, describe: Callable[[ButtonEvent], str]) -> tuple[ButtonEvent | None, list[str]]:
    end = time.monotonic() + wait_s
    others: list[str] = []
    while (left := end - time.monotonic()) > 0:
        try:
            ev = events.get(timeout=left)
        except queue.Empty:
            break
        if not ev.pressed:
            continue
        if want(ev):
            return ev, others
        others.append(describe(ev))
        say(f"   ... that was {describe(ev)}")
    return None, others


def _drain(events: queue.Queue[ButtonEvent]) -> None:
    """Forget what came before a question (a buzzer's pins are not debounced: the last press
    may still be bouncing)."""
    while True:
        try:
            events.get_nowait()
        except queue.Empty:
            return


def _station_is(station: int) -> Callable[[ButtonEvent], bool]:
    return lambda ev: ev.station == station


def _nav_is(name: str) -> Callable[[ButtonEvent], bool]:
    return lambda ev: ev.nav == name


def _describe(ev: ButtonEvent) -> str:
    return f"station {ev.station}" if ev.station is not None else f"pad {ev.nav}"


def press_each(panel: Panel, say: Say, ask: Ask, wait_s: float = 10.0) -> list[Check]:
    """Ask for each buzzer, then each pad button, to be pressed; blink each LED and ask if it blinks."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    panel.on_event = events.put
    checks: list[Check] = []
    for station, button in panel.buzzers.items():
        pin = _bcm(button)
        _drain(events)
        say(f"Press station {station}'s buzzer ({pin_label(pin)}) ...")
        start = time.monotonic()
        ev, others = _wait_for(events, _station_is(station), wait_s, say, _describe)
        if ev is not None:
            checks.append(Check(f"station {station} buzzer", "PASS", f"pressed after {ev.t - start:.1f} s"))
        else:
            swapped = f"; {', '.join(others)} answered instead: wires swapped?" if others else ""
            checks.append(Check(f"station {station} buzzer", "FAIL", f"no press in {wait_s:.0f} s{swapped}",
                                f"one leg of the switch to {pin_label(pin)}, the other to ground "
                                f"(pin {nearest_ground(PHYSICAL.get(pin, 1))})"))
        checks.append(_led(panel, station, ask))
    for name, button in panel.pad.items():
        pin = _bcm(button)
        _drain(events)
        say(f"Press the pad's {name.upper()} button ({pin_label(pin)}) ...")
        ev, others = _wait_for(events, _nav_is(name), wait_s, say, _describe)
        if ev is not None:
            checks.append(Check(f"pad {name}", "PASS", "pressed"))
        else:
            swapped = f"; {', '.join(others)} answered instead" if others else ""
            checks.append(Check(f"pad {name}", "FAIL", f"no press in {wait_s:.0f} s{swapped}",
                                f"the button between {pin_label(pin)} and ground"))
    return checks


def _led(panel: Panel, station: int, ask: Ask) -> Check:
    led = panel.leds[station]
    pin = _bcm(led)
    panel.set_led(station, "blink")
    try:
        answer = ask(f"Is station {station}'s LED blinking? [Y/n] ").strip().lower()
    finally:
        panel.set_led(station, "off")
    if answer in ("", "y", "yes"):
        return Check(f"station {station} LED", "PASS", "blinks")
    return Check(f"station {station} LED", "FAIL", f"does not blink ({pin_label(pin)})",
                 "LED long leg (+) to the pin through its resistor, short leg to ground; a 5 V or 12 V "
                 "arcade LED needs a transistor or ULN2803 (wiring.md)")
