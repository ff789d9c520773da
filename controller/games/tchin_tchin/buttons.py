"""Buzzer hygiene before the referee sees a press: unknown, disabled, held and bouncing buttons.

These are facts about the buttons, not rules of the game: a press the
buttons cannot vouch for never reaches the referee, so it is never penalized.

* unknown / disabled station: ignored;
* held: a button already down when a card opens sends no new press edge, so it
  cannot claim until it comes up and goes down again; a press line that follows a
  press with no release between them is taken as a fresh press (the release went
  unrecorded: a real button cannot go down twice);
* bounce: a press within ``bounce_s`` of the same station's last press or release
  (:class:`~controller.debounce.Debounce`, the box's one debounce).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.debounce import DEFAULT_BOUNCE_S, Debounce


@dataclass
class Buttons:
    """The state of every buzzer as the inputs told it."""

    seated: frozenset[int]
    disabled: frozenset[int] = frozenset()
    bounce_s: float = DEFAULT_BOUNCE_S
    down: set[int] = field(default_factory=set)
    held: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.debounce = Debounce(self.bounce_s)

    def press(self, station: int, t: float) -> str | None:
        """Record a press; returns why it must be ignored, or None when it goes to the referee."""
        if station not in self.seated:
            return "unknown station"
        if station in self.disabled:
            return "disabled station"
        bounce = self.debounce.press(station, t)
        self.down.add(station)
        self.held.discard(station)  # down again: it must have come up in between
        return "bounce" if bounce else None

    def release(self, station: int, t: float) -> str | None:
        """Record a release; returns why it means nothing, or None."""
        if station not in self.seated:
            return "unknown station"
        self.debounce.release(station, t)
        self.down.discard(station)
        self.held.discard(station)
        return None

    def card_opens(self, opener: int | None) -> list[int]:
        """A card opens: every button still down (but the one that opened it) is held."""
        self.held = {s for s in self.down if s != opener}
        return sorted(self.held)
