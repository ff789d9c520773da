"""Buzzers, their LEDs and the menu pad, through gpiozero.

Every press and release is stamped with the pin's own edge time, converted to
the box's monotonic clock: gpiozero hands the edge tick to the device
(``Pin.when_changed(ticks, state)``); on a Pi 5 the lgpio factory carries the
kernel's timestamp. The time Python got round to the callback is never used.

Callbacks run on gpiozero's threads: :class:`Panel` hands each event to
``on_event``, which the service wires to ``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from gpiozero import LED, Button, Device

log = logging.getLogger(__name__)

PAD_BUTTONS = ("prev", "next", "ok", "back")


@dataclass(frozen=True)
class ButtonEvent:
    """A press or release: of a player's buzzer (``station`` 1-8) or of a pad button (``nav``)."""

    t: float
    pressed: bool
    station: int | None = None
    nav: str | None = None


class Stations:
    """The one record of the buzzer stations' state: which are stuck down, which are disabled,
    and since when each buzzer has been down.

    The panel keeps it from its pins (a buzzer held down at start, or for ``stuck_s``); the
    shell reads the same record to tell the table and to leave a disabled station out of a
    new game. The simulator's keyboard cannot stick: its record stays clear.
    """

    def __init__(self) -> None:
        self.stuck: list[int] = []
        self.disabled: set[int] = set()
        self.down_since: dict[int, float] = {}

    def edge(self, station: int, pressed: bool, t: float) -> None:
        """A buzzer went down (or up) at ``t``."""
        if pressed:
            self.down_since[station] = t
        else:
            self.down_since.pop(station, None)

    def mark_stuck(self, station: int) -> None:
        if station not in self.stuck:
            self.stuck.append(station)
        self.disabled.add(station)

    def free(self, station: int) -> None:
        if station in self.stuck:
            self.stuck.remove(station)
        self.disabled.discard(station)


class StampedButton(Button):
    """A gpiozero Button that reports each edge with its own time on the monotonic clock."""

    def __init__(self, pin: int, *, on_edge: Callable[[bool, float], None], **kwargs: Any) -> None:
        self._on_edge: Callable[[bool, float], None] | None = None
        super().__init__(pin, **kwargs)
        self._on_edge = on_edge

    def _fire_events(self, ticks: Any, new_active: bool) -> None:
        old_active = self._last_active
        super()._fire_events(ticks, new_active)
        if self._on_edge is not None and old_active is not None and new_active != old_active:
            self._on_edge(new_active, edge_time(self.pin_factory, ticks))


def edge_time(factory: Any, ticks: Any) -> float:
    """The edge's time on ``time.monotonic``: now, less how long ago the tick was.

    The pin's clock is read before the box's, so the time between the two readings can only
    make the stamp later, never earlier than the edge: an event is never stamped before a press
    that came earlier, however slow the CPU is between the two readings.
    """
    ago = factory.ticks_diff(factory.ticks(), ticks)
    return time.monotonic() - ago


