"""Raise Your Goblets scenes: the public table, private turns, the reveal and the ranking.

The public scenes are built from the public view alone (``view(state, None)``), so they
cannot show a secret; a private scene is built from its owner's view and marked
``private_for``.
"""

from __future__ import annotations

from typing import Any

from controller.menu import MenuState
from hardware.display.widgets import Banner, Card, Glyph, Menu, Row, Scene, Text

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


def course_title(pub: dict[str, Any]) -> str:
    if pub["mode"] == "russian":
        return f"{TITLE} · Russian Goblette · course {pub['course']}"
    return f"{TITLE} · course {pub['course']} of 3"


def who_sits(pub: dict[str, Any], place: int) -> str:
    """Who the goblet at ``place`` stands in front of (nobody in Russian Goblette)."""
    for unit in pub["units"]:
        if unit["place"] == place and pub["mode"] != "russian":
            if unit["winetaster"] is not None:
                return f"Seats {unit['winetaster']}+{unit['noble']}"
            return f"Seat {unit['noble']}"
    return ""


def status_line(pub: dict[str, Any]) -> str:
    turn = pub["turn"]
    if turn is None:
        return ""
    seat, step = turn["seat"], turn["step"]
    if step == "turn":
        left = turn["actions_left"]
        return f"Seat {seat}'s turn · {left} action{'s' if left != 1 else ''} left"
    if pub["phase"] == "toast":
        return f"The Toast! Seat {seat}: {STEP_WORDS[step]}"
    return f"Seat {seat}: {STEP_WORDS.get(step, step)}"


def goblet_cards(pub: dict[str, Any], highlight: int | None = None) -> Row:
    cards = []
    for g in pub["goblets"]:
        poured = ", ".join(str(s) for s in g["poured_by"]) or "nobody yet"
        if g.get("drunk_by") is not None:
            poured = f"drunk by seat {g['drunk_by']}"
        cards.append(Card(
            title=f"Goblet {g['place']}",
            glyphs=(Glyph("goblet", g["coaster"] or "none", label=who_sits(pub, g["place"])),),
            caption=f"poured by {poured}" if g.get("drunk_by") is None else poured,
            highlight=g["place"] == highlight, small=True))
    return Row(tuple(cards))


def targets_line(pub: dict[str, Any]) -> str:
    parts = []
    for unit in pub["units"]:
        if unit["target"]:
            parts.append(f"{unit['noble']}→{unit['target']}")
    return ("Targets: " + " · ".join(parts)) if parts else ""


def table_scene(pub: dict[str, Any], footer: str = "", waiting_for: int | None = None) -> Scene:
    """The shared table: goblets in their places, who poured where, whose move; with a
    banner asking the deciding seat to hold their buzzer while everyone else looks away."""
    place = None
    if pub["turn"] and pub["mode"] != "russian":
        seat = pub["turn"]["seat"]
        place = next((u["place"] for u in pub["units"] if seat in u["seats"]), None)
    widgets: list[Any] = []
    if waiting_for is not None:
        how = "hold your buzzer" if waiting_for <= 8 else "press OK"
        widgets.append(Banner(status_line(pub), colour=(60, 90, 160),
                              subtitle=f"Seat {waiting_for}, {how} to play · everyone else, "
                                       f"look away"))
    else:
        widgets.append(Text(status_line(pub), size="heading"))
    widgets.append(goblet_cards(pub, place))
    line = targets_line(pub)
    chars = pub.get("characters") or {}
    if chars:
        line += ("\n" if line else "") + "Characters: " + " · ".join(
            f"{s} {name}" for s, name in sorted(chars.items()))
    if line:
        widgets.append(Text(line, size="small"))
    return Scene(course_title(pub), tuple(widgets), footer=footer)


def token_glyphs(tokens: dict[str, int]) -> tuple[Glyph, ...]:
    return tuple(Glyph("token", t, label=f"{TOKEN_NAMES[t]} ×{tokens[t]}")
                 for t in TOKEN_ORDER if tokens.get(t))


