"""Drawing a :class:`~hardware.display.widgets.Scene` with pygame-ce.

One :class:`Renderer` serves the window, the full screen on a Pi and headless
runs (``SDL_VIDEODRIVER=dummy``), where it writes PNGs for tests and for the
README's screenshots. Layout is simple on purpose: the title on top, the
widgets stacked below it, flexible ones (cards, grids, rows, menus) sharing the
space left; everything is sized from the screen height so it reads from across
a table.
"""

from __future__ import annotations

import logging
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.display import art
from hardware.display.fonts import font_path
from hardware.display.widgets import (
    CHIP_CLOSE,
    CHIP_OPEN,
    Banner,
    Bars,
    Card,
    Glyph,
    Grid,
    Menu,
    QrCode,
    Row,
    Scene,
    Text,
    Timer,
    Widget,
    chip,
    seat_colour,
)

log = logging.getLogger(__name__)

INK = (240, 236, 226)
MUTED = (175, 180, 195)
ACCENT = (242, 190, 60)
PANEL = (40, 46, 64)
DARK_INK = (24, 22, 20)
#: text sizes as a fraction of the screen height; none is ever drawn below :func:`min_text_px`
SIZES = {"title": 0.085, "heading": 0.06, "body": 0.045, "small": 0.039}
#: the smallest text anywhere: 28 px on a 720-line screen (legible from a sofa), scaled with the screen
MIN_TEXT_AT_720 = 28
CHIP = re.compile(f"{CHIP_OPEN}(\\d+){CHIP_CLOSE}")


def min_text_px(screen_height: int) -> int:
    """The smallest font size (px) the renderer draws on a screen ``screen_height`` lines tall."""
    return max(8, round(MIN_TEXT_AT_720 * screen_height / 720))


@dataclass(frozen=True)
class Drawn:
    """One piece of text as drawn: its font size, the box it was given and where its ink went."""

    text: str
    px: int
    box: tuple[int, int, int, int]
    ink: tuple[int, int, int, int]
    clipped: bool
    """True when the text did not fit its box even at the smallest size (lines were cut)."""


def _pygame() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


