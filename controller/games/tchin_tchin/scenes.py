"""What the shared screen shows during Tchin Tchin, built from the public view alone.

The open card never shows the answer: the table must work out the word and
the gesture; once a word has been judged, the veto screen says what was asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hardware.display.widgets import (
    Banner,
    Bars,
    Card,
    Glyph,
    Grid,
    Row,
    Scene,
    Text,
    Timer,
    Widget,
    chip,
    seat_colour,
)
from models.tchin_tchin.cards import (
    CARDS,
    CHARACTERS,
    DRINK_GESTURES,
    LOCATION_NAMES,
    TOURISTS,
    DrinkCard,
    player_name,
)
from models.toasts import TOASTS

GOLD = (242, 190, 60)
MUTED = (150, 155, 170)
RED = (235, 90, 80)
GREEN = (40, 140, 70)
BLUE = (50, 90, 170)
PURPLE = (120, 60, 150)
EVENT_GLYPH = {"my_round": "my_round", "same_again": "same_again", "middleman": "middleman"}
EVENT_HINT = {
    "my_round": "Everyone but the revealer: the revealer's own toast and gesture!",
    "same_again": "Everyone but the revealer: the combination that won the last card!",
    "middleman": "Duel! The revealer's two neighbours: your opponent's toast and gesture!",
}


def card_face(card_id: str, caption: str = "") -> Card:
    """A revealed card as the table sees it."""
    c = CARDS[card_id]
    if isinstance(c, DrinkCard):
        nat = CHARACTERS[c.drinker].nationality
        glyphs = (Glyph("flag", c.drinker, nat), Glyph("drink", c.drink, c.drink),
                  Glyph("landmark", c.location, LOCATION_NAMES[c.location]))
        return Card(title=f"Let's have a drink!  {card_id}", glyphs=glyphs, caption=caption)
    return Card(title=c.title, glyphs=(Glyph("event", EVENT_GLYPH[c.kind]),),
                caption=caption or card_id, colour=(250, 226, 220))


def players_grid(view: Mapping[str, Any], title: str = "Players") -> Grid:
    """One line per player: station, character, score; invited in gold, mistaken in red."""
    card = view.get("card") or {}
    invited = set(card.get("invited", ()))
    mistaken = set(card.get("mistaken", ()))
    claimant = card.get("claimant")
    cells: list[Widget] = []
    for s, code in sorted(view["characters"].items()):
        mark = ""
        colour: tuple[int, int, int] | None = None
        # the mark stays on its score's line: a dot alone under a name says nothing
        if s == claimant:
            mark, colour = "\u00a0\u25c6", GOLD
        elif s in mistaken:
            mark, colour = "\u00a0✗", RED
        elif s in invited:
            mark, colour = "\u00a0●", GOLD
        elif card:
            colour = MUTED
        cells.append(Text(f"{chip(s)} {player_name(code)}: {view['scores'][s]}{mark}", size="body",
                          colour=colour, align="left"))
    return Grid(tuple(cells), columns=2, title=title)


def table_row(view: Mapping[str, Any], centre: Widget) -> Row:
    return Row((centre, players_grid(view)))


HOW_TO_CLAIM = "Invited: press, then gesture and toast. Not invited? Hands off!"


def between_scene(view: Mapping[str, Any], news: Banner | None) -> Scene:
    revealer = view["revealer"]
    who = f"{chip(revealer)} {player_name(view['characters'][revealer])}"
    pot = f" · pot: {len(view['pot'])}" if view["pot"] else ""
    deck = Card(hidden=True, caption=_cards_left(view["deck_left"]))
    widgets: list[Widget] = []
    if news is not None:
        widgets.append(news)
    widgets.append(Text(f"{who}: press your buzzer to reveal the next card{pot}", size="heading"))
    widgets.append(table_row(view, deck))
    return Scene("Tchin Tchin", tuple(widgets), footer=HOW_TO_CLAIM)


def _duel(view: Mapping[str, Any]) -> str:
    a, b = view["card"]["invited"]
    chars = view["characters"]
    return f"Duel: {chip(a)} {player_name(chars[a])} vs {chip(b)} {player_name(chars[b])}"


def open_scene(view: Mapping[str, Any], now: float, news: Banner | None = None) -> Scene:
    card = view["card"]
    c = CARDS[card["id"]]
    caption = _duel(view) if getattr(c, "kind", "") == "middleman" else ""
    hint = EVENT_HINT.get(getattr(c, "kind", ""), "Yours if the card shows your nation, drink or city")
    left = max(0.0, card["timeout_at"] - now)
    n = len(view["pot"])
    pot = f" · pot: {n} card{'s' if n != 1 else ''} go{'es' if n == 1 else ''} with it" if n else ""
    return Scene("Tchin Tchin", (
        news if news is not None else Text(hint + pot, size="body"),
        table_row(view, card_face(card["id"], caption)),
        Timer(left, card["timeout_at"] - card["revealed"], f"card · {_cards_left(view['deck_left'])}"),
    ), footer=HOW_TO_CLAIM)


def _cards_left(n: int) -> str:
    return "last card" if n == 0 else f"{n} card{'s' if n != 1 else ''} left"



def claim_scene(view: Mapping[str, Any], now: float, window_s: float) -> Scene:
    card = view["card"]
    s = card["claimant"]
    left = max(0.0, card["press"] + window_s - now)
    return Scene("Tchin Tchin", (
        Banner(f"{chip(s)} {player_name(view['characters'][s])} claims!", colour=BLUE,
               subtitle="Gesture and toast, now!", seat=s),
        Timer(left, window_s, "listening"),
        table_row(view, card_face(card["id"])),
    ))


def veto_scene(view: Mapping[str, Any], now: float, veto_s: float, heard: str) -> Scene:
    card = view["card"]
    s = card["claimant"]
    asked = " or ".join(TOASTS[w] for w in card.get("accepted", ()))
    who = f"{chip(s)} {player_name(view['characters'][s])}"
    question = (f"Heard: {TOASTS.get(heard, heard)} Was the gesture right?" if heard
                else f"The box cannot hear: did {who} say {asked} with the right gesture?")
    return Scene("Tchin Tchin", (
        Banner(f"{who}: veto?  {card['veto_votes']} of {card['veto_needed']} "
               f"vote{'s' if card['veto_needed'] != 1 else ''}", colour=PURPLE,
               subtitle=f"{question} Not invited: press to veto", seat=s),
        Timer(max(0.0, card["veto_closes"] - now), veto_s, "veto"),
        table_row(view, card_face(card["id"], caption=f"Asked: {asked}")),
    ))


def end_scene(view: Mapping[str, Any]) -> Scene:
    """The ranking by cards won, and a chart of each player's reaction times."""
    chars = view["characters"]
    names = ", ".join(f"{chip(s)} {player_name(chars[s])}" for s in view["winners"])
    shared = "Shared victory: " if len(view["winners"]) > 1 else "Winner: "
    ranked = sorted(chars, key=lambda s: (-view["scores"][s], s))
    lines = []
    for place, s in enumerate(ranked, start=1):
        n = view["scores"][s]
        lines.append(Text(f"{place}. {chip(s)} {player_name(chars[s])}: {n} card{'s' if n != 1 else ''}",
                          size="small", colour=GOLD if s in view["winners"] else None, align="left"))
    bars = []
    for s in ranked:
        r = view["reactions"][str(s)]
        mean = r["mean_ms"]
        shown = "no claims" if mean is None else f"{mean / 1000:.1f} s"
        if r["fastest_correct_ms"] is not None:
            shown += f" (fastest win {r['fastest_correct_ms'] / 1000:.1f} s)"  # the mean counts every claim
        bars.append((chip(s), None if mean is None else float(mean), shown))
    chart = Bars(tuple(bars), title="Mean reaction time (press after reveal)",
                 colours=tuple(seat_colour(s) for s in ranked))
    return Scene("Tchin Tchin · game over", (
        Banner(shared + names, colour=GREEN, subtitle="Most cards wins; reaction times are for fun"),
        Row((Grid(tuple(lines), columns=1, title="Cards won"), chart)),
    ))