class Panel:
    """All the box's buttons and LEDs.

    ``stations`` maps station number -> (button pin, LED pin); ``pad`` maps
    prev/next/ok/back -> pin. A buzzer already held down at start is reported
    in :attr:`stuck` and its station disabled; the others work. ``bounce_s`` debounces the
    pad's pins; a buzzer's edges all go out, and the game judges its bounce.
    """

    def __init__(
        self,
        stations: dict[int, tuple[int, int]],
        pad: dict[str, int],
        on_event: Callable[[ButtonEvent], None],
        *,
        bounce_s: float = 0.02,
        pin_factory: Any = None,
        stations_state: Stations | None = None,
    ) -> None:
        self.on_event = on_event
        self.factory = pin_factory or Device.ensure_pin_factory()
        self.buzzers: dict[int, StampedButton] = {}
        self.leds: dict[int, LED] = {}
        self.pad: dict[str, StampedButton] = {}
        self.stations = stations_state if stations_state is not None else Stations()
        # one record, named as the panel always named it
        self.disabled = self.stations.disabled
        self.stuck = self.stations.stuck
        self.down_since = self.stations.down_since
        bounce = bounce_s or None
        for station, (button_pin, led_pin) in sorted(stations.items()):
            # no debounce here: every buzzer edge is journaled and the game judges bounce
            # once, from the journal (controller.debounce), so a replay decides it the same
            self.buzzers[station] = StampedButton(
                button_pin, on_edge=self._station_edge(station), pin_factory=pin_factory)
            self.leds[station] = LED(led_pin, pin_factory=pin_factory)
        for name, pin in pad.items():
            self.pad[name] = StampedButton(
                pin, on_edge=self._pad_edge(name), bounce_time=bounce, pin_factory=pin_factory)
        self._steady: dict[int, str] = {}
        self._led_lock = threading.RLock()
        self._flashing: dict[int, str] = {}
        self._flash_timers: dict[int, threading.Timer] = {}
        self._closed = False
        self.check_stuck()
        log.info("pins: %s factory (edge times from %s)", type(self.factory).__name__, edge_source(self.factory))

    def check_stuck(self) -> list[int]:
        """At start: a buzzer already held down is reported and its station disabled."""
        for station, button in self.buzzers.items():
            if button.is_pressed and station not in self.stuck:
                self.stations.mark_stuck(station)
                log.warning("station %d's buzzer is held down at start: station disabled", station)
        return list(self.stuck)

    def watch(self, now: float, stuck_s: float) -> tuple[list[int], list[int]]:
        """Call now and then: (stations newly found stuck for ``stuck_s``, stations released again).

        A stuck station is disabled (its presses ignored) until its buzzer comes up.
        """
        newly, freed = [], []
        for station, button in self.buzzers.items():
            if button.is_pressed:
                since = self.down_since.setdefault(station, now)
                if now - since >= stuck_s - 1e-6 and station not in self.stuck:
                    self.stations.mark_stuck(station)
                    self.set_led(station, "off")
                    newly.append(station)
                    log.warning("station %d's buzzer held for %.0f s: station disabled", station, now - since)
            else:
                self.down_since.pop(station, None)
                if station in self.stuck:
                    self.stations.free(station)
                    freed.append(station)
                    log.info("station %d's buzzer is up again: station enabled", station)
        return newly, freed

    def _station_edge(self, station: int) -> Callable[[bool, float], None]:
        def edge(pressed: bool, t: float) -> None:
            self.stations.edge(station, pressed, t)
            if station in self.disabled:
                return
            self.on_event(ButtonEvent(t, pressed, station=station))

        return edge

    def _pad_edge(self, name: str) -> Callable[[bool, float], None]:
        def edge(pressed: bool, t: float) -> None:
            self.on_event(ButtonEvent(t, pressed, nav=name))

        return edge

    def disable(self, station: int) -> None:
        self.disabled.add(station)
        self.set_led(station, "off")

    def enable(self, station: int) -> None:
        self.disabled.discard(station)

    FLASH_S = 0.5

    def set_led(self, station: int, state: str) -> None:
        # a flash ends on a timer thread: gpiozero's blink is not safe from two threads at once
        with self._led_lock:
            self._set_led(station, state)

    def _set_led(self, station: int, state: str) -> None:
        led = self.leds.get(station)
        if led is None:
            return
        if self._closed:
            return
        if state == "flash":
            led.blink(on_time=0.08, off_time=0.08, n=3, background=True)
            self._flashing[station] = self._steady.get(station, "off")
            # a flash during a flash starts afresh: the earlier one's timer must not end it
            previous = self._flash_timers.pop(station, None)
            if previous is not None:
                previous.cancel()
            timer = threading.Timer(self.FLASH_S, self._flash_over, args=(station, None))
            timer.args = (station, timer)
            timer.daemon = True
            self._flash_timers[station] = timer
            timer.start()
            return
        self._steady[station] = state
        if station in self._flashing:
            return  # shown when the flash is over
        if state == "on":
            led.on()
        elif state == "blink":
            led.blink(on_time=0.25, off_time=0.25)
        elif state == "off":
            led.off()
        else:
            raise ValueError(f"unknown LED state {state!r} (on, off or blink)")

    def set(self, station: int, state: str) -> None:
        """The flow's LED interface (controller.flow.Leds)."""
        self.set_led(station, state)

    def led_state(self, station: int) -> str:
        """What ``station``'s LED shows when no flash is running: "on", "off" or "blink"."""
        return self._steady.get(station, "off")

    def _flash_over(self, station: int, timer: threading.Timer | None = None) -> None:
        """End ``station``'s flash (``timer``: only if it is still that flash's timer)."""
        with self._led_lock:
            if self._closed or (timer is not None and self._flash_timers.get(station) is not timer):
                return
            self._flash_timers.pop(station, None)
            if self._flashing.pop(station, None) is not None and station in self.leds:
                self._set_led(station, self._steady.get(station, "off"))

    def close(self) -> None:
        # under the LED lock: a flash's timer must not reach an LED being closed
        with self._led_lock:
            self._closed = True
            for timer in self._flash_timers.values():
                timer.cancel()
            self._flash_timers.clear()
            self._flashing.clear()  # a flash still running ends with the panel
            for dev in [*self.buzzers.values(), *self.leds.values(), *self.pad.values()]:
                dev.close()


def edge_source(factory: Any) -> str:
    name = type(factory).__name__
    if "LGPIO" in name:
        return "the kernel's edge timestamps (lgpio)"
    if "Mock" in name:
        return "the mock pins' ticks"
    if "PiGPIO" in name:
        return "pigpiod's tick counter"
    return "the pin driver's callback ticks"
