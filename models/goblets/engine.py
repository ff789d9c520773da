"""The Raise Your Goblets engine: whose move it is, what is legal, and what an action does.

A :class:`Game` is a :class:`~models.goblets.state.GameState` plus the injected
``random.Random``. ``apply`` checks an action completely before it changes anything, so an
illegal action raises a named error and leaves no trace. Chance (pouring, dealing, the
Gambler's pick, the tie-break) comes only from the injected random or the fixed deal.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any, ClassVar

from models.base import Engine, GameType, Happening, Outcome, Termination
from models.goblets import russian, tiebreak
from models.goblets.actions import (
    Action,
    Choose,
    Drink,
    Gamble,
    Juggle,
    Pass,
    Peek,
    Plot,
    Pour,
    Rotate,
    Scheme,
    Spy,
    Swap,
    Taste,
    Toast,
    Transmute,
    parse_action,
)
from models.goblets.characters import Character
from models.goblets.errors import (
    BadChoice,
    GameIsOver,
    IllegalAction,
    NoActionsLeft,
    NotAllowedNow,
    NotYourTurn,
    ToastNotFirstAction,
    ToastWithWineLeft,
    WinetasterCannotToast,
)
from models.goblets.moves import check_move, make_move
from models.goblets.setup import (
    FixedDeal,
    begin_course,
    deal_characters,
)
from models.goblets.state import (
    COURSES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RUSSIAN,
    RUSSIAN_VICTORY,
    GameState,
    Options,
    Phase,
    Step,
    StepKind,
    Unit,
)
from models.goblets.toast import (
    check_choice,
    clear_table,
    drink_steps,
    final_steps,
    make_choice,
    reveal_and_score,
)
from models.goblets.tokens import Token, as_names
from models.goblets.view import TableView, public_characters, view

_MOVES = (Pour, Peek, Rotate, Swap, Juggle, Scheme, Spy, Transmute)
_CHOICES = {StepKind.PLOT: Plot, StepKind.TASTE: Taste, StepKind.GAMBLE: Gamble}


class Game:
    """One game of Raise Your Goblets for 2-12 players: the engine protocol of
    :mod:`models.base`, turn-based."""

    game_type: ClassVar[GameType] = GameType("goblets", "Raise Your Goblets", MIN_PLAYERS, MAX_PLAYERS,
                                               real_time=False)

    def __init__(self, options: Options, rng: random.Random, fixed: FixedDeal | None = None,
                 host: int = 1) -> None:
        self.state = GameState(options, host)
        self.rng = rng
        self.fixed = fixed or FixedDeal()

    # -- reading -------------------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        return self.state.step

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the game waits for (None once it is over)."""
        step = self.state.step
        return step.seat if step is not None else None

    @property
    def is_over(self) -> bool:
        return self.state.phase == Phase.OVER

    def view(self, seat: int | None) -> TableView:
        """Exactly what ``seat`` may know; ``None`` is the shared table."""
        return view(self.state, seat)

    @property
    def outcome(self) -> Outcome | None:
        """Once over: the winners (several share a victory), each seat's victory points, and
        why it ended (Russian Goblette: a player reached the victory points; else the courses
        were played)."""
        s = self.state
        if s.phase != Phase.OVER:
            return None
        why = Termination.GOAL_REACHED if s.options.mode == RUSSIAN else Termination.COURSES_PLAYED
        return Outcome(why, tuple(s.winners), dict(s.vp))

    # -- playing -------------------------------------------------------------------------

    def start(self) -> list[Happening]:
        """Deal the characters, set the first course and run until someone must decide."""
        if self.state.phase != Phase.SETUP:
            raise NotAllowedNow("the game has already started")
        deal_characters(self.state, self.rng, self.fixed)
        course = begin_course(self.state, self.rng, self.fixed)
        out: list[Happening] = []
        if self.state.characters:
            # a Winetaster's card is face down: the table sees only the face-up ones
            shown = public_characters(self.state)
            out.append(Happening("characters", {"characters": shown}))
            out += [Happening("character_dealt", {"seat": s}, seat=s, private={"character": c.title})
                    for s, c in self.state.characters.items() if s not in shown]
        return out + course + self._advance(new_step=True)

    def apply(self, action: Action | dict[str, Any]) -> list[Happening]:
        """Apply one action; an illegal one raises a named error and changes nothing."""
        if isinstance(action, dict):
            action = parse_action(action)
        self.check(action)
        return self._do(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def check(self, action: Action) -> None:
        """Raise the named error that makes ``action`` illegal now; return if it is legal."""
        s = self.state
        if s.phase == Phase.OVER:
            raise GameIsOver("the game is over")
        step = s.step
        if step is None:
            raise NotAllowedNow("the game has not started")
        seat = action.seat
        if seat not in s.seats:
            raise NotYourTurn(f"seat {seat} is not at this table (seats 1-{s.options.players})")
        if seat != step.seat:
            unit = s.units[step.unit]
            if isinstance(action, Toast) and step.kind in (StepKind.TURN, StepKind.NOBLE_FIRST) \
                    and seat == unit.winetaster:
                raise WinetasterCannotToast("a Winetaster cannot call the Toast")
            if isinstance(action, Toast) and step.kind == StepKind.TURN and seat == unit.noble:
                self._check_toast_wine(unit, seat)  # with Wine left the Noble was never asked
                raise ToastNotFirstAction("a Noble may Toast before their Winetaster only when "
                                          f"asked first, and seat {seat} passed")
            if seat in s.spent:
                raise NoActionsLeft(f"seat {seat} has no action left; it is seat {step.seat}'s "
                                    f"move")
            raise NotYourTurn(f"it is seat {step.seat}'s move ({step.kind}), not seat {seat}'s")
        kind = step.kind
        if isinstance(action, Pass):
            if kind in (StepKind.DRINK, StepKind.CHOOSE):
                raise BadChoice("you must choose a goblet")
            return
        if isinstance(action, Toast):
            if kind == StepKind.PLOT:
                raise NotAllowedNow("the course's turns have not begun: the Plotter is choosing "
                                    "first")
            if kind == StepKind.CHOOSE:
                raise NotAllowedNow("the three courses are over: this is the tie-break")
            if kind not in (StepKind.TURN, StepKind.NOBLE_FIRST):
                raise NotAllowedNow("the Toast has already been called")
            self._check_toast(step)
            return
        if kind == StepKind.NOBLE_FIRST:
            raise NotAllowedNow("Toast now, or pass and let your Winetaster play first")
        if kind in (StepKind.TURN, StepKind.FINAL) and isinstance(action, _MOVES):
            check_move(s, step, action)
        elif kind == StepKind.FREE_PEEK and isinstance(action, Peek):
            if action.goblet not in (None, s.units[step.unit].place):
                raise BadChoice("the Winetaster's free Peek looks into your own goblet")
        elif kind in _CHOICES and isinstance(action, (Plot, Taste, Gamble)) \
                and isinstance(action, _CHOICES[kind]):
            check_choice(s, step, action)
        elif kind == StepKind.DRINK and isinstance(action, Drink):
            russian.check_drink(s, action)
        elif kind == StepKind.CHOOSE and isinstance(action, Choose):
            tiebreak.check_choose(s, action)
        else:
            raise NotAllowedNow(f"seat {seat} is asked for a {kind.replace('_', ' ')} step, "
                                f"not a {type(action).__name__}")

    def _check_toast(self, step: Step) -> None:
        s = self.state
        unit = s.units[step.unit]
        if unit.winetaster == step.seat:
            raise WinetasterCannotToast("a Winetaster cannot call the Toast")
        if step.acted:
            raise ToastNotFirstAction("the Toast must be your first and only action this turn")
        if unit.winetaster is not None and step.kind == StepKind.TURN:
            raise ToastNotFirstAction("a Noble may Toast only before their Winetaster plays")
        self._check_toast_wine(unit, step.seat)

    def _check_toast_wine(self, unit: Unit, seat: int) -> None:
        """The Toast needs no Wine behind the screen at the start of the turn (Impatient: 1)."""
        s = self.state
        allowance = 1 if s.active_character(unit) is Character.IMPATIENT else 0
        if s.wine_at_turn_start > allowance:
            raise ToastWithWineLeft(
                f"seat {seat} had {s.wine_at_turn_start} Wine behind the screen at the start"
                f" of the turn; the Toast needs none" + (" (Impatient: 1)" if allowance else ""))

    def _do(self, action: Action) -> list[Happening]:
        s = self.state
        step = s.step
        assert step is not None
        if isinstance(action, Toast):
            return self._toast(action.seat)
        if isinstance(action, Pass):
            out = [Happening("passed", {"seat": action.seat, "step": step.kind})]
            self._end_step()
        elif isinstance(action, _CHOICES.get(step.kind, ())):
            out = make_choice(s, self.rng, step, action)  # type: ignore[arg-type]
            self._end_step()
        elif isinstance(action, Drink):
            out, done = russian.drink(s, action)
            if done:
                out += self._russian_course_won()
            return out + self._advance(new_step=True)
        elif isinstance(action, Choose):
            out = tiebreak.choose(s, action)
            return out + self._advance(new_step=True)
        else:
            out = make_move(s, step, action)
            if isinstance(action, Transmute):
                return out + [self._announce(step)]
            step.actions_left -= 1
            step.acted = True
            if step.actions_left > 0:
                return out + [self._announce(step)]
            self._end_step()
        return out + self._advance(new_step=True)

    def _end_step(self) -> None:
        step = self.state.queue.pop(0)
        self.state.spent.add(step.seat)

    def _toast(self, seat: int) -> list[Happening]:
        s = self.state
        s.caller = s.last_caller = seat
        s.phase = Phase.TOAST
        s.spent = set()
        s.queue = final_steps(s, seat)
        return [Happening("toast", {"caller": seat, "course": s.course})] + \
            self._advance(new_step=True)

    def _announce(self, step: Step) -> Happening:
        s = self.state
        private: dict[str, Any] = {}
        if step.kind == StepKind.TASTE:
            private["goblet"] = as_names(s.places[step.unit].tokens)
        return Happening("turn", {"seat": step.seat, "actions_left": step.actions_left,
                                  "step": step.kind, "phase": s.phase}, seat=step.seat,
                         private=private)

    def _advance(self, new_step: bool) -> list[Happening]:
        """Run the phases on until a step waits for a seat (or the game ends)."""
        s = self.state
        out: list[Happening] = []
        while not s.queue and s.phase != Phase.OVER:
            out += self._next_phase()
        if s.queue and new_step:
            out.append(self._announce(s.queue[0]))
        return out

    def _next_phase(self) -> list[Happening]:
        s = self.state
        if s.phase == Phase.COURSE:
            s.phase = Phase.TURNS
            s.turn_unit = (s.unit_of(s.host).index + 1) % len(s.units)
            s.spent = set()
            return self._begin_turn()
        if s.phase == Phase.TURNS:
            s.spent = set(s.units[s.turn_unit].seats)
            s.turn_unit = (s.turn_unit + 1) % len(s.units)
            return self._begin_turn()
        if s.phase == Phase.TOAST:
            if s.options.mode == RUSSIAN:
                return russian.begin_drinking(s)
            s.phase = Phase.DRINK
            s.queue = drink_steps(s)
            return []
        if s.phase == Phase.DRINK:
            return reveal_and_score(s) + self._end_course()
        if s.phase == Phase.TIEBREAK:
            assert s.tie is not None
            return self._game_over([s.tie.winner] if s.tie.winner else [])
        raise AssertionError(f"no step in phase {s.phase}")

    def _begin_turn(self) -> list[Happening]:
        s = self.state
        unit = s.units[s.turn_unit]
        s.wine_at_turn_start = unit.screen[Token.WINE]
        if unit.winetaster is None:
            actions = 1 if s.options.mode == RUSSIAN else 2
            s.queue = [Step(StepKind.TURN, unit.noble, unit.index, actions)]
            return []
        s.queue = [Step(StepKind.TURN, unit.winetaster, unit.index), Step(StepKind.TURN, unit.noble, unit.index)]
        allowance = 1 if s.active_character(unit) is Character.IMPATIENT else 0
        if s.wine_at_turn_start <= allowance:
            s.queue.insert(0, Step(StepKind.NOBLE_FIRST, unit.noble, unit.index))
        return []

    def _russian_course_won(self) -> list[Happening]:
        s = self.state
        winners = russian.course_winners(s)
        out = [Happening("course_won", {"seats": winners, "course": s.course})]
        for seat in s.seats:
            s.vp[seat] = s.vp.get(seat, 0) + (1 if seat in winners else 0)
            out.append(Happening("scored", {"seat": seat, "vp": int(seat in winners),
                                            "total": s.vp[seat]}))
        return out + self._end_course()

    def _end_course(self) -> list[Happening]:
        s = self.state
        out = clear_table(s, self.rng)
        s.host = s.caller or s.host
        for seat in s.seats:
            s.vp.setdefault(seat, 0)
        if s.options.mode == RUSSIAN:
            if max(s.vp.values()) >= RUSSIAN_VICTORY:
                top = max(s.vp.values())
                return out + self._game_over([x for x in s.seats if s.vp[x] == top])
        elif s.course >= COURSES:
            top = max(s.vp.values())
            tied = [x for x in s.seats if s.vp[x] == top]
            if len(tied) > 1:
                return out + tiebreak.begin_tie_break(s, self.rng, tied, self.fixed.tie_break)
            return out + self._game_over(tied)
        return out + begin_course(s, self.rng, self.fixed)

    def _game_over(self, winners: list[int]) -> list[Happening]:
        s = self.state
        s.phase = Phase.OVER
        s.queue = []
        s.winners = winners
        ranking = sorted(s.seats, key=lambda x: (-s.vp[x], x not in winners, x))
        return [Happening("game_over", {
            "ranking": ranking, "vp": {x: s.vp[x] for x in s.seats}, "winners": winners,
            "shared": len(winners) > 1,
            "tie_break": s.tie.as_dict() if s.tie else None})]

    # -- choices for menus and bots -------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for ``seat`` (by default the seat to move): what menus and bots
        offer; none for a seat the game is not waiting on."""
        step = self.state.step
        if step is None or self.is_over or (seat is not None and seat != step.seat):
            return []
        return [a for a in self._candidates(step) if self.is_legal(a)]

    def _candidates(self, step: Step) -> list[Action]:
        s = self.state
        seat, unit = step.seat, s.units[step.unit]
        places = range(1, len(s.places) + 1)
        kind = step.kind
        out: list[Action] = []
        if kind in (StepKind.TURN, StepKind.FINAL):
            kinds = [t for t in Token if unit.screen[t] > 0]
            out += [Pour(seat, p, (t,)) for t in kinds for p in places]
            if s.active_character(unit) is Character.BARTENDER:
                out += [Pour(seat, p, pair) for pair in
                        itertools.combinations_with_replacement(kinds, 2) for p in places]
            out.append(Peek(seat))
            if s.options.mode == RUSSIAN or s.active_character(unit) is Character.SOMMELIER:
                out += [Peek(seat, p) for p in places if p != unit.place or
                        s.options.mode == RUSSIAN]
            out += [Rotate(seat, d, n) for d in ("cw", "ccw") for n in (1, 2)]
            if s.options.mode == RUSSIAN:
                out += [Swap(seat, goblets=pr) for pr in itertools.combinations(places, 2)]
            else:
                out += [Swap(seat, goblet=p) for p in places]
            pairs = list(itertools.combinations(places, 2))
            out += [Juggle(seat, pr) for pr in pairs] + [Scheme(seat, pr) for pr in pairs]
            out += [Spy(seat, u.noble) for u in s.units if u is not unit]
            out += [Transmute(seat, Token.ANTIDOTE), Transmute(seat, Token.POISON)]
            out += [Toast(seat), Pass(seat)]
        elif kind == StepKind.NOBLE_FIRST:
            out += [Toast(seat), Pass(seat)]
        elif kind == StepKind.FREE_PEEK:
            out += [Peek(seat), Pass(seat)]
        elif kind == StepKind.PLOT:
            out += [Plot(seat, u.noble) for u in s.units if u is not unit] + [Pass(seat)]
        elif kind == StepKind.TASTE:
            out += [Taste(seat, t) for t in Token] + [Pass(seat)]
        elif kind == StepKind.GAMBLE:
            out += [Gamble(seat), Pass(seat)]
        elif kind == StepKind.DRINK:
            out += [Drink(seat, p) for p in places]
        elif kind == StepKind.CHOOSE:
            assert s.tie is not None
            out += [Choose(seat, g) for g in range(1, len(s.tie.goblets) + 1)]
        return out


if TYPE_CHECKING:
    def _implements_the_engine_protocol(game: Game) -> Engine[Action, TableView]:
        return game
