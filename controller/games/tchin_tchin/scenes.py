"""What the shared screen shows during Tchin Tchin, built from the public view alone.

The open card never shows the answer: the table must work out the word and
the gesture; once a word has been judged, the veto screen says what was asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hardware.display.widgets import Banner, Card, Glyph, Grid, Row, Scene, Text, Timer, Widget
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


def player_glyph(code: str, label: str = "") -> Glyph:
    """A player's picture: the flag of a character, or a tourist."""
    return Glyph("tourist" if code in TOURISTS else "flag", code, label)


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
        if s == claimant:
            mark, colour = "  ◆ claims", GOLD
        elif s in mistaken:
            mark, colour = "  ✗", RED
        elif s in invited:
            mark, colour = "  ●", GOLD
        elif card:
            colour = MUTED
        cells.append(Text(f"{s} {player_name(code)}: {view['scores'][s]}{mark}", size="small",
                          colour=colour, align="left"))
    return Grid(tuple(cells), columns=2, title=title)


def table_row(view: Mapping[str, Any], centre: Widget) -> Row:
    return Row((centre, players_grid(view)))


def between_scene(view: Mapping[str, Any], news: Banner | None) -> Scene:
    revealer = view["revealer"]
    who = f"{revealer} {player_name(view['characters'][revealer])}"
    pot = f"  Pot: {len(view['pot'])}" if view["pot"] else ""
    deck = Card(hidden=True, caption=_cards_left(view["deck_left"]))
    widgets: list[Widget] = []
    if news is not None:
        widgets.append(news)
    widgets.append(Text(f"Station {who}: press your buzzer to reveal the next card "
                        f"({_cards_left(view['deck_left'])}){pot}", size="heading"))
    widgets.append(table_row(view, deck))
    return Scene("Tchin Tchin", tuple(widgets), footer="Invited players: gesture + toast, "
                 "then press. Not invited? Hands off!")


def _duel(view: Mapping[str, Any]) -> str:
    a, b = view["card"]["invited"]
    chars = view["characters"]
    return f"Duel: {a} {player_name(chars[a])} vs {b} {player_name(chars[b])}"


def open_scene(view: Mapping[str, Any], now: float) -> Scene:
    card = view["card"]
    c = CARDS[card["id"]]
    caption = _duel(view) if getattr(c, "kind", "") == "middleman" else ""
    hint = EVENT_HINT.get(getattr(c, "kind", ""), "Yours if the card shows your nation, drink or city")
    left = max(0.0, card["timeout_at"] - now)
    pot = f"  Pot: {len(view['pot'])} card(s) go with it" if view["pot"] else ""
    return Scene("Tchin Tchin", (
        Text(hint + pot, size="body"),
        table_row(view, card_face(card["id"], caption)),
        Timer(left, card["timeout_at"] - card["revealed"], "card"),
    ), footer=_cards_left(view["deck_left"]))


def _cards_left(n: int) -> str:
    return "last card" if n == 0 else f"{n} card{'s' if n != 1 else ''} left"



def claim_scene(view: Mapping[str, Any], now: float, window_s: float) -> Scene:
    card = view["card"]
    s = card["claimant"]
    left = max(0.0, card["press"] + window_s - now)
    return Scene("Tchin Tchin", (
        Banner(f"{s} {player_name(view['characters'][s])} claims!", colour=BLUE,
               subtitle="Gesture and toast - now!"),
        Timer(left, window_s, "listening"),
        table_row(view, card_face(card["id"])),
    ))


def veto_scene(view: Mapping[str, Any], now: float, veto_s: float, heard: str) -> Scene:
    card = view["card"]
    s = card["claimant"]
    asked = " or ".join(TOASTS[w] for w in card.get("accepted", ()))
    who = f"{s} {player_name(view['characters'][s])}"
    question = (f"{who} said {TOASTS.get(heard, heard)} - was the gesture right?" if heard
                else f"The box cannot hear: did {who} say {asked} with the right gesture?")
    return Scene("Tchin Tchin", (
        Banner(f"Veto?  {card['veto_votes']} of {card['veto_needed']}", colour=PURPLE,
               subtitle=f"{question} Not invited: press to veto"),
        Timer(max(0.0, card["veto_closes"] - now), veto_s, "veto"),
        table_row(view, card_face(card["id"], caption=f"Asked: {asked}")),
    ))


def end_scene(view: Mapping[str, Any]) -> Scene:
    names = ", ".join(f"{s} {player_name(view['characters'][s])}" for s in view["winners"])
    shared = "Shared victory: " if len(view["winners"]) > 1 else "Winner: "
    cells: list[Widget] = []
    for s, code in sorted(view["characters"].items()):
        r = view["reactions"][str(s)]
        mean = f"{r['mean_ms']} ms" if r["mean_ms"] is not None else "-"
        fast = f"{r['fastest_correct_ms']} ms" if r["fastest_correct_ms"] is not None else "-"
        colour = GOLD if s in view["winners"] else None
        n = view["scores"][s]
        cells.append(Text(f"{s} {player_name(code)}: {n} card{'s' if n != 1 else ''}   "
                          f"mean {mean}   fastest correct {fast}", size="small", colour=colour,
                          align="left"))
    return Scene("Game over", (
        Banner(shared + names, colour=GREEN, subtitle="Most cards wins; reaction times are for fun"),
        Grid(tuple(cells), columns=1, title="Scores and reaction times"),
    ), footer="Reaction time = press minus reveal; never a tie-break")


def intro_scene(station: int, code: str, heard: str | None) -> Scene:
    if code in TOURISTS:
        t = TOURISTS[code]
        pics = tuple(Glyph("landmark", loc, LOCATION_NAMES[loc]) for loc in t.locations)
        how = "You play when one of your three places is on the card"
        toast = "any toast of a nation of your places"
        face = Card(title=player_name(code).capitalize(), glyphs=pics)
    else:
        ch = CHARACTERS[code]
        face = Card(title=ch.nationality, glyphs=(
            Glyph("flag", code, ch.nationality), Glyph("drink", ch.drink, ch.drink),
            Glyph("landmark", ch.location, LOCATION_NAMES[ch.location])))
        how = f"Gesture: {DRINK_GESTURES[ch.drink]}"
        toast = TOASTS[ch.word]
    said = f"Heard: {TOASTS.get(heard, heard)}" if heard else "Say your toast once!"
    return Scene("Meet the drinkers", (
        Banner(f"Station {station}: {player_name(code)}", colour=BLUE, subtitle=how),
        Row((face, Grid((Text(f"Toast: {toast}", size="heading"), Text(said, size="heading")),
                        columns=1))),
    ), footer="Press your buzzer when you are done")
