"""Tchin Tchin on a phone: your character, its gesture and toast, your reactions, the cards you won.

Tchin Tchin has no secret: a phone is a reminder card in the hand. Timing stays on the
buzzers, so a phone never claims, vetoes or reveals: its page offers no action.
"""

from __future__ import annotations

from typing import Any

from controller.phones.pages import Page, base_page, item, section
from models.tchin_tchin.cards import CARDS, CHARACTERS, TOURISTS, DrinkCard, EventCard, player_name
from models.toasts import TOASTS

TITLE = "Tchin Tchin"


def _status(v: dict[str, Any], me: int | None) -> str:
    phase, card = v["phase"], v["card"]
    if phase == "over":
        winners = v.get("winners") or []
        return "Game over: " + ", ".join("you" if s == me else f"station {s}" for s in winners) + " won"
    if card is not None and me is not None and me in card["invited"] and phase in ("open", "claim"):
        return "This card invites you: buzz and toast!"
    if phase == "open":
        return "A card is up: buzz if it invites you"
    if phase == "claim":
        return f"Station {card['claimant']} claims" if card else "A claim"
    if phase == "veto":
        return "Veto vote"
    revealer = v.get("revealer")
    return "Your buzzer reveals the next card" if revealer == me else f"Station {revealer} reveals next"


def _character(code: str) -> list[dict[str, Any]]:
    if code in CHARACTERS:
        c = CHARACTERS[code]
        return [item(c.nationality, f"drink: {c.drink}"), item("Your gesture", c.gesture),
                item("Your toast", TOASTS.get(c.word, c.word)),
                item("Your place", c.location.replace("_", " ").title())]
    t = TOURISTS[code]
    return [item(t.name.capitalize(), "invited by the places you visited"),
            item("Your places", ", ".join(p.replace("_", " ").title() for p in t.locations))]


def _card_text(cid: str) -> str:
    card = CARDS.get(cid)
    if isinstance(card, DrinkCard):
        return f"{player_name(card.drinker)} · {card.drink} · {card.location.replace('_', ' ').title()}"
    if isinstance(card, EventCard):
        return card.title
    return cid


def page_from_view(v: dict[str, Any], me: int | None) -> Page:
    """A station's page (or the public table's) from the table's view (Tchin Tchin has no secret)."""
    over = v["phase"] == "over"
    p = base_page(TITLE, me, _status(v, me), over=over,
                  your_move=me is not None and v["card"] is not None and me in v["card"]["invited"])
    secs = p["sections"]
    if me is not None and me in v["characters"]:
        secs.append(section("Your character", _character(v["characters"][me]), kind="character"))
        won = v["piles"].get(me, [])
        secs.append(section(f"Cards you won: {len(won)}", [item(_card_text(c)) for c in won] or
                            [item("none yet")]))
        if over and v.get("reactions"):
            r = v["reactions"].get(str(me), {})
            secs.append(section("Your reactions", [
                item(f"{r.get('claims', 0)} claims"),
                item("Mean reaction", f"{r['mean_ms']} ms" if r.get("mean_ms") is not None else "-"),
                item("Fastest right claim",
                     f"{r['fastest_correct_ms']} ms" if r.get("fastest_correct_ms") is not None else "-")]))
    card = v["card"]
    if card is not None and card.get("revealed"):
        invited = ", ".join("you" if s == me else f"station {s}" for s in card["invited"]) or "nobody"
        secs.append(section("The card", [item(_card_text(card["id"]), f"invites {invited}")]))
    secs.append(section("Scores", [item(("You" if s == me else f"Station {s}") + f" · {player_name(c)}",
                                        str(v["scores"].get(s, 0)))
                                   for s, c in sorted(v["characters"].items())]))
    return p


class TchinPhone:
    acts = False

    def engine(self, flow: Any) -> Any:
        return flow.referee

    def seats(self, flow: Any) -> tuple[int, ...]:
        return tuple(sorted(flow.referee.characters))

    def page(self, view: Any, seat: int | None, actions: list[Any]) -> Page:
        return page_from_view(view, seat)


PHONE = TchinPhone()
