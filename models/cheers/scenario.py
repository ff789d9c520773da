"""Scripted tables: name cards by their icons and arrange hands and fronts.

For rule examples, tests and dispute scenarios: ``cid(M, L)`` is the first
Mint/lemon card; :func:`arrange` moves named cards into place, keeping all 50.
"""

from __future__ import annotations

import random

from models.cheers.cards import CARD_IDS, INGREDIENTS, Ingredient
from models.cheers.engine import State, new_game
from models.cheers.setup import build_setup

G, M, L, P, B = INGREDIENTS  # grenadine, mint, lemon, cassis (purple), curaçao (blue)


def cid(big: Ingredient, small: Ingredient, copy: int = 0) -> str:
    """The id of a card by its icons: ``cid(M, L)`` is the first Mint/lemon card."""
    n = INGREDIENTS.index(big) * 10 + INGREDIENTS.index(small) * 2 + copy + 1
    return f"C{n:02d}"


def table(players: int = 4, *, split: str | None = None,
          teams: dict[str, list[int]] | None = None, goals: dict[str, list[str]] | None = None, first: int = 1, masquerade: bool = False,
          turn_cap: int | None = None, seed: int = 7) -> State:
    """A dealt table; with 4 players, teams A = seats 1, 3 and B = seats 2, 4 unless given."""
    rng = random.Random(seed)
    if teams is None and not masquerade:
        teams = {"A": [1, 3], "B": [2, 4]} if players == 4 else None
    setup = build_setup(players, rng, split=split, teams=teams, goals=goals, first=first,
                        masquerade=masquerade, turn_cap=turn_cap)
    state, _ = new_game(setup, rng)
    return state


def arrange(state: State, hands: dict[int, list[str]] | None = None,
            fronts: dict[int, list[str]] | None = None) -> State:
    """Move the named cards into hands/fronts (taking them from wherever they are)."""
    wanted = [c for h in (hands or {}).values() for c in h] + \
        [c for f in (fronts or {}).values() for c in f]
    zones = [state.draw_pile, state.discard_pile, *state.hands.values(), *state.fronts.values()]
    for c in wanted:
        for zone in zones:
            if c in zone:
                zone.remove(c)
                break
    for seat, hand in (hands or {}).items():
        state.draw_pile.extend(state.hands[seat])
        state.hands[seat] = list(hand)
    for seat, front in (fronts or {}).items():
        state.draw_pile.extend(state.fronts[seat])
        state.fronts[seat] = list(front)
    if sorted(state.all_cards()) != sorted(CARD_IDS):
        raise ValueError("a card was named twice: every card is in exactly one place")
    return state