def _readable_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark or light ink, whichever reads better on ``colour``."""
    r, g, b = colour[:3]
    return DARK_INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else INK


class Renderer:
    """Draws scenes; ``mode`` is "window", "fullscreen" or "headless".

    After each :meth:`draw`, :attr:`drawn` lists every piece of text drawn, so a test
    can check that none is smaller than :attr:`min_px` and none was cut or fell off screen.
    """

    def __init__(self, size: tuple[int, int] = (1280, 720), mode: str = "headless",
                 reserve_bottom: int = 0) -> None:
        if mode == "headless":
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        pg = _pygame()
        self.pg = pg
        pg.display.init()
        pg.font.init()
        self.mode = mode
        if mode == "headless":
            self.window = pg.Surface((size[0], size[1] + reserve_bottom))
        else:
            flags = pg.FULLSCREEN if mode == "fullscreen" else 0
            want = (0, 0) if mode == "fullscreen" else (size[0], size[1] + reserve_bottom)
            self.window = pg.display.set_mode(want, flags)
            pg.display.set_caption("clinkbox")
            pg.mouse.set_visible(mode != "fullscreen")
        w, h = self.window.get_size()
        # the scene's own area; below it, a band for the simulator's LEDs
        self.screen = self.window.subsurface((0, 0, w, h - reserve_bottom))
        self.band = self.window.subsurface((0, h - reserve_bottom, w, reserve_bottom)) if reserve_bottom else None
        self.size = self.screen.get_size()
        self.min_px = min_text_px(self.size[1])
        self.drawn: list[Drawn] = []
        self._fonts: dict[tuple[int, bool], Any] = {}
        art.load()

    # -- fonts -------------------------------------------------------------------------
    def font(self, px: int, bold: bool = False) -> Any:
        key = (max(8, px), bold)
        if key not in self._fonts:
            self._fonts[key] = self.pg.font.Font(font_path(bold), key[0])
        return self._fonts[key]

    def px(self, size: str) -> int:
        """The font size for a named text size on this screen."""
        return max(self.min_px, int(self.size[1] * SIZES.get(size, SIZES["body"])))

    # -- text: wrapping, seat chips, the minimum size -----------------------------------
    @staticmethod
    def _runs(line: str) -> list[str | int]:
        """A line as plain strings and seat numbers (chips)."""
        out: list[str | int] = []
        pos = 0
        for m in CHIP.finditer(line):
            if m.start() > pos:
                out.append(line[pos:m.start()])
            out.append(int(m.group(1)))
            pos = m.end()
        if pos < len(line):
            out.append(line[pos:])
        return out

    def _chip_font(self, f: Any) -> Any:
        """The font of a seat chip's number: in proportion to the text, never below the minimum."""
        return self.font(self._chip_px(f), True)

    def _chip_px(self, f: Any) -> int:
        return max(self.min_px, int(f.get_height() * 0.62))

    def _chip_w(self, f: Any, seat: int) -> int:
        return max(f.get_height(), self._chip_font(f).size(str(seat))[0] + 10)

    def line_width(self, line: str, f: Any) -> int:
        return sum(f.size(r)[0] if isinstance(r, str) else self._chip_w(f, r) + 6 for r in self._runs(line))

    def wrap(self, text: str, f: Any, width: int) -> list[str]:
        """``text`` broken at spaces into lines no wider than ``width`` where a word allows."""
        lines: list[str] = []
        for para in text.split("\n"):
            words = para.split(" ")
            cur = ""
            for word in words:
                trial = word if not cur else f"{cur} {word}"
                if cur and self.line_width(trial, f) > width:
                    lines.append(cur)
                    cur = word
                else:
                    cur = trial
            lines.append(cur)
        return lines

    def fit(self, text: str, rect: Any, px: int, bold: bool = False) -> tuple[int, list[str], bool]:
        """The biggest font from ``px`` down to the minimum at which ``text`` fits ``rect``.

        Text is wrapped before it is shrunk, and never drawn below :attr:`min_px`: what
        still does not fit is cut (and reported as clipped).
        """
        px = max(px, self.min_px)
        start = px
        width = rect.width - 8
        room = rect.height + self.font(px, bold).get_linesize() * 0.15
        while True:
            f = self.font(px, bold)
            # a little smaller on one line reads better than broken; a lot smaller does not
            for lines in ([text.split("\n")] if px > max(self.min_px, start * 0.8) else []) + [None]:
                if lines is None:
                    lines = self.wrap(text, f, width)
                fits = (max(self.line_width(ln, f) for ln in lines) <= width
                        and f.get_linesize() * len(lines) <= room)
                if fits:
                    return px, lines, True
            if px <= self.min_px:
                assert lines is not None  # the last try above is always the wrapped text
                return px, lines, False
            px = max(self.min_px, int(px * 0.9))

    def text_height(self, text: str, width: int, px: int, bold: bool = False) -> int:
        """How tall ``text`` is at ``px`` (not below the minimum), wrapped to ``width``."""
        f = self.font(max(px, self.min_px), bold)
        return f.get_linesize() * len(self.wrap(text, f, width - 8))

    def text(self, surface: Any, text: str, rect: Any, px: int, colour: tuple[int, int, int] = INK,
             align: str = "center", bold: bool = False, outline: tuple[int, int, int] | None = None) -> Any:
        """Draw ``text`` in ``rect``: wrapped, then shrunk (not below the minimum) to fit.

        Returns the rectangle the ink covers (on ``surface``).
        """
        pg = self.pg
        px, lines, fits = self.fit(text, rect, px, bold)
        f = self.font(px, bold)
        ls = f.get_linesize()
        if not fits:
            keep = max(1, int((rect.height + ls * 0.15) // ls))
            if keep < len(lines):
                lines = lines[:keep]
                lines[-1] = lines[-1].rstrip() + "\u2026"
        total = ls * len(lines)
        y = rect.centery - total // 2
        ink = None
        for line in lines:
            lw = self.line_width(line, f)
            if align == "left":
                x = rect.left + 4
            elif align == "right":
                x = rect.right - 4 - lw
            else:
                x = rect.centerx - lw // 2
            r = self._draw_line(surface, line, f, colour, x, y, outline)
            ink = r if ink is None else ink.union(r)
            y += ls
        ink = ink or pg.Rect(rect.center, (0, 0))
        off = surface.get_abs_offset()
        ink_abs = ink.move(off)
        box = rect.move(off)
        self.drawn.append(Drawn(text, px, tuple(box), tuple(ink_abs), not fits))
        return ink

    def _draw_line(self, surface: Any, line: str, f: Any, colour: tuple[int, int, int], x: int, y: int,
                   outline: tuple[int, int, int] | None) -> Any:
        pg = self.pg
        area = pg.Rect(x, y, 0, f.get_linesize())
        for run in self._runs(line):
            if isinstance(run, int):
                d = self._chip_w(f, run)
                centre = (x + 3 + d // 2, y + f.get_linesize() // 2)
                fill = seat_colour(run)
                pg.draw.circle(surface, fill, centre, d // 2)
                pg.draw.circle(surface, DARK_INK, centre, d // 2, width=max(2, d // 16))
                nf = self._chip_font(f)
                num = nf.render(str(run), True, _readable_on(fill))
                at = num.get_rect(center=centre)
                surface.blit(num, at)
                ink = at.move(surface.get_abs_offset())
                self.drawn.append(Drawn(str(run), self._chip_px(f), tuple(ink), tuple(ink), False))
                x += d + 6
                continue
            if outline is not None:
                shadow = f.render(run, True, outline)
                k = max(1, f.get_height() // 14)
                for dx, dy in ((-k, 0), (k, 0), (0, -k), (0, k), (-k, -k), (k, k), (-k, k), (k, -k)):
                    surface.blit(shadow, (x + dx, y + dy))
            img = f.render(run, True, colour)
            surface.blit(img, (x, y))
            x += img.get_width()
        area.width = x - area.left
        return area

    # -- scene -------------------------------------------------------------------------
    def draw(self, scene: Scene) -> Any:
        pg = self.pg
        s = self.screen
        w, h = self.size
        self.drawn = []
        self.placed: list[tuple[str, tuple[int, int, int, int]]] = []
        s.fill(scene.background)
        title_h = int(h * 0.11)
        title_w = w - 40
        if scene.private_for is not None:
            tag = f"PRIVATE {chip(scene.private_for)} only"
            tf = self.font(self.min_px, True)
            tag_w = self.line_width(tag, tf) + 24
            title_w -= tag_w + 10
            tag_rect = pg.Rect(w - 20 - tag_w, (title_h - tf.get_linesize() - 8) // 2, tag_w, tf.get_linesize() + 8)
            pg.draw.rect(s, (150, 30, 40), tag_rect, border_radius=10)
            self.text(s, tag, tag_rect, self.min_px, INK, bold=True)
            title_rect = pg.Rect(20, 0, title_w, title_h)
        else:
            title_rect = pg.Rect(20, 0, title_w, title_h)
        self.text(s, scene.title, title_rect, int(h * SIZES["title"]), ACCENT, bold=True)
        line_h = self.font(self.min_px).get_linesize()
        footer_h = line_h + 10 if (scene.footer or scene.hold is not None) else 0
        if footer_h:
            foot = pg.Rect(20, h - footer_h, w - 40, footer_h)
            if scene.hold is not None:
                ring = self.draw_hold(s, scene.hold, foot)
                foot.width = ring.left - foot.left - 16
            if scene.footer:
                # a long footer takes a second line rather than being cut
                lines = min(2, max(1, self.text_height(scene.footer, foot.width, self.min_px) // line_h))
                footer_h = line_h * lines + 10
                foot = pg.Rect(foot.left, h - footer_h, foot.width, footer_h)
                self.text(s, scene.footer, foot, self.min_px, MUTED)
        area = pg.Rect(20, title_h, w - 40, h - title_h - footer_h - 8)
        self.draw_stack(s, scene.widgets, area)
        return s

    def draw_hold(self, s: Any, progress: float, foot: Any) -> Any:
        """ "hold Back to leave" and a ring that fills while Back is held; returns their box."""
        pg = self.pg
        label = "hold Back to leave"
        f = self.font(self.min_px)
        d = foot.height - 6
        lw = f.size(label)[0] + 8
        box = pg.Rect(foot.right - d - 10 - lw, foot.top, d + 10 + lw, foot.height)
        self.text(s, label, pg.Rect(box.left, box.top, lw, box.height), self.min_px,
                  ACCENT if progress > 0 else MUTED)
        centre = (box.right - d // 2, box.centery)
        pg.draw.circle(s, PANEL, centre, d // 2)
        pg.draw.circle(s, MUTED, centre, d // 2, width=max(3, d // 8))
        frac = max(0.0, min(1.0, progress))
        if frac > 0:
            ring = pg.Rect(0, 0, d, d)
            ring.center = centre
            start = math.pi / 2 - 2 * math.pi * frac
            pg.draw.arc(s, ACCENT, ring, start, math.pi / 2, width=max(4, d // 5))
        self.placed.append(("hold", tuple(box.move(s.get_abs_offset()))))
        return box

    def fixed_height(self, widget: Widget, width: int) -> int | None:
        h = self.size[1]
        if isinstance(widget, Text):
            return self.text_height(widget.text, width, self.px(widget.size), widget.size in ("title", "heading")) + 6
        if isinstance(widget, Banner):
            return self.banner_height(widget, width)
        if isinstance(widget, Timer):
            return max(int(h * 0.07), self.font(self.min_px).get_linesize() + 12)
        return None

    def draw_stack(self, s: Any, widgets: tuple[Widget, ...], area: Any) -> None:
        pg = self.pg
        fixed = [self.fixed_height(wd, area.width) for wd in widgets]
        flex_n = sum(1 for f in fixed if f is None)
        used = sum(f for f in fixed if f is not None)
        gap = 8
        free = max(0, area.height - used - gap * max(0, len(widgets) - 1))
        y = area.top
        if flex_n == 0:  # nothing stretches: centre the widgets in the area
            y += free // 2
        share = {i: free // flex_n for i, f in enumerate(fixed) if f is None}
        menus = [i for i in share if isinstance(widgets[i], Menu)]
        if len(menus) == 1 and flex_n > 1:  # a menu takes what shows a few of its choices, the rest the rest
            i = menus[0]
            want = min(self.menu_height(widgets[i], area.width), int(free * 0.6))  # type: ignore[arg-type]
            share = {j: (want if j == i else (free - want) // (flex_n - 1)) for j in share}
        for k, (wd, fh) in enumerate(zip(widgets, fixed)):
            hh = fh if fh is not None else share[k]
            self.draw_widget(s, wd, pg.Rect(area.left, y, area.width, hh))
            y += hh + gap

    def draw_widget(self, s: Any, wd: Widget, rect: Any) -> None:
        self.placed.append((type(wd).__name__, tuple(rect.move(s.get_abs_offset()))))
        if isinstance(wd, Text):
            self.text(s, wd.text, rect, self.px(wd.size), wd.colour or INK,
                      align=wd.align, bold=wd.size in ("title", "heading"))
        elif isinstance(wd, Banner):
            self.draw_banner(s, wd, rect)
        elif isinstance(wd, Timer):
            self.draw_timer(s, wd, rect)
        elif isinstance(wd, Menu):
            self.draw_menu(s, wd, rect)
        elif isinstance(wd, Card):
            self.draw_card(s, wd, self.card_rect(rect, wd))
        elif isinstance(wd, Grid):
            self.draw_grid(s, wd, rect)
        elif isinstance(wd, Row):
            self.draw_row(s, wd.cells, rect)
        elif isinstance(wd, QrCode):
            self.draw_qr(s, wd, rect)
        elif isinstance(wd, Bars):
            self.draw_bars(s, wd, rect)
        else:  # pragma: no cover - the vocabulary is closed
            raise TypeError(f"cannot draw {type(wd).__name__}")

    def card_rect(self, rect: Any, card: Card) -> Any:
        """The biggest 5:7 portrait card (or 7:5 landscape for 3+ glyphs, where ``rect`` is wider
        than tall: in a narrow one its pictures go in rows, :meth:`glyph_grid`) centred in ``rect``."""
        ratio = 0.72 if len(card.glyphs) < 3 or rect.width < rect.height else 1.45
        hh = rect.height
        ww = int(hh * ratio)
        if ww > rect.width:
            ww = rect.width
            hh = int(ww / ratio)
        labels = [g.label for g in card.glyphs if g.label]
        if labels:  # wide enough for every picture's label on one line at the smallest size
            f = self.font(self.min_px)
            cols = len(card.glyphs) if len(card.glyphs) <= 3 else (len(card.glyphs) + 1) // 2
            label_w = max(self.line_width(x, f) for x in labels)
            ww = min(rect.width, max(ww, cols * (label_w + 16) + 2 * self._card_pad(hh)))  # clear of its frame
        if card.title:  # and for its title
            ww = min(rect.width, max(ww, self.line_width(card.title, self.font(self.min_px, True)) + 24))
        r = self.pg.Rect(0, 0, ww, hh)
        r.center = rect.center
        return r

    # -- banner: the event of the moment --------------------------------------------------
    def _banner_px(self) -> tuple[int, int]:
        h = self.size[1]
        return max(self.min_px, int(h * 0.075)), self.px("body")

    def banner_height(self, b: Banner, width: int) -> int:
        head, sub = self._banner_px()
        inner = width - 40 - (self._banner_chip(b, int(self.size[1] * 0.15)) if b.seat is not None else 0)
        need = self.text_height(b.text, inner, head, True) + 24
        if b.subtitle:
            need += self.text_height(b.subtitle, inner, sub)
        return max(int(self.size[1] * (0.2 if b.subtitle else 0.15)), need)

    @staticmethod
    def _banner_chip(b: Banner, height: int) -> int:
        return int(height * 0.8) + 20

    def draw_banner(self, s: Any, b: Banner, rect: Any) -> None:
        pg = self.pg
        pg.draw.rect(s, b.colour, rect, border_radius=18)
        ink = _readable_on(b.colour)
        inner = rect.inflate(-20, -12)
        text = b.text
        if b.seat is not None:
            rest = text.removeprefix(chip(b.seat)).lstrip()  # the big chip says it already
            if rest.startswith(":"):  # "(2): your team's goal" reads "Your team's goal" beside the chip
                rest = rest[1:].lstrip()
                rest = rest[:1].upper() + rest[1:]
            if not rest.startswith(("'", "\u2019")):  # "(2)'s front" keeps its chip
                text = rest
            ring = seat_colour(b.seat)
            pg.draw.rect(s, ring, rect, width=max(6, rect.height // 20), border_radius=18)
            d = min(int(rect.height * 0.7), int(self.size[1] * 0.15))
            centre = (rect.left + 20 + d // 2, rect.centery)
            pg.draw.circle(s, ring, centre, d // 2)
            pg.draw.circle(s, DARK_INK, centre, d // 2, width=max(3, d // 20))
            self.text(s, str(b.seat), pg.Rect(centre[0] - d // 2, centre[1] - d // 2, d, d), int(d * 0.6),
                      _readable_on(ring), bold=True)
            inner = pg.Rect(rect.left + 30 + d, inner.top, rect.right - 20 - (rect.left + 30 + d), inner.height)
        head, sub = self._banner_px()
        if b.subtitle:
            sub_h = self.text_height(b.subtitle, inner.width, sub)
            top = pg.Rect(inner.left, inner.top, inner.width, inner.height - sub_h)
            self.text(s, text, top, head, ink, bold=True)
            self.text(s, b.subtitle, pg.Rect(inner.left, top.bottom, inner.width, sub_h), sub, ink)
        else:
            self.text(s, text, inner, head, ink, bold=True)

    def draw_timer(self, s: Any, t: Timer, rect: Any) -> None:
        pg = self.pg
        frac = 0.0 if t.total <= 0 else max(0.0, min(1.0, t.remaining / t.total))
        bar = rect.inflate(0, -6)
        pg.draw.rect(s, PANEL, bar, border_radius=10)
        colour = (60, 170, 95) if frac > 0.5 else (215, 160, 40) if frac > 0.2 else (210, 60, 55)
        pg.draw.rect(s, colour, pg.Rect(bar.left, bar.top, int(bar.width * frac), bar.height), border_radius=10)
        # light text edged in black reads on the coloured part and on the dark part alike
        self.text(s, f"{t.label}  {t.remaining:0.1f} s".strip(), bar, self.min_px, INK, bold=True,
                  outline=(10, 10, 10))

    def menu_height(self, m: Menu, width: int) -> int:
        """The height that shows ``m``'s title and up to four of its choices (three and the page
        line, for a longer menu) at the smallest item height."""
        least = max(int(self.font(self.min_px).get_linesize()) + 16, int(self.size[1] * 0.07))
        title = self.text_height(m.title, width, max(self.min_px, int(self.size[1] * 0.05))) if m.title else 0
        return title + min(len(m.items), 4) * least

    def draw_menu(self, s: Any, m: Menu, rect: Any) -> None:
        """The menu's items; a list longer than the space is shown a page at a time, never shrunk."""
        pg = self.pg
        y = rect.top
        small = self.font(self.min_px)
        if m.title:
            th = self.text_height(m.title, rect.width, max(self.min_px, int(self.size[1] * 0.05)))
            self.text(s, m.title, pg.Rect(rect.left, y, rect.width, th), int(self.size[1] * 0.05), MUTED)
            y += th
        n = max(1, len(m.items))
        least = small.get_linesize() + 16
        item_h = max(least, min(int(self.size[1] * 0.09), (rect.bottom - y) // n))
        item_px = max(self.min_px, int(item_h * 0.55))
        f = self.font(item_px, True)
        widest = max((self.line_width("> " + it, f) for it in m.items), default=0) + 40
        width = min(rect.width, max(int(self.size[0] * 0.6), widest))
        left = rect.centerx - width // 2
        per_page = max(1, (rect.bottom - y) // item_h)
        pages = 1
        if len(m.items) > per_page:
            per_page = max(1, (rect.bottom - y - least) // item_h)
            pages = math.ceil(len(m.items) / per_page)
        page = min(m.cursor // per_page, pages - 1)
        first = page * per_page
        for i in range(first, min(len(m.items), first + per_page)):
            r = pg.Rect(left, y, width, item_h - 6)
            chosen = i == m.cursor
            pg.draw.rect(s, ACCENT if chosen else PANEL, r, border_radius=12)
            colour = DARK_INK if chosen else (MUTED if i in m.disabled else INK)
            label = ("> " + m.items[i]) if chosen else m.items[i]
            self.text(s, label, r, item_px, colour, bold=chosen)
            y += item_h
        if pages > 1:
            more = f"page {page + 1} of {pages} \u00b7 Prev / Next for more"
            self.text(s, more, pg.Rect(left, y, width, least), self.min_px, ACCENT)

    @staticmethod
    def _card_pad(side: int) -> int:
        """What :meth:`draw_card` leaves between the edge of a card whose shorter side is ``side``
        and its pictures: clear of its frame and its rounded corners."""
        return max(8, max(6, side // 14) // 2 + max(2, side // 80))

    def draw_card(self, s: Any, c: Card, rect: Any) -> None:
        pg = self.pg
        side = min(rect.width, rect.height)  # a wide card's corners are as round as a narrow one's
        radius, frame = max(6, side // 14), max(2, side // 80)
        # labelled pictures keep their labels clear of the frame and the rounded corners
        pad = self._card_pad(side) if any(g.label for g in c.glyphs) else 8
        if c.highlight:
            pg.draw.rect(s, ACCENT, rect.inflate(12, 12), border_radius=radius + 4)
        if c.hidden:
            pg.draw.rect(s, (150, 30, 40), rect, border_radius=radius)
            inner = rect.inflate(-rect.width // 6, -rect.height // 6)
            pg.draw.rect(s, (220, 180, 90), inner, width=max(2, rect.width // 40), border_radius=radius)
            pg.draw.circle(s, (220, 180, 90), inner.center, min(inner.size) // 4, width=max(2, rect.width // 40))
            return
        pg.draw.rect(s, c.colour, rect, border_radius=radius)
        pg.draw.rect(s, (60, 50, 40), rect, width=frame, border_radius=radius)
        ink = _readable_on(c.colour)
        title_px = max(self.min_px, int(rect.height * 0.11))
        cap_px = max(self.min_px, int(rect.height * 0.08))
        inner_w = rect.width - 12
        title_h = self.text_height(c.title, inner_w, title_px, True) if c.title else 0
        cap_h = self.text_height(c.caption, inner_w, cap_px) if c.caption else 0
        if c.title:
            self.text(s, c.title, pg.Rect(rect.left + 6, rect.top + 4, inner_w, title_h), title_px, ink, bold=True)
        if c.caption:
            self.text(s, c.caption, pg.Rect(rect.left + 6, rect.bottom - cap_h - 4, inner_w, cap_h), cap_px, ink)
        bottom = 6 + cap_h if c.caption else max(6, pad)  # a caption has its own place at the bottom
        body = pg.Rect(rect.left + pad, rect.top + title_h + 6, rect.width - 2 * pad,
                       rect.height - title_h - 6 - bottom)
        n = len(c.glyphs)
        if not n or body.height <= 0:
            return
        cols, rows = self.glyph_grid(c, body)
        cw, ch = body.width // cols, body.height // rows
        # one size for every label on the card: the largest at which each fits on one line
        label_px = max(self.min_px, int((ch - 6) * 0.16))
        while label_px > self.min_px and any(
                self.line_width(g.label, self.font(label_px)) > cw - 10 for g in c.glyphs if g.label):
            label_px = max(self.min_px, int(label_px * 0.9))
        for i, g in enumerate(c.glyphs):
            cell = pg.Rect(body.left + (i % cols) * cw, body.top + (i // cols) * ch, cw, ch).inflate(-6, -6)
            self.draw_glyph(s, g, cell, label_px)

    def glyph_grid(self, c: Card, body: Any) -> tuple[int, int]:
        """Columns and rows for a card's pictures: side by side (two rows past three), or, when
        that leaves each picture less room than stacking them would (a narrow card), the
        layout whose cells are the biggest with every label on one line at the smallest size."""
        n = len(c.glyphs)
        usual = (n, 1) if n <= 3 else ((n + 1) // 2, 2)
        f = self.font(self.min_px)
        label_w = max((self.line_width(g.label, f) for g in c.glyphs if g.label), default=0)

        def room(cols: int) -> int:
            rows = -(-n // cols)
            return min(body.width // cols, body.height // rows)

        fitting = [k for k in range(1, n + 1) if not label_w or label_w <= body.width // k - 10]
        best = max(fitting, key=room, default=usual[0])
        if room(best) <= room(usual[0]) * 1.2:  # not clearly better: the usual layout
            return usual
        return best, -(-n // best)

    def draw_glyph(self, s: Any, g: Glyph, rect: Any, label_px: int | None = None) -> None:
        pg = self.pg
        label_px = label_px or max(self.min_px, int(rect.height * 0.16))
        label_h = min(rect.height // 2, self.text_height(g.label, rect.width + 6, label_px)) if g.label else 0
        pic = pg.Rect(rect.left, rect.top, rect.width, rect.height - label_h)
        painter = art.PAINTERS.get(g.kind)
        if painter is None:
            pg.draw.rect(s, (200, 200, 200), pic, width=2, border_radius=8)
            self.text(s, g.name, pic, int(pic.height * 0.3), DARK_INK)
        else:
            painter(s, pic, g)
        if g.label:
            self.text(s, g.label, pg.Rect(rect.left - 3, pic.bottom, rect.width + 6, label_h), label_px, DARK_INK)

    def draw_qr(self, s: Any, q: QrCode, rect: Any) -> None:
        """Dark modules on white with a quiet zone of 2 modules, framed in ``q.colour``."""
        pg = self.pg
        cap_h = int(rect.height * 0.16) if q.caption else 0
        n = max(1, len(q.modules))
        side = min(rect.width, rect.height - cap_h)
        unit = max(1, side // (n + 6))  # 2 modules of quiet zone and 1 of frame on each side
        full = unit * (n + 6)
        box = pg.Rect(0, 0, full, full)
        box.midtop = (rect.centerx, rect.top + max(0, (rect.height - cap_h - full) // 2))
        pg.draw.rect(s, q.colour, box, border_radius=unit * 2)
        quiet = box.inflate(-2 * unit, -2 * unit)
        pg.draw.rect(s, (255, 255, 255), quiet)
        x0, y0 = quiet.left + 2 * unit, quiet.top + 2 * unit
        for y, row in enumerate(q.modules):
            for x, bit in enumerate(row):
                if bit == "1":
                    pg.draw.rect(s, (0, 0, 0), (x0 + x * unit, y0 + y * unit, unit, unit))
        if q.caption:
            self.text(s, q.caption, pg.Rect(rect.left, box.bottom + 2, rect.width, cap_h),
                      int(cap_h * 0.7), q.colour if q.colour != (240, 236, 226) else INK, bold=True)

    def draw_grid(self, s: Any, g: Grid, rect: Any) -> None:
        pg = self.pg
        top = rect.top
        if g.title:
            px = max(self.min_px, int(self.size[1] * 0.04))
            th = self.text_height(g.title, rect.width, px)
            self.text(s, g.title, pg.Rect(rect.left, top, rect.width, th), px, MUTED)
            top += th
        n = len(g.cells)
        if not n:
            return
        cols = max(1, min(g.columns, n))
        rows = (n + cols - 1) // cols
        cw = rect.width // cols
        ch = (rect.bottom - top) // rows
        for i, cell in enumerate(g.cells):
            r = pg.Rect(rect.left + (i % cols) * cw, top + (i // cols) * ch, cw, ch).inflate(-8, -8)
            self.draw_cell(s, cell, r)

    def draw_bars(self, s: Any, b: Bars, rect: Any) -> None:
        """A horizontal bar per row: its label on the left, the bar, its value written after it."""
        pg = self.pg
        top = rect.top
        if b.title:
            th = self.text_height(b.title, rect.width, self.min_px)
            self.text(s, b.title, pg.Rect(rect.left, top, rect.width, th), self.min_px, MUTED)
            top += th
        if not b.rows:
            return
        f = self.font(self.min_px)
        ls = int(f.get_linesize())
        room = rect.bottom - top
        n = len(b.rows)
        label_w = max(self.line_width(lab, f) for lab, _, _ in b.rows) + 16
        value_w = max(self.line_width(v, f) for _, _, v in b.rows) + 16
        # rows that do not fit one above the other go in two columns, when the width allows
        cols = 2 if n > 1 and n * ls > room and rect.width >= 2 * (label_w + value_w + ls * 2) else 1
        per_col = math.ceil(n / cols)
        row_h = max(ls, min(int(self.size[1] * 0.08), room // per_col))
        col_w = rect.width // cols
        label_w = min(col_w // 3, label_w)
        bar_w = max(0, col_w - label_w - value_w - (12 if cols > 1 else 0))
        peak = max((v for _, v, _ in b.rows if v is not None), default=0.0) or 1.0
        for i, (label, value, shown) in enumerate(b.rows):
            left = rect.left + (i // per_col) * col_w
            y = top + (i % per_col) * row_h
            self.text(s, label, pg.Rect(left, y, label_w, row_h), self.min_px, INK, align="left")
            length = 0 if value is None else max(4, int(bar_w * value / peak))
            colour = b.colours[i] if i < len(b.colours) else ACCENT
            bar = pg.Rect(left + label_w, y + row_h // 5, length, row_h - 2 * (row_h // 5))
            if length:
                pg.draw.rect(s, colour, bar, border_radius=6)
            self.text(s, shown, pg.Rect(bar.right + 4, y, value_w, row_h), self.min_px, INK, align="left")
            if y + row_h > rect.bottom + 2:  # a row below the chart's own space lies over what is under it
                box = (left, y, col_w, row_h)
                self.drawn.append(Drawn(shown, self.min_px, box, box, True))

    def draw_row(self, s: Any, cells: tuple[Widget, ...], rect: Any) -> None:
        pg = self.pg
        n = max(1, len(cells))
        cw = rect.width // n
        boxes = [pg.Rect(rect.left + i * cw, rect.top, cw, rect.height).inflate(-8, 0) for i in range(n)]
        if cells and all(isinstance(c, Card) for c in cells):
            # a row of cards (goblets, a reveal) is drawn at one size: the smallest that fits them all
            sizes = [self.card_rect(box, c) for box, c in zip(boxes, cells) if isinstance(c, Card)]
            w, h = min(r.width for r in sizes), min(r.height for r in sizes)
            for box, cell in zip(boxes, cells):
                assert isinstance(cell, Card)
                r = pg.Rect(0, 0, w, h)
                r.center = box.center
                self.placed.append(("Card", tuple(r.move(s.get_abs_offset()))))
                self.draw_card(s, cell, r)
            return
        for i, cell in enumerate(cells):
            self.draw_cell(s, cell, boxes[i])

    def draw_cell(self, s: Any, cell: Widget, r: Any) -> None:
        if isinstance(cell, (Grid, Row)):
            self.pg.draw.rect(s, PANEL, r, border_radius=12)
            self.draw_widget(s, cell, r.inflate(-8, -8))
        else:
            self.draw_widget(s, cell, r)

    # -- checks ------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """What is wrong with the last scene drawn: text below the minimum, cut, or off screen."""
        w, h = self.size
        screen = self.pg.Rect(0, 0, w, h)
        out = []
        for d in self.drawn:
            if d.px < self.min_px:
                out.append(f"{d.text!r} drawn at {d.px} px (minimum {self.min_px})")
            if d.clipped:
                out.append(f"{d.text!r} does not fit its box {d.box} at {d.px} px: cut")
            if d.text and not screen.contains(self.pg.Rect(d.ink)):
                out.append(f"{d.text!r} falls off the screen at {d.ink}")
        for kind, box in self.placed:
            r = self.pg.Rect(box)
            if r.height <= 0 or not screen.contains(r):
                out.append(f"a {kind} placed at {box} is not on the screen")
        return out

    # -- output ------------------------------------------------------------------------
    def save_png(self, path: str | Path, band: bool = False) -> Path:
        """Write the screen (with ``band``, the whole window: the LED band under it too)."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        self.pg.image.save(self.window if band else self.screen, str(p))
        return p

    def present(self) -> None:
        if self.mode != "headless":
            self.pg.display.flip()

    def close(self) -> None:
        self.pg.display.quit()


def render_png(scene: Scene, path: str | Path, size: tuple[int, int] = (1280, 720)) -> Path:
    """Draw ``scene`` headless and write it as a PNG."""
    r = Renderer(size, "headless")
    r.draw(scene)
    return r.save_png(path)
