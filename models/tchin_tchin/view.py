"""What the table may see: the public view of a referee's state, typed.

Tchin Tchin has no hands: the only secret is the order of the face-down deck,
so the view gives its size and nothing else, and every seat sees the same.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from models.tchin_tchin.rules import accepted_words
from models.tchin_tchin.state import Phase, RefereeState


class CardView(TypedDict):
    """The card on the table and what has been decided about it."""

    id: str
    revealed: float
    invited: list[int]
    mistaken: list[int]
    claimant: int | None
    press: float | None
    veto_votes: int | None
    veto_needed: int | None
    veto_closes: float | None
    timeout_at: float
    accepted: NotRequired[list[str]]
    """During a veto: the words the claimant could have said (the word has been judged)."""


class TableView(TypedDict):
    """The public table (every seat's view: nothing in it is secret)."""

    phase: Phase
    revealer: int
    characters: dict[int, str]
    deck_left: int
    pot: list[str]
    piles: dict[int, list[str]]
    scores: dict[int, int]
    card: CardView | None
    winners: NotRequired[list[int]]
    """Once the game is over."""
    reactions: NotRequired[dict[str, dict[str, Any]]]
    """Once the game is over: each station's claims and reaction times."""


def table_view(ref: RefereeState, seat: int | None = None) -> TableView:
    """The public table (``seat`` is taken for the common protocol; every seat sees the same)."""
    card = ref.card
    out: TableView = {
        "phase": ref.phase,
        "revealer": ref.revealer,
        "characters": dict(ref.characters),
        "deck_left": len(ref.deck),
        "pot": list(ref.pot),
        "piles": {s: list(p) for s, p in ref.piles.items()},
        "scores": ref.scores(),
        "card": None,
    }
    if card is not None:
        shown: CardView = {
            "id": card.id,
            "revealed": card.revealed,
            "invited": sorted(card.invited),
            "mistaken": sorted(card.mistaken),
            "claimant": card.claim.station if card.claim else None,
            "press": card.claim.press if card.claim else None,
            "veto_votes": len(card.veto.votes) if card.veto else None,
            "veto_needed": card.veto.needed if card.veto else None,
            "veto_closes": card.veto.closes if card.veto else None,
            "timeout_at": card.timeout_at,
        }
        if ref.phase == Phase.VETO and card.claim is not None:
            # the word has been judged by now: the table may see what was asked
            shown["accepted"] = accepted_words(card.invited[card.claim.station])
        out["card"] = shown
    if ref.phase == Phase.OVER:
        out["winners"] = ref.winners()
        out["reactions"] = ref.reaction_summary()
    return out


#: ``view(referee, seat)``: the same view as :meth:`Referee.view`
view = table_view
