"""What the table may see: the public view of a referee's state.

Tchin Tchin has no hands: the only secret is the order of the face-down deck,
so the view gives its size and nothing else.
"""

from __future__ import annotations

from typing import Any

from models.tchin_tchin.engine import Referee
from models.tchin_tchin.rules import accepted_words


def view(ref: Referee, seat: int | None = None) -> dict[str, Any]:
    """The public table (``seat`` is accepted for the common contract; every seat sees the same)."""
    card = ref.card
    out: dict[str, Any] = {
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
        out["card"] = {
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
        if ref.phase == "veto" and card.claim is not None:
            # the word has been judged by now: the table may see what was asked
            out["card"]["accepted"] = accepted_words(card.invited[card.claim.station])
    if ref.phase == "over":
        out["winners"] = ref.winners()
        out["reactions"] = ref.reaction_summary()
    return out