def reveal_row(drank: list[dict[str, Any]]) -> Row:
    cards = []
    for d in drank:
        verdict = f"survived · {d['wine']} Wine" if d["survived"] else f"POISONED · {d['wine']} Wine"
        cards.append(Card(title=f"Seat {d['seat']} · goblet {d['goblet']}",
                          glyphs=token_glyphs(d["tokens"]) or (Glyph("token", "empty"),),
                          caption=verdict, colour=SURVIVED if d["survived"] else POISONED,
                          small=True))
    return Row(tuple(cards))


def reveal_scene(pub: dict[str, Any], drank: list[dict[str, Any]], course: int) -> Scene:
    """The Toast's reveal: every goblet's contents and who survived."""
    poisoned = [str(d["seat"]) for d in drank if not d["survived"]]
    text = (("Poisoned: seat " if len(poisoned) == 1 else "Poisoned: seats ") + ", ".join(poisoned)) \
        if poisoned else "Everyone survived!"
    return Scene(f"{TITLE} · the Toast of course {course}",
                 (Banner("Raise your goblets!", colour=(170, 40, 60), subtitle=text),
                  reveal_row(drank)),
                 footer="Victory points stay behind your screen · hold your buzzer to peek")


def private_scene(own: dict[str, Any], picker: MenuState[Any] | None, heading: str) -> Scene:
    """A seat's private view: screen, character, target, what it has seen, its menu."""
    seat = own["seat"]
    cards: list[Any] = [Card(title="Behind your screen", glyphs=token_glyphs(own.get("screen", {}))
                             or (Glyph("token", "empty", label="nothing left"),), small=True)]
    if own.get("goblet") is not None:
        cards.append(Card(title="Your goblet", glyphs=token_glyphs(own["goblet"]) or
                          (Glyph("token", "empty"),), small=True))
    for seen in own.get("seen", [])[-2:]:
        what = f"Goblet {seen['goblet']}" if seen["what"] == "goblet" else \
            f"Seat {seen['seat']}'s screen"
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
        lines.append(f"House {unit['house']} · target: {unit['target']}")
    lines.append(f"Your victory points: {own['vp_own']}")
    widgets: list[Any] = [Text(heading, size="heading"), Row(tuple(cards)),
                          Text("\n".join(lines), size="small")]
    if picker is not None:
        widgets.append(picker.widget())
    return Scene(f"Seat {seat} · private", tuple(widgets), private_for=seat,
                 footer="Prev/Next to move · OK to choose · Back to go up or close")


def end_scene(pub: dict[str, Any], final: dict[str, Any]) -> Scene:
    """The final ranking with every seat's victory points, and the tie-break if there was one."""
    winners = final["winners"]
    names = " and ".join(f"seat {w}" for w in winners)
    subtitle = "shared victory" if final.get("shared") else ""
    tie = final.get("tie_break")
    if tie:
        subtitle = "after the tie-break: " + ", ".join(
            f"seat {s} drew goblet {g}" for s, g in tie["taken"].items())
    rows = [Text(f"{i}. Seat {s}: {final['vp'][s]} VP" + (" ★" if s in winners else ""),
                 size="body") for i, s in enumerate(final["ranking"], start=1)]
    half = (len(rows) + 1) // 2
    ranking = Row((Menu(tuple(r.text for r in rows[:half]), cursor=-1),
                   Menu(tuple(r.text for r in rows[half:]), cursor=-1))) if len(rows) > 6 else \
        Menu(tuple(r.text for r in rows), cursor=-1, title="Final ranking")
    return Scene(f"{TITLE} · game over",
                 (Banner(f"{names.capitalize()} win{'s' if len(winners) == 1 else ''}!",
                         colour=(150, 105, 20), subtitle=subtitle), ranking))
