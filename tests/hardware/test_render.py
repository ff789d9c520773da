"""Real pygame-ce rendering, headless: scenes become PNGs a person can look at."""

from __future__ import annotations

import pygame
import pytest

from hardware.display.render import Renderer, render_png
from hardware.display.widgets import Banner, Card, Glyph, Grid, Menu, Row, Scene, Text, Timer


def pixels(path):
    img = pygame.image.load(str(path))
    return img, {img.get_at((x, y))[:3] for x in range(0, img.get_width(), 16) for y in range(0, img.get_height(), 16)}


def test_a_scene_is_written_as_a_png_of_the_screen_size(tmp_path):
    p = render_png(Scene("Hello", (Text("world"),)), tmp_path / "a.png", size=(640, 360))
    img, colours = pixels(p)
    assert img.get_size() == (640, 360)
    assert len(colours) > 2, "something was drawn on the background"


def test_the_menu_cursor_is_drawn_in_the_accent_colour(tmp_path):
    r = Renderer((800, 600), "headless")
    accent = (242, 190, 60)

    def accent_rows(cursor):
        surface = r.draw(Scene("Menu", (Menu(("One", "Two", "Three"), cursor=cursor),)))
        return [y for y in range(0, 600, 2) if surface.get_at((250, y))[:3] == accent]

    first, third = accent_rows(0), accent_rows(2)
    assert first and third, "the chosen item is highlighted"
    assert min(third) > max(first), "the highlight moves down with the cursor"


@pytest.mark.parametrize("widget", [
    Banner("Station 3 claims!", subtitle="say it"), Timer(1.5, 3.0, "veto"),
    Card("D24", (Glyph("station", "3"), Glyph("unknown-kind", "x", "label"))), Card(hidden=True),
    Grid((Text("a"), Card("b", small=True), Row((Text("c"), Text("d")))), columns=2),
])
def test_every_widget_draws(tmp_path, widget):
    p = render_png(Scene("W", (widget,), footer="footer", private_for=2), tmp_path / "w.png", (640, 360))
    assert len(pixels(p)[1]) > 3


def test_long_text_shrinks_to_fit(tmp_path):
    r = Renderer((320, 240), "headless")
    r.draw(Scene("T", (Text("a very long line of text that cannot possibly fit at full size"),)))
    assert r.screen.get_size() == (320, 240)


# -- readable from a sofa ---------------------------------------------------------------

@pytest.mark.parametrize("size, least", [((1280, 720), 28), ((1280, 800), 31), ((1920, 1080), 42)])
def test_no_text_is_drawn_below_the_minimum_however_crowded(size, least):
    r = Renderer(size, "headless")
    assert r.min_px == least
    crowded = Scene("A title far too long to fit on one line of any screen at all, even a wide one",
                    (Text("small print " * 12, size="small"),
                     Grid(tuple(Card(f"Goblet {i}", (Glyph("token", "wine", "Antidote ×2"),), "poured by 1, 2")
                                for i in range(8)), columns=8),
                     Timer(1.0, 3.0, "listening")), footer="a footer", hold=0.5, private_for=3)
    r.draw(crowded)
    assert r.drawn and min(d.px for d in r.drawn) >= least


def test_text_is_wrapped_before_it_is_shrunk():
    r = Renderer((1280, 720), "headless")
    r.draw(Scene("T", (Text("one two three four five six seven eight nine ten " * 3),)))
    [body] = [d for d in r.drawn if d.text.startswith("one")]
    assert body.px == r.px("body"), "a long sentence keeps its size"
    assert body.ink[3] > 2 * body.px, "and takes several lines"
    assert not r.problems()


def test_text_that_cannot_fit_even_wrapped_is_reported_as_cut():
    r = Renderer((640, 360), "headless")
    r.draw(Scene("T", (Row(tuple(Text("unbreakablewordnumber" + str(i)) for i in range(6))),)))
    assert any("cut" in p for p in r.problems())


