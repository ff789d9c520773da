"""A simple computer player for Cheers, and a bot-vs-bot game (timed in bench/cheers_games.py).

The bot knows only what its seat may know: its hand, its team's goal and (except
under Masquerade) who its teammates are. It scores each legal action by the
fronts it would leave: its team's fronts closer to the goal, enemy fronts more
mixed (a goal never uses more than 4 ingredients, so mixed fronts are poisoned).
Ties are broken by its own seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from models.cheers.actions import Action, Cheers, DiscardHand, LimitDiscard, Play, Push
from models.cheers.cards import CARDS
from models.cheers.engine import State, new_game
from models.cheers.rules import clinking_cards, goal_distance, goal_holds
from models.cheers.setup import Goal, build_setup

Fronts = Mapping[int, Sequence[str]]


class Bot:
    """A sensible, legal player: prefers moves that approach its goal and poison enemies."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State) -> Action:
        """The action this bot takes for ``state.current_player``."""
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over; there is nothing to choose")
        actions = state.legal_actions()
        best: list[Action] = []
        best_score = float("-inf")
        for action in actions:
            score = self.score(state, seat, action)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)

    def score(self, state: State, seat: int, action: Action) -> float:
        fronts = {s: list(f) for s, f in state.fronts.items()}
        bonus = 0.0
        if isinstance(action, Play):
            matches = clinking_cards(action.card, fronts[action.to])
            if matches:  # the target decides; most likely both cards leave that front
                fronts[action.to].remove(matches[0])
            else:
                fronts[action.to].append(action.card)
        elif isinstance(action, Push):
            fronts[seat].remove(action.card)
            fronts[action.to].append(action.card)
        elif isinstance(action, Cheers):
            assert state.cheers is not None
            fronts[seat].remove(state.cheers.played)
            fronts[seat].remove(action.clink)
            fronts[action.give[0]].append(state.cheers.played)
            fronts[action.give[1]].append(action.clink)
        elif isinstance(action, LimitDiscard):
            fronts[seat].remove(action.card)
        elif isinstance(action, DiscardHand):
            goal = state.goal(seat)
            useless = sum(1 for c in state.hands[seat] if CARDS[c].big not in goal)
            bonus = -0.75 + 0.2 * useless
        return self.value(state, seat, fronts) + bonus

    def value(self, state: State, seat: int, fronts: Fronts) -> float:
        """How good ``fronts`` are for ``seat``'s team, as far as ``seat`` knows."""
        goal: Goal = state.goal(seat)
        mates = self._mates(state, seat)
        total = 0.0
        for s, front in fronts.items():
            if s in mates:
                if goal_holds(front, goal):
                    total += 100.0
                total -= goal_distance(front, goal) * (1.0 if s == seat else 0.8)
            elif self._known_enemy(state, seat, s):
                total += 0.5 * len({CARDS[c].big for c in front})
        return total

    @staticmethod
    def _mates(state: State, seat: int) -> set[int]:
        if state.setup.masquerade:
            return {seat}
        team = state.team(seat)
        return {s for s, t in state.setup.teams.items() if t == team}

    @staticmethod
    def _known_enemy(state: State, seat: int, other: int) -> bool:
        return not state.setup.masquerade and state.is_enemy(seat, other)


def play_bot_game(seed: int, players: int = 4, split: str | None = None,
                  masquerade: bool = False, turn_cap: int | None = 400) -> State:
    """One complete bot-vs-bot game from ``seed``; returns the final state."""
    rng = random.Random(seed)
    setup = build_setup(players, rng, split=split, masquerade=masquerade, turn_cap=turn_cap)
    state, _ = new_game(setup, rng)
    bot = Bot(random.Random(seed + 1))
    while not state.over:
        state.apply(bot.choose(state))
    return state
