"""The private action menus of Cheers, built from the engine's legal actions.

An :class:`ActionPicker` walks one deciding seat through its choice with the
menu pad: which action, which card, to whom; OK on the last step confirms.
Every choice offered comes from ``state.legal_actions()``, so a menu can never
propose an illegal move. Back goes one step up; Back on the first menu closes
the private view.
"""

from __future__ import annotations

from typing import Any

from controller.menu import BACK, Choice, MenuState
from hardware.display.widgets import chip
from models.cheers.actions import Action, Cheers, DiscardHand, LimitDiscard, Play, Push
from models.cheers.cards import CARDS
from models.cheers.engine import State
from models.cheers.rules import clinking_cards
from models.cheers.table import Step

CLOSE = object()  # what nav() returns when the view should close


def seat_label(state: State, seat: int, me: int) -> str:
    """Seat 2's chip and ``team B`` (no team under Masquerade); ``You`` and the chip for the
    chooser: the chip in the colour of that seat's LED, as on the table."""
    if seat == me:
        return f"You {chip(seat)}"
    if state.setup.masquerade:
        return chip(seat)
    return f"{chip(seat)} team {state.team(seat)}"


def card_label(card_id: str) -> str:
    c = CARDS[card_id]
    return f"{c.big.label}, clinks with {c.small.label}"


def _unique(values: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


class ActionPicker:
    """One seat's choice in progress. ``nav()`` returns an Action when confirmed."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.path: list[Any] = []
        self.legal = state.legal_actions()
        if state.step == Step.CHEERS and state.cheers is not None and len(state.cheers.matches) == 1:
            self.path.append(state.cheers.matches[0])  # the only card that can clink
        self.menu: MenuState[Any] = self._build()

    @property
    def step(self) -> Step:
        return self.state.step

    def nav(self, button: str) -> Action | object | None:
        self.menu, chosen = self.menu.nav(button)
        if chosen is None:
            return None
        if chosen is BACK or chosen is False:
            if len(self.path) > self._fixed_depth():
                self.path.pop()
                self.menu = self._build()
                return None
            return CLOSE
        self.path.append(chosen)
        action = self._complete()
        if action is not None:
            return action
        self.menu = self._build()
        return None

    def _fixed_depth(self) -> int:
        cheers = self.state.cheers
        return 1 if self.step == Step.CHEERS and cheers is not None and len(cheers.matches) == 1 else 0

    # -- what a path means -----------------------------------------------------------
    def _complete(self) -> Action | None:
        p = self.path
        if self.step == Step.TURN:
            if p[0] == "discard" and len(p) == 2:
                return DiscardHand(self.seat)
            if p[0] == "play" and len(p) == 3:
                return Play(self.seat, p[1], p[2])
            if p[0] == "push" and len(p) == 3:
                return Push(self.seat, p[1], p[2])
        elif self.step == Step.CHEERS and len(p) == 3:
            return Cheers(self.seat, p[0], (p[1], p[2]))
        elif self.step == Step.LIMIT_DISCARD and len(p) == 1:
            return LimitDiscard(self.seat, p[0])
        return None

    def _build(self) -> MenuState[Any]:
        if self.step == Step.TURN:
            return self._turn_menu()
        if self.step == Step.CHEERS:
            return self._cheers_menu()
        cards = [a.card for a in self.legal if isinstance(a, LimitDiscard)]
        return _menu("Too many cards in front: discard one, face down",
                     [(card_label(c), c) for c in cards])

    def _turn_menu(self) -> MenuState[Any]:
        p = self.path
        hand = self.state.hands[self.seat]
        if not p:
            items = []
            if any(isinstance(a, Play) for a in self.legal):
                items.append(("Play a card from your hand", "play"))
            if any(isinstance(a, Push) for a in self.legal):
                items.append(("Push a card from your front", "push"))
            items.append((f"Discard your whole hand ({len(hand)} cards)", "discard"))
            return _menu("Your turn: choose an action", items)
        if p[0] == "discard":
            return _menu("Discard your whole hand, face down?",
                         [(f"Yes, discard {len(hand)} cards", True), ("No, go back", False)])
        kind = Play if p[0] == "play" else Push
        if len(p) == 1:
            cards = _unique([a.card for a in self.legal if isinstance(a, kind)])
            title = "Which card to play?" if kind is Play else "Which card to push?"
            return _menu(title, [(card_label(c), c) for c in cards])
        targets = _unique([a.to for a in self.legal if isinstance(a, kind) and a.card == p[1]])
        items = []
        for to in targets:
            label = seat_label(self.state, to, self.seat)
            if kind is Play and clinking_cards(p[1], self.state.fronts[to]):
                label += "  (CHEERS!)"
            items.append((label, to))
        verb = "Play" if kind is Play else "Push"
        return _menu(f"{verb} {CARDS[p[1]].big.label} in front of…", items)

    def _cheers_menu(self) -> MenuState[Any]:
        p = self.path
        assert self.state.cheers is not None
        played = self.state.cheers.played
        legal = [a for a in self.legal if isinstance(a, Cheers)]
        if not p:
            return _menu("Cheers! Which of your cards clinks?",
                         [(card_label(c), c) for c in self.state.cheers.matches])
        if len(p) == 1:
            seats = _unique([a.give[0] for a in legal if a.clink == p[0]])
            return _menu(f"Give the played {CARDS[played].big.label} to…",
                         [(seat_label(self.state, s, self.seat), s) for s in seats])
        seats = _unique([a.give[1] for a in legal if a.clink == p[0] and a.give[0] == p[1]])
        return _menu(f"Give your {CARDS[p[0]].big.label} to…",
                     [(seat_label(self.state, s, self.seat), s) for s in seats])


def _menu(title: str, items: list[tuple[str, Any]]) -> MenuState[Any]:
    return MenuState(title, tuple(Choice(label, value) for label, value in items), wrap=True)
