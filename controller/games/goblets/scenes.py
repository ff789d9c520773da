"""Raise Your Goblets scenes: the public table, private turns, the reveal and the ranking.

The public scenes are built from the public view alone (``view(state, None)``), so they
cannot show a secret; a private scene is built from its owner's view and marked
``private_for``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.menu import MenuState
from hardware.display.widgets import Banner, Bars, Card, Glyph, Grid, Row, Scene, Text, chip
from models.goblets.houses import House

TITLE = "Raise Your Goblets"
TOKEN_ORDER = ("wine", "poison", "antidote", "unicorn", "ogre")
TOKEN_NAMES = {"wine": "Wine", "poison": "Poison", "antidote": "Antidote",
               "unicorn": "Unicorn Antidote", "ogre": "Ogre Poison"}
SURVIVED = (200, 235, 200)
POISONED = (235, 190, 190)
STEP_WORDS = {"turn": "turn", "noble_first": "Toast before the Winetaster?",
              "final": "final action", "free_peek": "free Peek", "plot": "Plotter's choice",
              "taste": "Taster's choice", "gamble": "Gambler's choice", "drink": "drink",
              "choose": "tie-break goblet"}


def course_title(pub: Mapping[str, Any]) -> str:
    toast = " · the Toast" if pub.get("phase") == "toast" else ""
    if pub["mode"] == "russian":
        return f"{TITLE} · Russian Goblette · course {pub['course']}{toast}"
    return f"{TITLE} · course {pub['course']} of 3{toast}"


def who_sits(pub: Mapping[str, Any], place: int) -> str:
    """Who the goblet at ``place`` stands in front of (nobody in Russian Goblette): a pair's two
    chips joined by a plus, or, on a table of narrow cards (9 to 12 players), side by side, as
    only then do two-digit chips (11 and 12) fit a narrow card in the smallest window."""
    pair = "" if len(pub["goblets"]) >= NARROW_TABLE else "+"
    for unit in pub["units"]:
        if unit["place"] == place and pub["mode"] != "russian":
            if unit["winetaster"] is not None:
                return f"{chip(unit['winetaster'])}{pair}{chip(unit['noble'])}"
            return chip(unit["noble"])
    return ""


def ring(pub: Mapping[str, Any], colour: str | None) -> str:
    """A coaster ring drawn in the LED colour of the seat whose house it is."""
    if colour is None:
        return "none"
    for unit in pub["units"]:
        try:
            if House.parse(unit["house"]).colour == colour:
                return f"seat{unit['noble']}"
        except ValueError:
            continue
    return colour


def house_seat(pub: Mapping[str, Any], house: str) -> int | None:
    """The seat (its Noble) whose house is ``house``."""
    return next((u["noble"] for u in pub["units"] if u["house"] == house), None)


def status_line(pub: Mapping[str, Any]) -> str:
    turn = pub["turn"]
    if turn is None:
        return ""
    seat, step = turn["seat"], turn["step"]
    if step == "turn":
        left = turn["actions_left"]
        return f"{chip(seat)}'s turn · {left} action{'s' if left != 1 else ''} left"
    if pub["phase"] == "toast":
        return f"The Toast! {chip(seat)}: {STEP_WORDS[step]}"
    return f"{chip(seat)}: {STEP_WORDS.get(step, step)}"


def next_up(pub: Mapping[str, Any], waiting_for: int | None, phone: bool = False) -> str:
    """Who must act now, and how (a seat without a buzzer confirms with OK; a seat with a
    phone plays on it, and nobody need look away)."""
    if waiting_for is None:
        return ""
    toast = "The Toast! " if pub.get("phase") == "toast" else ""  # a final action, not a turn
    if phone:
        return f"{toast}{chip(waiting_for)}: play on your phone"
    how = "hold your buzzer" if waiting_for <= 8 else "press OK"
    return f"{toast}{chip(waiting_for)}: {how} to play · everyone else, look away"


#: on a table of this many goblets and more a card is too narrow for a count beside each chip
NARROW_TABLE = 5
#: the most pourers a narrow goblet's card names (the rest are counted): three lines at most
NARROW_POURERS = 6


def pourers(seats: list[int], compact: bool = False) -> str:
    """Who poured into a goblet, each seat once with its count, in the order they first poured
    ("2 ×3 1"), a count kept on its chip's line: a chip a pour made a busy goblet's picture
    shrink out of sight. ``compact`` (a narrow card, on a table of many goblets): the chips
    alone, and past :data:`NARROW_POURERS` seats the first ones and how many more, so that the
    goblet's picture, its coaster and who it stands before keep their room on the card."""
    counts: dict[int, int] = {}
    for s in seats:
        counts[s] = counts.get(s, 0) + 1
    if compact:
        order = list(counts)
        if len(order) > NARROW_POURERS:
            return " ".join(chip(s) for s in order[:NARROW_POURERS - 1]) + f" +{len(order) - NARROW_POURERS + 1}"
        return " ".join(chip(s) for s in order)
    return " ".join(chip(s) + (f"\u00a0\u00d7{n}" if n > 1 else "") for s, n in counts.items())  # never wrapped apart


