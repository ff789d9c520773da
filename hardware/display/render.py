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
import os
from pathlib import Path
from typing import Any

from hardware.display import art
from hardware.display.widgets import Banner, Card, Glyph, Grid, Menu, Row, Scene, Text, Timer, Widget

log = logging.getLogger(__name__)

INK = (240, 236, 226)
MUTED = (160, 165, 180)
ACCENT = (242, 190, 60)
PANEL = (40, 46, 64)
SIZES = {"title": 0.085, "heading": 0.06, "body": 0.045, "small": 0.032}


def _pygame() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


class Renderer:
    """Draws scenes; ``mode`` is "window", "fullscreen" or "headless"."""

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
        self._fonts: dict[tuple[int, bool], Any] = {}
        art.load()

    # -- fonts -------------------------------------------------------------------------
    def font(self, px: int, bold: bool = False) -> Any:
        key = (max(8, px), bold)
        if key not in self._fonts:
            path = self.pg.font.match_font("dejavusans,freesans,liberationsans", bold=bold)
            self._fonts[key] = self.pg.font.Font(path, key[0])
        return self._fonts[key]

    def text(self, surface: Any, text: str, rect: Any, px: int, colour: tuple[int, int, int] = INK,
             align: str = "center", bold: bool = False) -> None:
        """Draw ``text`` in ``rect``, shrinking the font until the widest line fits."""
        lines = text.split("\n")
        while px > 10:
            f = self.font(px, bold)
            if max(f.size(line)[0] for line in lines) <= rect.width - 8 and f.get_linesize() * len(lines) <= rect.height:
                break
            px = int(px * 0.9)
        f = self.font(px, bold)
        total = f.get_linesize() * len(lines)
        y = rect.centery - total // 2
        for line in lines:
            img = f.render(line, True, colour)
            r = img.get_rect(top=y)
            if align == "left":
                r.left = rect.left + 4
            elif align == "right":
                r.right = rect.right - 4
            else:
                r.centerx = rect.centerx
            surface.blit(img, r)
            y += f.get_linesize()

    # -- scene -------------------------------------------------------------------------
    def draw(self, scene: Scene) -> Any:
        pg = self.pg
        s = self.screen
        w, h = self.size
        s.fill(scene.background)
        title_h = int(h * 0.11)
        self.text(s, scene.title, pg.Rect(20, 0, w - 40, title_h), int(h * SIZES["title"]), ACCENT, bold=True)
        if scene.private_for is not None:
            self.text(s, f"PRIVATE: seat {scene.private_for} only", pg.Rect(w - 420, 0, 400, title_h // 2),
                      int(h * 0.03), (255, 120, 120), align="right", bold=True)
        footer_h = int(h * 0.06) if scene.footer else 0
        if scene.footer:
            self.text(s, scene.footer, pg.Rect(20, h - footer_h, w - 40, footer_h), int(h * 0.035), MUTED)
        area = pg.Rect(20, title_h, w - 40, h - title_h - footer_h - 8)
        self.draw_stack(s, scene.widgets, area)
        return s

    def fixed_height(self, widget: Widget, area_h: int) -> int | None:
        h = self.size[1]
        if isinstance(widget, Text):
            return int(h * SIZES.get(widget.size, 0.045) * 1.35 * (widget.text.count("\n") + 1))
        if isinstance(widget, Banner):
            return int(h * (0.2 if widget.subtitle else 0.15))
        if isinstance(widget, Timer):
            return int(h * 0.07)
        return None

    def draw_stack(self, s: Any, widgets: tuple[Widget, ...], area: Any) -> None:
        pg = self.pg
        fixed = [self.fixed_height(wd, area.height) for wd in widgets]
        flex_n = sum(1 for f in fixed if f is None)
        used = sum(f for f in fixed if f is not None)
        gap = 8
        free = max(0, area.height - used - gap * max(0, len(widgets) - 1))
        y = area.top
        for wd, fh in zip(widgets, fixed):
            hh = fh if fh is not None else (free // flex_n if flex_n else 0)
            if fh is not None and flex_n == 0 and len(widgets) == 1:
                hh = area.height
            self.draw_widget(s, wd, pg.Rect(area.left, y, area.width, hh))
            y += hh + gap

    def draw_widget(self, s: Any, wd: Widget, rect: Any) -> None:
        if isinstance(wd, Text):
            self.text(s, wd.text, rect, int(self.size[1] * SIZES.get(wd.size, 0.045)), wd.colour or INK,
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
        else:  # pragma: no cover - the vocabulary is closed
            raise TypeError(f"cannot draw {type(wd).__name__}")

    def card_rect(self, rect: Any, card: Card) -> Any:
        """The biggest 5:7 portrait card (or 7:5 landscape for 3+ glyphs) centred in ``rect``."""
        ratio = 0.72 if len(card.glyphs) < 3 else 1.45
        hh = rect.height
        ww = int(hh * ratio)
        if ww > rect.width:
            ww = rect.width
            hh = int(ww / ratio)
        r = self.pg.Rect(0, 0, ww, hh)
        r.center = rect.center
        return r

    def draw_banner(self, s: Any, b: Banner, rect: Any) -> None:
        pg = self.pg
        pg.draw.rect(s, b.colour, rect, border_radius=18)
        if b.subtitle:
            top = pg.Rect(rect.left, rect.top, rect.width, int(rect.height * 0.62))
            bottom = pg.Rect(rect.left, top.bottom, rect.width, rect.height - top.height)
            self.text(s, b.text, top, int(rect.height * 0.42), INK, bold=True)
            self.text(s, b.subtitle, bottom, int(rect.height * 0.2), INK)
        else:
            self.text(s, b.text, rect, int(rect.height * 0.5), INK, bold=True)

    def draw_timer(self, s: Any, t: Timer, rect: Any) -> None:
        pg = self.pg
        frac = 0.0 if t.total <= 0 else max(0.0, min(1.0, t.remaining / t.total))
        bar = pg.Rect(rect.left, rect.top + rect.height // 4, rect.width, rect.height // 2)
        pg.draw.rect(s, PANEL, bar, border_radius=10)
        colour = (90, 200, 120) if frac > 0.5 else (240, 190, 60) if frac > 0.2 else (230, 80, 70)
        pg.draw.rect(s, colour, pg.Rect(bar.left, bar.top, int(bar.width * frac), bar.height), border_radius=10)
        self.text(s, f"{t.label}  {t.remaining:0.1f} s".strip(), bar, int(bar.height * 0.8), (20, 20, 20), bold=True)

    def draw_menu(self, s: Any, m: Menu, rect: Any) -> None:
        pg = self.pg
        y = rect.top
        if m.title:
            th = int(self.size[1] * 0.07)
            self.text(s, m.title, pg.Rect(rect.left, y, rect.width, th), int(th * 0.7), MUTED)
            y += th
        n = max(1, len(m.items))
        item_h = min(int(self.size[1] * 0.09), (rect.bottom - y) // n)
        width = min(rect.width, int(self.size[0] * 0.6))
        left = rect.centerx - width // 2
        # keep the cursor in view when the list is longer than the screen
        visible = max(1, (rect.bottom - y) // max(1, item_h))
        first = max(0, min(m.cursor - visible // 2, len(m.items) - visible))
        for i in range(first, min(len(m.items), first + visible)):
            r = pg.Rect(left, y, width, item_h - 6)
            chosen = i == m.cursor
            if chosen:
                pg.draw.rect(s, ACCENT, r, border_radius=12)
            else:
                pg.draw.rect(s, PANEL, r, border_radius=12)
            colour = (30, 30, 30) if chosen else (MUTED if i in m.disabled else INK)
            label = ("> " + m.items[i]) if chosen else m.items[i]
            self.text(s, label, r, int(item_h * 0.55), colour, bold=chosen)
            y += item_h

    def draw_card(self, s: Any, c: Card, rect: Any) -> None:
        pg = self.pg
        radius = max(6, rect.width // 14)
        if c.highlight:
            pg.draw.rect(s, ACCENT, rect.inflate(12, 12), border_radius=radius + 4)
        if c.hidden:
            pg.draw.rect(s, (150, 30, 40), rect, border_radius=radius)
            inner = rect.inflate(-rect.width // 6, -rect.height // 6)
            pg.draw.rect(s, (220, 180, 90), inner, width=max(2, rect.width // 40), border_radius=radius)
            pg.draw.circle(s, (220, 180, 90), inner.center, min(inner.size) // 4, width=max(2, rect.width // 40))
            return
        pg.draw.rect(s, c.colour, rect, border_radius=radius)
        pg.draw.rect(s, (60, 50, 40), rect, width=max(2, rect.width // 80), border_radius=radius)
        title_h = int(rect.height * (0.16 if c.title else 0))
        cap_h = int(rect.height * (0.14 if c.caption else 0))
        if c.title:
            self.text(s, c.title, pg.Rect(rect.left + 6, rect.top + 4, rect.width - 12, title_h),
                      int(title_h * 0.7), (40, 30, 30), bold=True)
        if c.caption:
            self.text(s, c.caption, pg.Rect(rect.left + 6, rect.bottom - cap_h - 4, rect.width - 12, cap_h),
                      int(cap_h * 0.6), (60, 50, 50))
        body = pg.Rect(rect.left + 8, rect.top + title_h + 6, rect.width - 16, rect.height - title_h - cap_h - 12)
        n = len(c.glyphs)
        if not n:
            return
        cols = n if n <= 3 else (n + 1) // 2
        rows = 1 if n <= 3 else 2
        cw, ch = body.width // cols, body.height // rows
        for i, g in enumerate(c.glyphs):
            cell = pg.Rect(body.left + (i % cols) * cw, body.top + (i // cols) * ch, cw, ch).inflate(-6, -6)
            self.draw_glyph(s, g, cell)

    def draw_glyph(self, s: Any, g: Glyph, rect: Any) -> None:
        pg = self.pg
        label_h = int(rect.height * 0.2) if g.label else 0
        pic = pg.Rect(rect.left, rect.top, rect.width, rect.height - label_h)
        painter = art.PAINTERS.get(g.kind)
        if painter is None:
            pg.draw.rect(s, (200, 200, 200), pic, width=2, border_radius=8)
            self.text(s, g.name, pic, int(pic.height * 0.3), (40, 40, 40))
        else:
            painter(s, pic, g)
        if g.label:
            self.text(s, g.label, pg.Rect(rect.left, pic.bottom, rect.width, label_h), int(label_h * 0.8), (40, 40, 40))

    def draw_grid(self, s: Any, g: Grid, rect: Any) -> None:
        pg = self.pg
        top = rect.top
        if g.title:
            th = int(self.size[1] * 0.05)
            self.text(s, g.title, pg.Rect(rect.left, top, rect.width, th), int(th * 0.8), MUTED)
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

    def draw_row(self, s: Any, cells: tuple[Widget, ...], rect: Any) -> None:
        pg = self.pg
        n = max(1, len(cells))
        cw = rect.width // n
        for i, cell in enumerate(cells):
            self.draw_cell(s, cell, pg.Rect(rect.left + i * cw, rect.top, cw, rect.height).inflate(-8, 0))

    def draw_cell(self, s: Any, cell: Widget, r: Any) -> None:
        if isinstance(cell, (Grid, Row)):
            self.pg.draw.rect(s, PANEL, r, border_radius=12)
            self.draw_widget(s, cell, r.inflate(-8, -8))
        elif isinstance(cell, Text):
            self.draw_widget(s, cell, r)
        else:
            self.draw_widget(s, cell, r)

    # -- output ------------------------------------------------------------------------
    def save_png(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        self.pg.image.save(self.screen, str(p))
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