def test_a_long_menu_is_paged_not_shrunk():
    r = Renderer((1280, 720), "headless")
    items = tuple(f"Choice {i}" for i in range(1, 31))
    r.draw(Scene("Menu", (Menu(items, cursor=0),)))
    first_page = {d.text for d in r.drawn}
    r.draw(Scene("Menu", (Menu(items, cursor=29),)))
    last_page = {d.text for d in r.drawn}
    assert "Choice 2" in first_page and "Choice 2" not in last_page
    assert "> Choice 30" in last_page and "Choice 30" not in first_page
    assert any(t.startswith("page 1 of") for t in first_page)
    assert min(d.px for d in r.drawn) >= r.min_px and not r.problems()


def test_a_seat_chip_is_drawn_in_the_colour_of_that_seats_led():
    from hardware.display.colours import STATION_COLOURS
    from hardware.display.widgets import chip, plain

    r = Renderer((640, 360), "headless")
    surface = r.draw(Scene("", (Text(f"{chip(3)} claims"),)))
    [d] = [d for d in r.drawn if "claims" in d.text]
    x, y, w, h = d.ink
    row = {surface.get_at((xx, y + h // 2))[:3] for xx in range(x, x + h)}
    assert STATION_COLOURS[2] in row
    assert plain(chip(3) + " claims") == "3 claims"


def test_a_banner_for_a_seat_carries_its_colour_and_number():
    from hardware.display.widgets import seat_colour

    r = Renderer((1280, 720), "headless")
    surface = r.draw(Scene("", (Banner("Seat 5 claims!", colour=(40, 60, 120), seat=5),)))
    [placed] = [box for kind, box in r.placed if kind == "Banner"]
    x, y, w, h = placed
    assert surface.get_at((x + w // 2, y + 2))[:3] == seat_colour(5), "edged in the seat's colour"
    assert "5" in {d.text for d in r.drawn}


def test_a_banner_s_own_chip_moves_to_its_big_chip_and_takes_no_stray_colon_with_it():
    from hardware.display.widgets import chip

    r = Renderer((1280, 720), "headless")
    r.draw(Scene("", (Banner(f"{chip(2)}: your team's goal", seat=2, subtitle="look away"),)))
    texts = {d.text for d in r.drawn}
    assert "Your team's goal" in texts and not any(t.startswith(":") for t in texts)
    r.draw(Scene("", (Banner(f"{chip(2)}'s front clinks", seat=2),)))
    assert f"{chip(2)}'s front clinks" in {d.text for d in r.drawn}, "a possessive keeps its chip"


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800), (1920, 1080)])
def test_a_menu_under_cards_and_text_shows_three_choices_at_once_not_one_a_page(size):
    items = ("Pour", "Peek", "Rotate", "Swap", "Spy")
    scene = Scene("Seat 2 · private", (
        Text("2's turn · 2 actions left", size="heading"),
        Row((Card("Behind your screen", (Glyph("token", "wine", "Wine ×3"), Glyph("token", "poison", "Poison ×2"),
                                         Glyph("token", "antidote", "Antidote ×2")), small=True),)),
        Text("Hypochondriac: Each ordinary Antidote in your goblet removes two ordinary Poisons.\n"
             "House McToadery · your target: Aconitiers\nYour victory points: 0", size="small"),
        Menu(items, 0)), footer="Prev / Next to move · OK to choose · Back to go up or close", hold=0.0)
    r = Renderer(size, "headless")
    r.draw(scene)
    shown = {d.text.removeprefix("> ") for d in r.drawn} & set(items)
    assert len(shown) >= 3, shown
    assert not r.problems()


def test_a_chart_too_tall_for_its_space_takes_two_columns_and_says_when_even_that_spills():
    from hardware.display.widgets import Bars, chip

    r = Renderer((1280, 720), "headless")
    rows = tuple((chip(s), float(s), f"{s / 2:.1f} s") for s in range(1, 7))
    r.drawn = []
    r.draw_bars(r.screen, Bars(rows, title="Mean time to decide a move"), pygame.Rect(20, 20, 620, 160))
    assert r.drawn and not any(d.clipped for d in r.drawn)
    assert all(pygame.Rect(20, 20, 620, 160).contains(pygame.Rect(d.ink)) for d in r.drawn), "every row in its space"
    assert len({d.box[0] for d in r.drawn if d.text.startswith("\u27e6")}) == 2, "in two columns"
    r.drawn = []
    r.draw_bars(r.screen, Bars(rows), pygame.Rect(20, 20, 300, 90))
    assert any(d.clipped for d in r.drawn), "rows that lie over the next widget are reported"


def test_the_hold_back_ring_fills_as_back_is_held():
    r = Renderer((1280, 720), "headless")
    accent = (242, 190, 60)

    def ring_accent(progress):
        surface = r.draw(Scene("Game", (Text("x"),), hold=progress))
        [box] = [b for kind, b in r.placed if kind == "hold"]
        x, y, w, h = box
        return sum(1 for xx in range(x + w - h, x + w) for yy in range(y, y + h)
                   if surface.get_at((xx, yy))[:3] == accent)

    none, half, full = ring_accent(0.0), ring_accent(0.5), ring_accent(1.0)
    assert none == 0 < half < full
    assert "hold Back to leave" in {d.text for d in r.drawn}
    r.draw(Scene("Menu", (Text("x"),)))
    assert not [kind for kind, _ in r.placed if kind == "hold"], "no ring where Back does not leave"


def test_timer_text_is_light_on_a_dark_edge_wherever_the_bar_has_reached():
    r = Renderer((1280, 720), "headless")
    surface = r.draw(Scene("", (Timer(0.5, 3.0, "listening"),)))
    [d] = [d for d in r.drawn if d.text.startswith("listening")]
    x, y, w, h = d.ink
    inks = [surface.get_at((xx, yy))[:3] for xx in range(x, x + w) for yy in range(y, y + h)]
    assert any(sum(c) > 600 for c in inks) and any(sum(c) < 60 for c in inks)


def test_a_wide_card_keeps_its_labels_clear_of_its_rounded_corners_and_frame():
    """A screen of three tokens, the last with a long name: its label is drawn on the card,
    not over the card's frame or the screen behind a corner cut round."""
    fill = (245, 240, 225)
    card = Card(title="Behind your screen", glyphs=(Glyph("token", "poison", label="Poison ×1"),
                                                    Glyph("token", "antidote", label="Antidote ×2"),
                                                    Glyph("token", "unicorn", label="Unicorn Antidote ×1")),
                colour=fill, small=True)
    r = Renderer((1280, 720), "headless")
    surface = r.draw(Scene("Seat 4 · private", (Text("Your screen", size="heading"), Row((card,)),
                                                Text("Unicorn Keeper: take the Unicorn Antidote.\nYour victory points: 6",
                                                     size="small"))))
    labels = [d for d in r.drawn if "×" in d.text]
    assert len(labels) == 3
    for d in labels:
        x, y, w, h = d.ink
        for px in ((x + w + 2, y + h // 2), (x + w + 2, y + h - 3), (x - 3, y + h - 3)):
            assert surface.get_at(px)[:3] == fill, f"{d.text!r}: {px} is off the card"


def test_three_pictures_on_a_narrow_card_go_in_rows_and_the_row_of_cards_stays_tall():
    """Six drinkers' goblets in a row, one holding three kinds of token: its card stays portrait
    (its pictures in two rows) rather than making every card of the row short and flat."""
    many = Card(title="⟦1⟧ drank 1", glyphs=(Glyph("token", "wine", label="×18"), Glyph("token", "poison", label="×11"),
                                             Glyph("token", "antidote", label="×2")), caption="✗ 18 Wine", small=True)
    others = tuple(Card(title=f"⟦{s}⟧ drank {s}", glyphs=(Glyph("token", "wine", label="×1"),),
                        caption="✓ 1 Wine", small=True) for s in range(2, 7))
    r = Renderer((1280, 720), "headless")
    r.draw(Scene("the Toast of course 1", (Banner("Raise your goblets!", subtitle="Poisoned: ⟦1⟧"),
                                           Row((many,) + others),
                                           Banner("Course 2 begins", subtitle="⟦2⟧: hold your buzzer to play"))))
    cards = [box for kind, box in r.placed if kind == "Card"]
    assert len(cards) == 6 and not r.problems()
    assert all(h >= w for _, _, w, h in cards), f"the cards are drawn flat: {cards}"
    pictures = [d for d in r.drawn if d.text in ("×18", "×11", "×2")]
    assert len({d.ink[1] for d in pictures}) == 2, "three pictures on a narrow card take two rows"