def goblet_cards(pub: Mapping[str, Any], highlight: int | None = None) -> Row:
    cards = []
    compact = len(pub["goblets"]) >= NARROW_TABLE
    for g in pub["goblets"]:
        poured = pourers(g["poured_by"], compact)
        if g.get("drunk_by") is not None:
            poured = f"drunk: {chip(g['drunk_by'])}"
        cards.append(Card(
            title=f"Goblet {g['place']}",
            glyphs=(Glyph("goblet", ring(pub, g["coaster"]), label=who_sits(pub, g["place"])),),
            caption=(f"by {poured}" if poured else "") if g.get("drunk_by") is None else poured,
            highlight=g["place"] == highlight, small=True))
    return Row(tuple(cards))


def targets_line(pub: Mapping[str, Any]) -> str:
    parts = []
    for unit in pub["units"]:
        if unit["target"]:
            prey = house_seat(pub, unit["target"])
            parts.append(f"{chip(unit['noble'])} hunts " + (chip(prey) if prey else unit["target"]))
    return ("Targets: " + entries(parts)) if parts else ""


def entries(parts: list[str]) -> str:
    """Entries of a line ("1 hunts 2 · 2 hunts 1"), each kept whole on one line when the line
    wraps (a chip never parted from what it says), the dot ending the line it ends."""
    return " ".join(p.replace(" ", "\u00a0") + ("\u00a0\u00b7" if i < len(parts) - 1 else "")
                    for i, p in enumerate(parts))


def table_scene(pub: Mapping[str, Any], footer: str = "", waiting_for: int | None = None,
                news: Banner | None = None, moves: str = "", phone_for: int | None = None,
                bots: frozenset[int] = frozenset()) -> Scene:
    """The shared table: goblets in their places, who poured where, whose move; a banner with
    what just happened and who acts next (the deciding seat holds its buzzer while everyone
    else looks away); the last moves."""
    place = None
    if pub["turn"] and pub["mode"] != "russian":
        seat = pub["turn"]["seat"]
        place = next((u["place"] for u in pub["units"] if seat in u["seats"]), None)
    widgets: list[Any] = []
    if news is not None:
        widgets.append(news)
    elif waiting_for is not None or phone_for is not None:
        seat = waiting_for if waiting_for is not None else phone_for
        widgets.append(Banner(status_line(pub), colour=(60, 90, 160),
                              subtitle=next_up(pub, seat, phone_for is not None), seat=seat))
    else:
        widgets.append(Text(status_line(pub), size="heading"))
    widgets.append(goblet_cards(pub, place))
    lines = [x for x in (moves, targets_line(pub)) if x]
    if bots:
        lines.append("Played by the box: " + " ".join(chip(s) for s in sorted(bots)))
    chars = pub.get("characters") or {}
    if chars:
        lines.append("Characters: " + entries([f"{chip(s)} {name}" for s, name in sorted(chars.items())]))
    if lines:
        widgets.append(Text("\n".join(lines), size="small"))
    return Scene(course_title(pub), tuple(widgets), footer=footer)


def token_glyphs(tokens: dict[str, int], names: bool = True) -> tuple[Glyph, ...]:
    """A picture per kind of token, labelled with its name and count (or the count alone)."""
    return tuple(Glyph("token", t, label=f"{TOKEN_NAMES[t]} ×{tokens[t]}" if names else f"×{tokens[t]}")
                 for t in TOKEN_ORDER if tokens.get(t))


def reveal_row(drank: list[dict[str, Any]]) -> Row:
    cards = []
    for d in drank:
        verdict = f"\u2713 {d['wine']} Wine" if d["survived"] else f"\u2717 {d['wine']} Wine"
        cards.append(Card(title=f"{chip(d['seat'])} drank {d['goblet']}",
                          glyphs=token_glyphs(d["tokens"], names=len(drank) <= 3) or (Glyph("token", "empty"),),
                          caption=verdict, colour=SURVIVED if d["survived"] else POISONED,
                          small=True))
    return Row(tuple(cards))


