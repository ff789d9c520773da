"""Every event announced: one banner for what just happened, its sound, and a flash of the
LED of the station it happened to; and a short public line of the last moves.

A flow calls :meth:`Announcer.announce` as it turns the engine's happenings into events;
its scenes show :meth:`Announcer.banner` (with who acts next as the subtitle) and
:meth:`Announcer.moves_line`. Nothing here is a decision: the journal and the replay's
events are the same with or without it.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.flow import FlowContext
from hardware.display.widgets import Banner, Bars, Colour, chip, seat_colour

#: kind of event -> (banner colour, sound cue)
KINDS: dict[str, tuple[Colour, str | None]] = {
    "claim": ((50, 90, 170), "claim"),
    "mistake": ((165, 70, 40), "mistake"),
    "penalty": ((160, 35, 45), "penalty"),
    "veto": ((115, 55, 150), "veto"),
    "win": ((35, 130, 65), "win"),
    "pot": ((140, 100, 20), "reveal"),
    "play": ((50, 90, 170), "turn"),
    "cheers": ((150, 105, 20), "clink"),
    "pour": ((115, 40, 70), "drink"),
    "toast": ((170, 40, 60), "clink"),
    "course": ((55, 95, 150), "reveal"),
    "move": ((60, 70, 100), "turn"),
    "over": ((150, 105, 20), "win"),
}


@dataclass(frozen=True)
class News:
    """One announced event: ``kind`` (a key of :data:`KINDS`), what happened, to whom."""

    kind: str
    text: str
    seat: int | None = None
    subtitle: str = ""
    t: float = 0.0
    """When it happened (game time)."""


class Announcer:
    """The latest event of a game, said once on every output the box has."""

    def __init__(self, ctx: FlowContext, keep: int = 3) -> None:
        self.ctx = ctx
        self.keep = keep
        self.latest: News | None = None
        self.moves: list[str] = []

    def announce(self, kind: str, text: str, seat: int | None = None, subtitle: str = "",
                 move: str | None = None, sound: bool = True) -> None:
        """Show ``text`` as the banner, play the kind's cue, flash ``seat``'s LED, and add
        ``move`` (a short public line) to the last moves."""
        if kind not in KINDS:
            raise KeyError(f"unknown kind of event {kind!r} (known: {', '.join(KINDS)})")
        self.latest = News(kind, text, seat, subtitle, self.ctx.clock.now())
        cue = KINDS[kind][1]
        if sound and cue is not None:
            self.ctx.sound.play(cue)
        if seat is not None and seat in self.ctx.stations and seat not in self.ctx.disabled:
            self.ctx.leds.set(seat, "flash")
        if move:
            self.moves = (self.moves + [move])[-self.keep:]

    def clear(self) -> None:
        self.latest = None

    def banner(self, next_up: str = "", within_s: float | None = None) -> Banner | None:
        """The latest event as a banner, with ``next_up`` (who acts next) after its subtitle;
        None when there is none (or, with ``within_s``, none that recent)."""
        news = self.latest
        if news is None or (within_s is not None and self.ctx.clock.now() - news.t > within_s):
            return None
        sub = " · ".join(x for x in (news.subtitle, next_up) if x)
        return Banner(news.text, colour=KINDS[news.kind][0], subtitle=sub, seat=news.seat)

    def moves_line(self) -> str:
        return ("Last moves: " + " · ".join(self.moves)) if self.moves else ""


class Pace:
    """How long each seat takes over its moves, from the moment the table waits on it: the
    end screen's chart (for fun; never a tie-break)."""

    def __init__(self) -> None:
        self.since: dict[int, float] = {}
        self.times: dict[int, list[float]] = {}

    def waits_on(self, seat: int, t: float) -> None:
        self.since.setdefault(seat, t)

    def moved(self, seat: int, t: float) -> None:
        start = self.since.pop(seat, None)
        if start is not None:
            self.times.setdefault(seat, []).append(t - start)

    def mean(self, seat: int) -> float | None:
        times = self.times.get(seat)
        return sum(times) / len(times) if times else None

    def bars(self, seats: list[int], title: str = "Mean time to decide a move") -> Bars:
        rows = []
        for s in seats:
            m = self.mean(s)
            rows.append((chip(s), m, "-" if m is None else f"{m:.1f} s"))
        return Bars(tuple(rows), title=title, colours=tuple(seat_colour(s) for s in seats))
