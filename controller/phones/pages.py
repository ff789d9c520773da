"""What a phone shows: a page per seat, built from the engine's view for that seat alone.

A page is plain JSON the phone draws as it comes (the page's script knows no game):

    {"game": "<title>", "seat": 2, "colour": "#e6553c", "status": "Your turn",
     "your_move": true, "over": false,
     "sections": [{"title": "Your hand", "kind": "hand",
                   "items": [{"text": "Mint", "sub": "clinks with lemon", "id": "C17"}]}],
     "actions": [{"path": ["Play a card", "Mint, clinks with lemon", "In front of seat 3"],
                  "do": {"type": "play", "seat": 2, "card": "C17", "to": 3}}]}

``seat`` None is the public table: its page is built from the public view alone and has
no actions. A game shows on phones when its package has a ``phone`` module with a
:class:`PhoneGame` named ``PHONE`` (found through the games' registry); a phone's action is
one of the ``do`` payloads its page offered (the same the replay file and the menus use).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from hardware.display.widgets import CHIP_CLOSE, CHIP_OPEN
from hardware.display.widgets import seat_colour as seat_rgb

Page = dict[str, Any]


class PhoneGame(Protocol):
    """One game as phones see it. The hub asks the game's engine (the common protocol of
    ``models/base.py``) for ``view(seat)`` and ``legal_actions(seat)``, and :meth:`page` builds
    the page from those two alone: it is never handed the game's state."""

    acts: bool
    """False where a phone only shows (timing stays on the buzzers)."""

    def engine(self, flow: Any) -> Any:
        """The flow's engine (``view``, ``legal_actions``, ``current_player``)."""

    def seats(self, flow: Any) -> tuple[int, ...]:
        """The seats people play (each gets a code)."""

    def page(self, view: Any, seat: int | None, actions: list[Any]) -> Page:
        """Seat ``seat``'s page from its view and its legal actions; None: the public table."""

    # optional: ``waits(flow) -> str | None``, why no phone may move now (the TV is still setting
    # the table up), said on the seats' pages and to a phone that tries
    # optional: ``refusal(flow, action) -> str | None``, the engine's reason it would refuse a
    # ``do`` payload now, judged without playing it (a refused move is then never journaled)


def phone_game(game: str) -> PhoneGame | None:
    """The phone side of a game by its id (None: this game has no phone pages)."""
    from controller.games import built_in

    for entry in built_in():
        if entry.game == game:
            found: PhoneGame | None = entry.part("phone", "PHONE")
            return found
    return None


def seat_colour(seat: int) -> str:
    """The seat's colour (its station's), as CSS ``#rrggbb``."""
    r, g, b = seat_rgb(seat)
    return f"#{r:02x}{g:02x}{b:02x}"


_CHIP = re.compile(re.escape(CHIP_OPEN) + r"(\d+)" + re.escape(CHIP_CLOSE))


def words(text: str) -> str:
    """TV text for a phone: a seat's chip (a coloured disc on the TV) written "seat N"."""
    out = _CHIP.sub(lambda m: f"seat {m.group(1)}", text)
    return out[:1].upper() + out[1:] if out.startswith("seat ") else out


def item(text: str, sub: str = "", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"text": text}
    if sub:
        out["sub"] = sub
    out.update(extra)
    return out


def section(title: str, items: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"title": title, "items": items, **extra}


def base_page(title: str, seat: int | None, status: str, *, your_move: bool = False,
              over: bool = False) -> Page:
    return {"game": title, "seat": seat, "colour": seat_colour(seat) if seat else "#8890a0",
            "status": status, "your_move": your_move, "over": over, "sections": [], "actions": []}