def reveal_scene(pub: Mapping[str, Any], drank: list[dict[str, Any]], course: int,
                 waiting_for: int | None = None, phone: bool = False, thinking: int | None = None) -> Scene:
    """The Toast's reveal: every goblet's contents and who survived; and, once the next course
    has begun, who plays first and how."""
    poisoned = [chip(d["seat"]) for d in drank if not d["survived"]]
    text = ("Poisoned: " + " ".join(poisoned)) if poisoned else "Everyone survived!"
    widgets: list[Any] = [Banner("Raise your goblets!", colour=(170, 40, 60), subtitle=text), reveal_row(drank)]
    # what comes next: a new course, or a step of this one (the tie-break's goblets)
    heading = f"Course {pub['course']} begins" if pub.get("phase") == "turns" else status_line(pub)
    if waiting_for is not None:
        widgets.append(Banner(heading, colour=(60, 90, 160),
                              subtitle=next_up(pub, waiting_for, phone), seat=waiting_for))
    elif thinking is not None:  # the box plays first: it waits while the table reads the reveal
        widgets.append(Banner(heading, colour=(60, 90, 160),
                              subtitle=f"{chip(thinking)}: the box is thinking", seat=thinking))
    return Scene(f"{TITLE} · the Toast of course {course}", tuple(widgets),
                 footer="Others: hold your buzzer to see your screen")


def private_scene(own: Mapping[str, Any], picker: MenuState[Any] | None, heading: str) -> Scene:
    """A seat's private view: screen, character, target, what it has seen, its menu."""
    seat = own["seat"]
    cards: list[Any] = [Card(title="Behind your screen", glyphs=token_glyphs(own.get("screen", {}))
                             or (Glyph("token", "empty", label="nothing left"),), small=True)]
    if own.get("goblet") is not None:
        cards.append(Card(title="Your goblet", glyphs=token_glyphs(own["goblet"]) or
                          (Glyph("token", "empty"),), small=True))
    for seen in own.get("seen", [])[-2:]:
        what = f"goblet {seen['goblet']}" if seen["what"] == "goblet" else \
            f"{chip(seen['seat'])}'s screen"
        cards.append(Card(title=f"You saw: {what}", glyphs=token_glyphs(seen["tokens"]) or
                          (Glyph("token", "empty", label="empty"),), small=True))
    lines = []
    if own.get("character"):
        face = " (face down: you are a Winetaster)" if own.get("winetaster_card") else ""
        lines.append(f"{own['character']}{face}: {own['ability']}")
    if own.get("winetaster_card"):
        lines.append(f"Winetaster card: {own['winetaster_card'].upper()} · your Noble is "
                     f"{own.get('noble_character') or 'without character'}")
    unit = next((u for u in own["units"] if seat in u["seats"]), None)
    if unit and unit["target"]:
        prey = house_seat(own, unit["target"])
        lines.append(f"House {unit['house']} · your target: {unit['target']}" + (f" ({chip(prey)})" if prey else ""))
    lines.append(f"Your victory points: {own['vp_own']}")
    widgets: list[Any] = [Text(heading, size="heading"), Row(tuple(cards)),
                          Text("\n".join(lines), size="small")]
    if picker is not None:
        widgets.append(picker.widget())
    return Scene(f"Seat {seat} · private", tuple(widgets), private_for=seat,
                 footer="Prev / Next to move · OK to choose · Back to go up or close"
                 if picker is not None else "Let go of your buzzer (or press Back) to close")


def end_scene(pub: Mapping[str, Any], final: dict[str, Any], pace: Bars | None = None,
              last: list[dict[str, Any]] | None = None, course: int | None = None) -> Scene:
    """The final ranking by victory points, the tie-break if there was one, and how long each
    seat took over its moves; ``last``: what the game's last Toast revealed (the game ends with
    it: the winner's banner says who it poisoned, the end of the story the ranking tells; in
    Russian Goblette, the last goblet drunk)."""
    winners = final["winners"]
    names = " and ".join(chip(w) for w in winners)
    notes = ["shared victory"] if final.get("shared") else []
    tie = final.get("tie_break")
    if tie:
        notes = ["after the tie-break: " + ", ".join(
            f"{chip(int(s))} drew goblet {g}" for s, g in tie["taken"].items())]
    elif last and pub.get("mode") == "russian":  # one goblet at a time: the last one drunk
        d = last[-1]
        notes.append(f"the last drink: {chip(d['seat'])} drank goblet {d['goblet']}, "
                     + ("and survived" if d["survived"] else "poisoned"))
    elif last:
        poisoned = [chip(d["seat"]) for d in last if not d["survived"]]
        toast = f"the Toast of course {course}" if course else "the last Toast"
        notes.append(f"{toast}: " + (("poisoned " + " ".join(poisoned)) if poisoned else "everyone survived"))
    rows = tuple(Text(f"{i}. {chip(s)} {final['vp'][s]} VP" + (" \u2605" if s in winners else ""),
                      size="small", align="left") for i, s in enumerate(final["ranking"], start=1))
    ranking = Grid(rows, columns=1 if len(rows) <= 6 else 2, title="Victory points")
    body: Any = Row((ranking, pace)) if pace is not None else ranking
    return Scene(f"{TITLE} · game over",
                 (Banner(f"{names} win{'s' if len(winners) == 1 else ''}!",
                         colour=(150, 105, 20), subtitle=" · ".join(notes)), body))
