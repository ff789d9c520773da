"""Cheers on a phone: your hand, your goal, your team (where the variant shows it), your moves."""

from __future__ import annotations

from typing import Any

from controller.games.cheers.menus import card_label
from controller.phones.pages import Page, base_page, item, section
from models.base import IllegalAction
from models.cheers.actions import Action, Cheers, DiscardHand, LimitDiscard, Play, Push, action_from_dict
from models.cheers.view import TableView

TITLE = "Cheers"


def _seat(v: TableView, seat: int, me: int | None) -> str:
    name = "you" if seat == me else f"seat {seat}"
    if v.teams is not None and seat != me:
        name += f" (team {v.teams[seat]})"
    return name


def _card(c: Any) -> dict[str, Any]:
    return item(c.big.label, f"clinks with {c.small.label.lower()}", id=c.id)


def status(v: TableView, me: int | None) -> str:
    if v.over:
        if v.winner_team:
            return f"Game over: team {v.winner_team} wins"
        return "Game over" + (f" ({v.end_reason})" if v.end_reason else "")
    if v.cheers is not None:
        who = "You" if v.cheers.target == me else f"Seat {v.cheers.target}"
        return f"CHEERS! {who}: choose the clink and give both cards away"
    if v.limit_seats:
        who = "You have" if v.limit_seats[0] == me else f"Seat {v.limit_seats[0]} has"
        return f"{who} too many cards in front: discard one"
    return "Your turn" if v.turn_player == me else f"Seat {v.turn_player}'s turn"


def path(v: TableView, a: Action, hand: dict[str, Any]) -> list[str]:
    """The taps leading to ``a``, first tap first (labels only from the seat's own view)."""
    me = v.seat
    if isinstance(a, Play):
        to = f"In front of {_seat(v, a.to, me)}"
        front = v.fronts.get(a.to, ())
        if any(hand[a.card].small == c.big for c in front):
            to += " · CHEERS!"
        return ["Play a card", card_label(a.card), to]
    if isinstance(a, Push):
        return ["Push a card from your front", card_label(a.card), f"To {_seat(v, a.to, me)}"]
    if isinstance(a, DiscardHand):
        return [f"Discard your whole hand ({len(hand)} cards)"]
    if isinstance(a, Cheers):
        return [f"Clink with your {card_label(a.clink)}", f"Played card to {_seat(v, a.give[0], me)}",
                f"Your card to {_seat(v, a.give[1], me)}"]
    if isinstance(a, LimitDiscard):
        return ["Discard a card from your front", card_label(a.card)]
    raise TypeError(f"no phone path for {a!r}")


def page_from_view(v: TableView, actions: list[Action]) -> Page:
    """A seat's page (or the public table's) from its view and its legal actions alone."""
    me = v.seat
    p = base_page(TITLE, me, status(v, me), your_move=me is not None and v.current_player == me,
                  over=v.over)
    secs = p["sections"]
    if me is not None and v.goal is not None and v.hand is not None:
        counts: dict[str, int] = {}
        for ingredient in v.goal:
            counts[ingredient.label] = counts.get(ingredient.label, 0) + 1
        secs.append(section("Your goal", [item(f"{label} ×{n}" if n > 1 else label)
                                          for label, n in counts.items()], kind="goal"))
        if v.masquerade and not v.over:
            secs.append(section("Your team", [item(f"Team {v.team}", "Masquerade: teams stay secret")]))
        else:
            mates = ", ".join(f"seat {s}" for s in v.teammates or ()) or "nobody else"
            secs.append(section("Your team", [item(f"Team {v.team}", f"with {mates}")]))
        secs.append(section("Your hand", [_card(c) for c in v.hand], kind="hand"))
    if v.cheers is not None:
        secs.append(section("Cheers!", [item(f"Played: {v.cheers.played.big.label}",
                                             f"to seat {v.cheers.target}")]))
    fronts = []
    for s in sorted(v.fronts):
        cards = ", ".join(c.label() for c in v.fronts[s]) or "nothing yet"  # both icons are public
        name = _seat(v, s, me)
        fronts.append(item(name[:1].upper() + name[1:], f"{cards} · {v.hand_sizes[s]} in hand"))
    secs.append(section("In front of each seat", fronts))
    secs.append(section("The table", [item(f"Turn {v.turn}", f"draw pile {v.draw_pile} · "
                                                             f"discards {v.discard_pile}")]))
    if v.over and v.goals:
        secs.append(section("Goals", [item(f"Team {t}", ", ".join(i.label for i in g))
                                      for t, g in sorted(v.goals.items())]))
    if me is not None and v.hand is not None:
        hand = {c.id: c for c in v.hand}
        p["actions"] = [{"path": path(v, a, hand), "do": a.to_dict()} for a in actions
                        if a.seat == me]
    return p


class CheersPhone:
    acts = True

    def engine(self, flow: Any) -> Any:
        return flow.state

    def seats(self, flow: Any) -> tuple[int, ...]:
        """The seats people play (the box's own players get no code)."""
        return tuple(s for s in flow.setup.seats if s not in flow.bots)

    def waits(self, flow: Any) -> str | None:
        """While the TV seats the table and shows the goals, nobody moves (a move would skip
        the goals of the seats without a phone)."""
        if flow.phase == "seating":
            return "Waiting for the table: the host goes on from the seating on the TV (OK)"
        if flow.phase == "reveal" and flow.reveal_queue:
            return (f"Waiting for the table: the goals are being shown, seat {flow.reveal_queue[0]}'s now "
                    "(a seat with a phone: Next on the pad)")
        if flow.phase == "menu":
            # the host's game menu is a pause (the pad drives the menu, not the game): a move
            # would close it under the host, or go on while the table reads "Abandon this game?"
            return "Waiting for the table: the host has the game menu open on the TV"
        return None

    def refusal(self, flow: Any, raw: dict[str, Any]) -> str | None:
        """The engine's reason for refusing ``raw`` now, judged without playing it (as the flow
        reads it); None when the game would take it."""
        played = flow.state.cheers.played if flow.state.cheers is not None else None
        try:
            flow.state.check(action_from_dict(raw, played=played))
        except IllegalAction as exc:
            return exc.reason
        return None

    def page(self, view: TableView, seat: int | None, actions: list[Action]) -> Page:
        return page_from_view(view, actions)


PHONE = CheersPhone()
