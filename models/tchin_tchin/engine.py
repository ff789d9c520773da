"""The Tchin Tchin referee: a pure state machine over timestamped inputs.

It implements the engine protocol of :mod:`models.base` as a real-time game: anyone may
press at any moment. Its phases are :class:`~models.tchin_tchin.state.Phase`. Time comes
only from the actions; :meth:`Referee.next_deadline` says when the next timer falls due
and a :class:`Tick` delivers it. So the same table, options and actions always give the
same happenings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from models.base import Engine, GameType, Happening, IllegalAction, Outcome, Termination
from models.tchin_tchin.actions import Action, Buzz, Hearing, Toast
from models.tchin_tchin.cards import CARDS, Combination, EventCard
from models.tchin_tchin.listening import EPS, HeardToast
from models.tchin_tchin.rules import accepted_words, invitation, veto_needed, words_field
from models.tchin_tchin.setup import MAX_PLAYERS, MIN_PLAYERS
from models.tchin_tchin.state import Claim, OpenCard, Phase, RefereeState, VetoWindow, ms
from models.tchin_tchin.view import TableView, table_view
from models.toasts import TOASTS


class NotSeated(IllegalAction):
    """A press from a station where nobody plays."""


class Referee(RefereeState):
    """Referees one game of Tchin Tchin: the rules that move a :class:`RefereeState` on."""

    game_type: ClassVar[GameType] = GameType("tchin-tchin", "Tchin Tchin", MIN_PLAYERS, MAX_PLAYERS, real_time=True)

    # -- the engine protocol -------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat the game waits on: the revealer between cards, the claimant while the
        box listens; None while any invited player may claim, during a veto, and at the end."""
        if self.phase == Phase.BETWEEN:
            return self.revealer
        if self.phase == Phase.CLAIM and self.card is not None and self.card.claim is not None:
            return self.card.claim.station
        return None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The presses that may be made now (``seat``'s, or every seat's): any seated buzzer
        that is not switched off may press at any moment until the game is over (what a
        press means, a claim, a penalty or a vote, is the rules' to decide). A toast is
        heard from whoever says it, so it belongs to no seat."""
        if self.phase == Phase.OVER:
            return []
        seats = self.seats if seat is None else (seat,)
        return [Buzz(self.now, (s,)) for s in seats if s in self.characters and s not in self.disabled]

    def awaited_words(self) -> frozenset[str]:
        """The toasts that could win the card in play now: while a claim is live, the words
        accepted from its claimant; otherwise those accepted from every invited player who may
        still claim it (not mistaken, not switched off). Empty between cards and at the end:
        no word is waited for then."""
        card = self.card
        if card is None or self.phase not in (Phase.OPEN, Phase.CLAIM, Phase.VETO):
            return frozenset()
        if self.phase == Phase.CLAIM and card.claim is not None:
            stations = [card.claim.station]
        else:
            stations = [s for s in card.invited if s not in card.mistaken and s not in self.disabled]
        return frozenset(w for s in stations for w in accepted_words(card.invited[s]))

    def view(self, seat: int | None = None) -> TableView:
        """The table: every seat sees the same (the only secret is the deck's order)."""
        return table_view(self, seat)

    @property
    def outcome(self) -> Outcome | None:
        """Once the deck is played out: the stations sharing the top score win."""
        if self.phase != Phase.OVER:
            return None
        return Outcome(Termination.CARDS_RAN_OUT, tuple(self.winners()), self.scores())

    # -- inputs ------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Happening]:
        """Take one action; returns what happened. Raises IllegalAction before changing anything."""
        if isinstance(action, Buzz):
            unseated = [s for s in action.stations if s not in self.characters]
            if unseated:
                raise NotSeated(f"station {unseated[0]} has no player (seated: {list(self.seats)})")
        elif isinstance(action, Toast):
            if action.word not in TOASTS:
                raise IllegalAction(f"{action.word!r} is not a toast")
            if action.end < action.t:
                raise IllegalAction(f"a toast cannot end ({action.end}) before it starts ({action.t})")
        self._out = []
        if isinstance(action, Hearing):
            self._advance(action.t)
            self._hearing(action.available)
        elif isinstance(action, Buzz):
            self._advance(action.t)
            self._buzz(action.t, sorted(set(action.stations)))
        elif isinstance(action, Toast):
            self.ear.hear(action.t, action.end, action.word)
        else:
            self._advance(action.t)
        self._advance(self.now)
        out, self._out = self._out, []
        return out

    def start(self) -> list[Happening]:
        """The opening happening (who plays what, who reveals first); an empty deck ends at once."""
        self._out = []
        self._emit("dealt", characters={str(s): c for s, c in self.characters.items()},
                   first=self.revealer, cards=len(self.deck))
        if not self.deck:
            self._game_over()
        out, self._out = self._out, []
        return out

    def next_deadline(self) -> float | None:
        """When the next timer falls due (auto reveal, listening window, veto, card timeout)."""
        card = self.card
        if self.phase == Phase.BETWEEN:
            if self.options.auto_reveal_s is None or not self.deck:
                return None
            return self.since + self.options.auto_reveal_s
        if card is None:
            return None
        if self.phase == Phase.OPEN:
            return card.timeout_at
        if self.phase == Phase.CLAIM and card.claim is not None:
            press = card.claim.press
            # the window ends at press + window_s as the table reads the times (15.26 + 2.5 is
            # 17.76, not the 17.759999999999998 of binary floating point): a driver that lets in
            # the inputs of that instant before the timer then hears a toast ending exactly then
            due = _on_the_clock(press + self.options.window_s)
            toast = self.ear.first_counting(press)
            return due if toast is None else min(due, toast.decides_at(press))
        if self.phase == Phase.VETO and card.veto is not None:
            return card.veto.closes
        return None

    # -- time --------------------------------------------------------------------------
    def _advance(self, t: float) -> None:
        while (due := self.next_deadline()) is not None and due <= t + EPS:
            self.now = max(self.now, due)
            self._fall_due()
        self.now = max(self.now, t)

    def _fall_due(self) -> None:
        card = self.card
        if self.phase == Phase.BETWEEN:
            self._reveal(by_box=True)
        elif card is None:
            return
        elif self.phase == Phase.OPEN:
            self._unwon("timeout")
        elif self.phase == Phase.CLAIM and card.claim is not None:
            toast = self.ear.first_counting(card.claim.press)
            if toast is not None and toast.decides_at(card.claim.press) <= self.now + EPS:
                self._decide(toast)
            else:
                self._mistake(card.claim.station, "no toast")
        elif self.phase == Phase.VETO:
            assert card.claim is not None and card.veto is not None
            self._win(card.claim.station, card.veto.combination)

    # -- presses -----------------------------------------------------------------------
    def _buzz(self, t: float, stations: list[int]) -> None:
        card = self.card
        if self.phase == Phase.OVER or card is None:
            if self.phase == Phase.BETWEEN and self.revealer in stations:
                for s in stations:
                    if s != self.revealer:
                        self._ignored(s, "between cards")
                self._reveal(by_box=False)
            else:
                for s in stations:
                    self._ignored(s, "game over" if self.phase == Phase.OVER else "between cards")
            return
        if self.phase == Phase.CLAIM:
            for s in stations:
                card.locked_presses.append((t, s))
                self._ignored(s, "locked")
            return
        if self.phase == Phase.VETO:
            self._veto_votes(card, stations)
            return
        # open and unlocked: presses of the same instant are taken in station order (exact
        # ties go to the lower station), so once one claims, the later ones meet a lock
        ordered = sorted(stations)
        claimants = [s for s in ordered if s in card.invited and s not in card.mistaken]
        claimed = False
        for s in ordered:
            if claimed:
                self._ignored(s, "tied, lower station claims" if s in claimants else "locked")
            elif s not in card.invited:
                self._penalty(s)
            elif s in card.mistaken:
                self._ignored(s, "mistaken")
            else:
                self._claim(card, s, t, tuple(c for c in claimants if c != s))
                claimed = True

    def _claim(self, card: OpenCard, station: int, t: float, tied: tuple[int, ...]) -> None:
        card.claim = Claim(station, t, tied)
        self.phase = Phase.CLAIM
        reaction = t - card.revealed
        self.reactions[station].append(reaction)
        self.ear.forget_before(t)
        fields: dict[str, Any] = {"station": station}
        if tied:
            fields["tied"] = list(tied)
        fields["reaction_ms"] = ms(reaction)
        fields["window_ends"] = round(t + self.options.window_s, 6)
        self._emit("claim", **fields)
        if not self.hearing:
            self._unheard(station)

    def _hearing(self, available: bool) -> None:
        """The box gains or loses its ears; a claim waiting for its toast goes to the vote."""
        if available == self.hearing:
            return
        self.hearing = available
        self._emit("hearing", available=available)
        card = self.card
        if not available and self.phase == Phase.CLAIM and card is not None and card.claim is not None:
            self._unheard(card.claim.station)

    def _unheard(self, station: int) -> None:
        """House rule (no speech): with nothing to hear, the claimant's toast is taken as said
        and the players not invited alone judge it with their veto."""
        card = self.card
        assert card is not None
        combination = sorted(card.invited[station], key=lambda c: (c.word, c.drink))[0]
        self._emit("correct", station=station, word=None, reason="no speech: the veto vote decides")
        self._to_veto(station, combination)

    def _penalty(self, station: int) -> None:
        pile = self.piles[station]
        if pile:
            given = pile.pop()
            self.pot.append(given)
            self._emit("penalty", station=station, to_pot=True, card=given, pot=list(self.pot))
        else:
            self._emit("penalty", station=station, to_pot=False, pot=list(self.pot))

    def _veto_votes(self, card: OpenCard, stations: list[int]) -> None:
        veto = card.veto
        assert veto is not None and card.claim is not None
        for s in stations:
            if s in veto.votes:
                self._ignored(s, "already voted")
            elif s in veto.voters:
                veto.votes.add(s)
                self._emit("veto_vote", station=s, votes=len(veto.votes), needed=veto.needed)
            else:
                self._ignored(s, "veto window")
        if len(veto.votes) >= veto.needed:
            self._emit("vetoed", station=card.claim.station, voters=sorted(veto.votes))
            self._mistake(card.claim.station, "vetoed")

    # -- decisions ---------------------------------------------------------------------
    def _reveal(self, by_box: bool) -> None:
        while self.deck:
            cid = self.deck.pop(0)
            invited = invitation(CARDS[cid], self.characters, self.revealer, self.last_win)
            drawn = CARDS[cid]
            kind = drawn.kind if isinstance(drawn, EventCard) else "drink"
            head: dict[str, Any] = {"card": cid, "revealer": self.revealer}
            if invited is None:
                self._emit("reveal", **head, invited=[], word=None, kind=kind)
                if not self.deck or all(_is_same_again(c) for c in self.deck):
                    self.discarded.append(cid)
                    self._emit("discarded", card=cid, reason="nothing to repeat")
                else:
                    self.deck.append(cid)
                    self._emit("requeued", card=cid, reason="nothing to repeat")
                continue
            card = OpenCard(cid, self.revealer, self.now, invited,
                            self.now + self.options.card_timeout_s)
            self.card = card
            self.phase = Phase.OPEN
            fields: dict[str, Any] = {**head, "invited": sorted(invited), "word": words_field(invited),
                                      "kind": kind}
            if kind == "middleman":
                fields["words"] = {str(s): _one_or_list(accepted_words(invited[s]))
                                   for s in sorted(invited)}
            if by_box:
                fields["by"] = "box"
            self._emit("reveal", **fields)
            if not invited:
                self._unwon("nobody invited")
            return
        self._game_over()

    def _decide(self, toast: HeardToast) -> None:
        card = self.card
        assert card is not None and card.claim is not None
        station = card.claim.station
        toast.used = True
        self._emit("heard", station=station, word=toast.word)
        matching = sorted((c for c in card.invited[station] if c.word == toast.word),
                          key=lambda c: (c.word, c.drink))
        if not matching:
            self._mistake(station, "wrong word")
            return
        self._emit("correct", station=station, word=toast.word)
        # the decision is at the later of the toast's end and the press (rules page), however
        # late the toast was reported: the veto window runs from there
        self._to_veto(station, matching[0], decided=toast.decides_at(card.claim.press))

    def _to_veto(self, station: int, combination: Combination, decided: float | None = None) -> None:
        card = self.card
        assert card is not None
        voters = frozenset(s for s in self.seats if s not in card.invited and s not in self.disabled)
        if not voters:
            self._win(station, combination)
            return
        needed = veto_needed(voters)
        start = self.now if decided is None else decided
        card.veto = VetoWindow(combination, voters, needed, start + self.options.veto_s)
        self.phase = Phase.VETO
        self._emit("veto_window", station=station, voters=sorted(voters), needed=needed,
                   closes=round(card.veto.closes, 6))
        # a toast reported late: the voters' presses since its decision were votes
        early = [s for t, s in card.locked_presses
                 if s in voters and start - EPS <= t < card.veto.closes - EPS]
        card.locked_presses = []
        if early:
            self._veto_votes(card, early)

    def _mistake(self, station: int, reason: str) -> None:
        card = self.card
        assert card is not None
        card.mistaken.add(station)
        card.claim = None
        card.veto = None
        card.locked_presses = []
        self.phase = Phase.OPEN
        self._emit("mistake", station=station, reason=reason)
        if set(card.invited) <= card.mistaken:
            self._unwon("all invited mistaken")
        elif self.now >= card.timeout_at - EPS:
            self._unwon("timeout")

    def _win(self, station: int, combination: Combination) -> None:
        card = self.card
        assert card is not None and card.claim is not None
        reaction = card.claim.press - card.revealed
        self.correct_reactions[station].append(reaction)
        pot, self.pot = self.pot, []
        self.piles[station].extend(pot)
        self.piles[station].append(card.id)
        self._emit("win", station=station, card=card.id, pot=pot, reaction_ms=ms(reaction),
                   combination=combination.as_dict())
        self.last_win = combination
        self.revealer = station
        self._end_card()

    def _unwon(self, reason: str) -> None:
        card = self.card
        assert card is not None
        self.discarded.append(card.id)
        self._emit("unwon", card=card.id, reason=reason)
        self.last_win = None
        self._end_card()

    def _end_card(self) -> None:
        self.card = None
        if not self.deck:
            self._game_over()
            return
        self.phase = Phase.BETWEEN
        self.since = self.now

    def _game_over(self) -> None:
        self.card = None
        self.phase = Phase.OVER
        self._emit("game_over", scores={str(s): n for s, n in self.scores().items()},
                   winners=self.winners(), pot=list(self.pot), reactions=self.reaction_summary())

    def _emit(self, event: str, **fields: Any) -> None:
        self._out.append(Happening(event, fields))

    def _ignored(self, station: int, reason: str) -> None:
        self._emit("ignored", station=station, reason=reason)


def _on_the_clock(t: float) -> float:
    """A sum of times as the table reads it: rounded to the nanosecond (see EPS)."""
    return round(t, 9)


def _one_or_list(words: list[str]) -> str | list[str]:
    return words[0] if len(words) == 1 else words


def _is_same_again(cid: str) -> bool:
    c = CARDS[cid]
    return isinstance(c, EventCard) and c.kind == "same_again"


if TYPE_CHECKING:
    def _implements_the_engine_protocol(referee: Referee) -> Engine[Action, TableView]:
        return referee