def intro_scene(station: int, code: str, heard: str | None) -> Scene:
    if code in TOURISTS:
        t = TOURISTS[code]
        pics = tuple(Glyph("landmark", loc, LOCATION_NAMES[loc]) for loc in t.locations)
        how = "You play when one of your three places is on the card"
        toast = "any toast of a nation of your places"
        face = Card(glyphs=pics)
    else:
        ch = CHARACTERS[code]
        face = Card(glyphs=(
            Glyph("flag", code, ch.nationality), Glyph("drink", ch.drink, ch.drink),
            Glyph("landmark", ch.location, LOCATION_NAMES[ch.location])))
        how = f"Gesture: {DRINK_GESTURES[ch.drink]}"
        toast = TOASTS[ch.word]
    said = f"Heard: {TOASTS.get(heard, heard)}" if heard else "Say your toast once!"
    # the card has the screen's width, so a place's name (Brandenburg Gate) stays on one line;
    # untitled, as the banner above it names the player
    return Scene("Meet the drinkers", (
        Banner(f"{chip(station)} {player_name(code)}", colour=seat_colour(station), seat=station,
               subtitle=f"{how} · then {chip(station)} presses the buzzer"),
        face,
        Text(f"Toast: {toast}\u00a0· {said}", size="heading"),
    ), footer="Done? Press your buzzer (or OK on the pad)")
