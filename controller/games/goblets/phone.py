"""Raise Your Goblets on a phone: behind your screen, your character, your target, your peeks,
your actions."""

from __future__ import annotations

from typing import Any

from controller.games.goblets.menus import path
from controller.games.goblets.scenes import STEP_WORDS, TOKEN_NAMES, status_line
from controller.phones.pages import Page, base_page, item, section, words
from models.base import IllegalAction

TITLE = "Raise Your Goblets"


def tokens_text(tokens: dict[str, int]) -> str:
    """``{"wine": 2, "poison": 1}`` -> ``Wine ×2, Poison ×1`` (``nothing`` when empty)."""
    return ", ".join(f"{TOKEN_NAMES.get(k, k)} ×{n}" for k, n in tokens.items() if n) or "nothing"


def _status(v: dict[str, Any], me: int | None) -> str:
    turn = v["turn"]
    if v["phase"] == "over":
        winners = v.get("winners") or []
        return "Game over: " + (", ".join(f"seat {s}" for s in winners) + " won" if winners else "no winner")
    if turn is not None and turn["seat"] == me:
        step = turn["step"]
        if step == "turn":
            left = turn["actions_left"]
            return f"Your turn · {left} action{'s' if left != 1 else ''} left"
        return f"Your move: {STEP_WORDS.get(step, step)}"
    return words(status_line(v)) or "Waiting"


def _seen(entry: dict[str, Any]) -> dict[str, Any]:
    if entry.get("what") == "screen":
        return item(f"Seat {entry['seat']}'s screen", tokens_text(entry["tokens"]))
    return item(f"Goblet {entry.get('goblet')}", tokens_text(entry.get("tokens", {})))


def page_from_view(v: dict[str, Any], actions: list[Any]) -> Page:
    """A seat's page (or the public table's) from its view and its legal actions alone."""
    me = v.get("seat")
    over = v["phase"] == "over"
    turn = v["turn"]
    p = base_page(TITLE, me, _status(v, me), over=over,
                  your_move=me is not None and turn is not None and turn["seat"] == me)
    secs = p["sections"]
    if me is not None:
        secs.append(section("Behind your screen", [item(tokens_text(v.get("screen", {})))], kind="screen"))
        if v.get("character"):
            secs.append(section("Your character", [item(v["character"], v.get("ability") or "")],
                                kind="character"))
        unit = next((u for u in v["units"] if me in u["seats"]), None)
        if unit is not None:
            target = unit["target"] if unit["target"] else "none yet"
            secs.append(section("Your house", [item(f"House {unit['house']}",
                                                    f"goblet {unit['place']} · target: {target}")]))
        if "winetaster_card" in v:
            secs.append(section("Your Winetaster card", [
                item(str(v["winetaster_card"]).title(),
                     f"your Noble is the {v.get('noble_character') or 'Noble'}")], kind="winetaster"))
        if v.get("goblet") is not None:
            secs.append(section("In your goblet", [item(tokens_text(v["goblet"]))], kind="taste"))
        seen = [_seen(e) for e in v.get("seen", [])]
        if seen:
            secs.append(section("What you saw this course", seen, kind="peeks"))
        secs.append(section("Your victory points", [item(str(v.get("vp_own", 0)))]))
    goblets = []
    for g in v["goblets"]:
        sub = []
        if g["coaster"]:
            sub.append(f"{g['coaster']} coaster")
        if g["poured_by"]:
            sub.append("poured by " + ", ".join(f"seat {s}" for s in g["poured_by"]))
        if g["drunk_by"]:
            sub.append(f"drunk by seat {g['drunk_by']}")
        goblets.append(item(f"Goblet {g['place']}", " · ".join(sub)))
    secs.append(section("Goblets", goblets))
    houses = []
    for u in v["units"]:
        target = u["target"] if u["target"] else "no target yet"
        houses.append(item(f"House {u['house']}",
                           "seats " + ", ".join(map(str, u["seats"])) + f" · target {target}"))
    secs.append(section("Houses", houses))
    if v["characters"]:
        secs.append(section("Characters face up", [item(f"Seat {s}", c)
                                                   for s, c in sorted(v["characters"].items())]))
    if over and v.get("vp"):
        secs.append(section("Victory points", [item(f"Seat {s}", str(n)) for s, n in sorted(v["vp"].items())]))
    if me is not None:
        from models.goblets import to_dict

        p["actions"] = [{"path": [words(label) for label in path(a)], "do": to_dict(a)}
                        for a in actions if a.seat == me]
    return p


class GobletsPhone:
    acts = True

    def engine(self, flow: Any) -> Any:
        return flow.engine

    def seats(self, flow: Any) -> tuple[int, ...]:
        """The seats people play (the box's own players get no code)."""
        return tuple(s for s in flow.engine.state.seats if s not in flow.bots)

    def refusal(self, flow: Any, raw: dict[str, Any]) -> str | None:
        """The engine's reason for refusing ``raw`` now, judged without playing it (as the flow
        reads it); None when the game would take it."""
        from models.goblets import parse_action

        try:
            flow.engine.check(parse_action(raw))
        except IllegalAction as exc:
            return exc.reason
        return None

    def page(self, view: Any, seat: int | None, actions: list[Any]) -> Page:
        return page_from_view(view, actions)


PHONE = GobletsPhone()
