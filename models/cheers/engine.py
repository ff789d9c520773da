"""The Cheers table: a :class:`State`, its legal actions and what applying one does.

Decisions that belong to someone other than the active player (the target's
cheers, a limit discard) are explicit steps: ``current_player`` is then the
deciding seat, and ``legal_actions()``/``apply()`` drive them like any turn.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import TYPE_CHECKING, ClassVar

from models.base import Engine, GameType, Happening, Outcome, Termination
from models.cheers.actions import Action, Cheers, DiscardHand, LimitDiscard, Play, Push
from models.cheers.cards import CARDS
from models.cheers.checks import check_action
from models.cheers.rules import clinking_cards, goal_holds, over_limit, turn_order
from models.cheers.setup import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Setup
from models.cheers.table import PendingCheers, Step, Table
from models.cheers.view import TableView, view

#: House rule: the draw pile may be rebuilt from the discards 3 times; the 4th time it runs out ends the game.
PILE_RUNS = 4


#: how a game's ``end_reason`` is told in its outcome
TERMINATIONS = {"victory": Termination.GOAL_REACHED, "turn_cap": Termination.TURN_CAP,
                "draw_pile_exhausted": Termination.DRAW_PILE_EXHAUSTED,
                "abandoned": Termination.ABANDONED}


class State(Table):
    """The table with its rules: the engine protocol of :mod:`models.base`, turn-based."""

    game_type: ClassVar[GameType] = GameType("cheers", "Cheers", MIN_PLAYERS, MAX_PLAYERS, real_time=False)

    @classmethod
    def seated(cls, setup: Setup, rng: random.Random) -> State:
        """The table before the deal: the whole deck is the draw pile; :meth:`start` deals."""
        return cls(setup=setup, rng=rng, hands={s: [] for s in setup.seats},
                   fronts={s: [] for s in setup.seats}, draw_pile=list(setup.deck),
                   turn_player=setup.first)

    def start(self) -> list[Happening]:
        """Deal: seat 1 draws its hand of 3 from the top of the deck, then seat 2, and so on.
        Every hand is dealt 3, as the rules say; a hand of 4 (the odd-count house rule) is
        the refill at the end of its player's turns."""
        out: list[Happening] = []
        for seat in self.seats:
            size = HAND_SIZE
            self.hands[seat], self.draw_pile = self.draw_pile[:size], self.draw_pile[size:]
            out.append(Happening("dealt", {"seat": seat, "count": size}, seat=seat,
                                 private={"cards": list(self.hands[seat])}))
        out.append(Happening("turn", {"seat": self.setup.first, "turn": 1}))
        return out

    def view(self, seat: int | None) -> TableView:
        """Exactly what ``seat`` may know (``None``: the public table)."""
        return view(self, seat)

    @property
    def outcome(self) -> Outcome | None:
        """Once over: the winning team's seats (none when nobody reached a goal); Cheers keeps no score."""
        if not self.over or self.end_reason is None:
            return None
        winners = tuple(s for s in self.seats if self.winner_team is not None
                        and self.team(s) == self.winner_team)
        return Outcome(TERMINATIONS[self.end_reason], winners, {})

    def abandon(self) -> None:
        """The table stops the game: it is over, nobody won, and no action is taken any more."""
        self.over, self.end_reason = True, "abandoned"

    # -- the rules ----------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (by default the current player) may take now: none for a
        seat the table is not waiting on, and none once the game is over."""
        if seat is not None and seat != self.current_player:
            return []
        seat = self.current_player
        if seat is None:
            return []
        step = self.step
        if step == Step.LIMIT_DISCARD:
            return [LimitDiscard(seat, cid) for cid in self.fronts[seat]]
        if step == Step.CHEERS:
            assert self.cheers is not None
            others = [s for s in self.seats if s != seat]
            pairs = [
                (a, b)
                for a, b in permutations(others, 2)
                if self.may_receive_cheers(seat, a, b)
            ]
            return [Cheers(seat, clink, pair) for clink in self.cheers.matches for pair in pairs]
        actions: list[Action] = [Play(seat, cid, to) for cid in self.hands[seat] for to in self.seats]
        actions += [Push(seat, cid, to) for cid in self.fronts[seat] for to in self.seats if to != seat]
        actions.append(DiscardHand(seat))
        return actions

    def check(self, action: Action) -> Action:
        """Raise the named error if ``action`` is illegal now; returns it completed
        (a cheers' omitted ``clink`` filled in when only one card matches)."""
        return check_action(self, action)

    def apply(self, action: Action) -> list[Happening]:
        """Check, then play ``action``. Illegal: raises, and nothing changes."""
        action = self.check(action)
        if isinstance(action, Play):
            return self._play(action)
        if isinstance(action, Push):
            return self._push(action)
        if isinstance(action, DiscardHand):
            return self._discard_hand(action)
        if isinstance(action, Cheers):
            return self._cheers(action)
        return self._limit_discard(action)

    # -- the moves ------------------------------------------------------------
    def _play(self, action: Play) -> list[Happening]:
        self.hands[action.seat].remove(action.card)
        matches = clinking_cards(action.card, self.fronts[action.to])
        self.fronts[action.to].append(action.card)
        c = CARDS[action.card]
        out = [Happening("played", {"seat": action.seat, "card": action.card, "big": c.big.value,
                                    "small": c.small.value, "to": action.to})]
        if matches:
            self.cheers = PendingCheers(action.to, action.card, matches)
            out.append(Happening("cheers_called", {"seat": action.seat, "target": action.to,
                                                   "played": action.card, "matches": list(matches)}))
            out.append(self._awaiting())
            return out
        return out + self._after_move()

    def _push(self, action: Push) -> list[Happening]:
        self.fronts[action.seat].remove(action.card)
        self.fronts[action.to].append(action.card)
        out = [Happening("pushed", {"seat": action.seat, "card": action.card, "to": action.to})]
        return out + self._after_move()

    def _discard_hand(self, action: DiscardHand) -> list[Happening]:
        hand = self.hands[action.seat]
        self.discard_pile.extend(hand)
        out = [Happening("discarded_hand", {"seat": action.seat, "count": len(hand)},
                         seat=action.seat, private={"cards": list(hand)})]
        hand.clear()
        return out + self._after_move()

    def _cheers(self, action: Cheers) -> list[Happening]:
        assert self.cheers is not None
        played = self.cheers.played
        front = self.fronts[action.seat]
        front.remove(played)
        front.remove(action.clink)
        self.fronts[action.give[0]].append(played)  # given cards never cheers again
        self.fronts[action.give[1]].append(action.clink)
        self.cheers = None
        given = {str(action.give[0]): played, str(action.give[1]): action.clink}
        out = [Happening("cheers", {"target": action.seat, "played": played,
                                    "clinked": action.clink, "given": given})]
        return out + self._after_move()

    def _limit_discard(self, action: LimitDiscard) -> list[Happening]:
        self.fronts[action.seat].remove(action.card)
        self.discard_pile.append(action.card)
        if not over_limit(self.fronts[action.seat]):
            self.limit_queue.pop(0)
        out = [Happening("limit_discard", {"seat": action.seat}, seat=action.seat,
                         private={"card": action.card})]
        if self.limit_queue:
            return out + [self._awaiting()]
        return out + self._end_of_move()

    # -- resolution -------------------------------------------------------------
    def _awaiting(self) -> Happening:
        return Happening("awaiting", {"seat": self.current_player, "decision": self.step})

    def _after_move(self) -> list[Happening]:
        """Queue limit discards (turn order from the active player), else finish the move."""
        self.limit_queue = [s for s in turn_order(self.turn_player, self.players)
                            if over_limit(self.fronts[s])]
        if self.limit_queue:
            return [self._awaiting()]
        return self._end_of_move()

    def _end_of_move(self) -> list[Happening]:
        """The move has fully resolved: victory, then refill, then the next turn."""
        for seat in turn_order(self.turn_player, self.players):
            if goal_holds(self.fronts[seat], self.goal(seat)):
                self.winner_seat, self.winner_team = seat, self.team(seat)
                return [Happening("victory", {"team": self.winner_team, "player": seat})] + \
                    self._game_over("victory")
        out = self._refill(self.turn_player)
        if self.over:
            return out
        cap = self.setup.turn_cap
        if cap is not None and self.turn >= cap:
            return out + self._game_over("turn_cap")
        self.turn += 1
        self.turn_player = self.turn_player % self.players + 1
        return out + [Happening("turn", {"seat": self.turn_player, "turn": self.turn})]

    def _game_over(self, reason: str) -> list[Happening]:
        self.over = True
        self.end_reason = reason
        self.limit_queue = []
        goals = {team: [i.value for i in goal] for team, goal in self.setup.goals.items()}
        teams = {str(s): t for s, t in self.setup.teams.items()}
        return [Happening("game_over", {"winner": self.winner_team, "reason": reason}),
                Happening("goals_revealed", {"goals": goals, "teams": teams})]

    def _refill(self, seat: int) -> list[Happening]:
        """Draw up to the hand size. Events follow the table: the cards drawn before a
        reshuffle, then ``reshuffled``, then the cards drawn from the new pile."""
        hand = self.hands[seat]
        drawn: list[str] = []
        out: list[Happening] = []

        def flush() -> None:
            if drawn:
                out.append(Happening("drew", {"seat": seat, "count": len(drawn)}, seat=seat,
                                     private={"cards": list(drawn)}))
                drawn.clear()

        while len(hand) < self.setup.hand_sizes[seat] and not self.over:
            if not self.draw_pile and not self._rebuild(out):
                break
            cid = self.draw_pile.pop(0)
            hand.append(cid)
            drawn.append(cid)
            if not self.draw_pile:
                flush()
                self._pile_ran_out(out)
        flush()
        if self.over:
            out += self._game_over("draw_pile_exhausted")
        return out

    def _pile_ran_out(self, out: list[Happening]) -> None:
        """House rule: the 4th time the draw pile runs out it cannot be rebuilt; the game ends."""
        if self.pile_runs >= PILE_RUNS:
            self.over = True
            return
        self._rebuild(out)

    def _rebuild(self, out: list[Happening]) -> bool:
        if not self.discard_pile or self.pile_runs >= PILE_RUNS:
            return False
        self.draw_pile = list(self.discard_pile)
        self.discard_pile = []
        self.rng.shuffle(self.draw_pile)
        self.pile_runs += 1
        out.append(Happening("reshuffled", {"cards": len(self.draw_pile), "pile": self.pile_runs}))
        return True



def new_game(setup: Setup, rng: random.Random) -> tuple[State, list[Happening]]:
    """A dealt table and what the deal did (:meth:`State.seated`, then :meth:`State.start`)."""
    state = State.seated(setup, rng)
    return state, state.start()


if TYPE_CHECKING:
    def _implements_the_engine_protocol(state: State) -> Engine[Action, TableView]:
        return state
