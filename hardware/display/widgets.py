"""The scene vocabulary: a small, game-agnostic set of widgets the display knows how to draw.

The controller describes what the table should see as a :class:`Scene`; the
display draws it. Widgets are plain frozen data, so a scene can be compared,
logged and checked for secrets in a test.

Card art is described by :class:`Glyph` values (``kind`` + ``name``): the display
looks the kind up in its art registry (``hardware/display/art``), so a game adds
pictures without touching the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from hardware.display.colours import STATION_COLOURS

Colour = tuple[int, int, int]

#: how a seat is written inside any text: ``chip(3)`` draws seat 3's number on a disc of its LED colour
CHIP_OPEN, CHIP_CLOSE = "\u27e6", "\u27e7"


def chip(seat: int) -> str:
    """Seat ``seat`` as a chip in running text: its number on a disc of the colour of its LED."""
    return f"{CHIP_OPEN}{seat}{CHIP_CLOSE}"


def seat_colour(seat: int) -> Colour:
    """The colour of seat ``seat``'s LED (and of its chip and banner on the screen)."""
    return STATION_COLOURS[(seat - 1) % len(STATION_COLOURS)] if seat >= 1 else (150, 150, 150)


def plain(text: str) -> str:
    """``text`` with its chips written as plain numbers (for logs and tests)."""
    return text.replace(CHIP_OPEN, "").replace(CHIP_CLOSE, "")


@dataclass(frozen=True)
class Glyph:
    """One picture on a card: e.g. ``Glyph("flag", "FR")``, ``Glyph("ingredient", "mint")``."""

    kind: str
    name: str
    label: str = ""


@dataclass(frozen=True)
class Text:
    text: str
    size: str = "body"  # "title" | "heading" | "body" | "small"
    colour: Colour | None = None
    align: str = "center"  # "left" | "center" | "right"


@dataclass(frozen=True)
class Card:
    """A card face: a title, its pictures and a caption; ``hidden`` draws the back."""

    title: str = ""
    glyphs: tuple[Glyph, ...] = ()
    caption: str = ""
    colour: Colour = (245, 240, 225)
    hidden: bool = False
    highlight: bool = False
    small: bool = False


@dataclass(frozen=True)
class Grid:
    """Cells laid out in rows of ``columns``; a cell is any widget."""

    cells: tuple["Widget", ...]
    columns: int = 4
    title: str = ""


@dataclass(frozen=True)
class Menu:
    """A vertical menu with one item under the cursor."""

    items: tuple[str, ...]
    cursor: int = 0
    title: str = ""
    disabled: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Banner:
    """A big message across the screen (a claim, a veto, a win).

    ``seat`` puts that seat's chip at the banner's left and edges it in the seat's
    colour, so the table sees at once whose event it is.
    """

    text: str
    colour: Colour = (200, 40, 40)
    subtitle: str = ""
    seat: int | None = None


@dataclass(frozen=True)
class Timer:
    """A countdown: ``remaining`` of ``total`` seconds."""

    remaining: float
    total: float
    label: str = ""


@dataclass(frozen=True)
class Bars:
    """A bar chart: one bar per row, ``(label, value, shown)``; ``shown`` is written at the
    bar's end (e.g. "1.2 s"), a value of None draws no bar ("-")."""

    rows: tuple[tuple[str, float | None, str], ...]
    title: str = ""
    colours: tuple[Colour, ...] = ()
    """One colour per row (default: the accent colour)."""


@dataclass(frozen=True)
class Row:
    """Widgets side by side."""

    cells: tuple["Widget", ...]


@dataclass(frozen=True)
class QrCode:
    """A code to scan with a phone: ``modules`` are its rows, "1" dark and "0" light.

    ``caption`` is written under it; ``colour`` frames it (a seat's colour)."""

    modules: tuple[str, ...]
    caption: str = ""
    colour: Colour = (240, 236, 226)


Widget = Union[Text, Card, Grid, Menu, Banner, Timer, Row, QrCode, Bars]


@dataclass(frozen=True)
class Scene:
    """What the screen shows. ``private_for`` names the seat a private view belongs to."""

    title: str
    widgets: tuple[Widget, ...] = ()
    footer: str = ""
    private_for: int | None = None
    background: Colour = (24, 28, 40)
    hold: float | None = None
    """Show "hold Back to leave" with a ring filled this far (0 to 1); None hides it."""
