"""The actions of a turn and of the toast phase: Pour, Peek, Rotate, Swap and the [Turn]
abilities (Juggler, Schemer, Spy, Alchemist, Bartender, Butler, Sommelier).

Each action has one rule (:data:`RULES`): its check, which raises a named error and changes
nothing, and what it does, which changes the state and says what happened. The engine
calls ``check_move``, then ``make_move``; both dispatch through the same table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from models.base import Happening
from models.goblets.actions import (
    Action,
    Juggle,
    Pass,
    Peek,
    Pour,
    Rotate,
    Scheme,
    Spy,
    Swap,
    Transmute,
)
from models.goblets.characters import Character
from models.goblets.errors import (
    AbilityAlreadyUsed,
    BadChoice,
    NobleCannotPeek,
    NoSuchGoblet,
    NotAllowedNow,
    NotYourAbility,
    TokenNotBehindScreen,
)
from models.goblets.state import RUSSIAN, GameState, Step, StepKind, Unit
from models.goblets.tokens import Token, as_names


def _place(state: GameState, place: int | None) -> int:
    if place is None or not 1 <= place <= len(state.places):
        raise NoSuchGoblet(f"there is no goblet at place {place} (places 1-{len(state.places)})")
    return place


def _ability(state: GameState, unit: Unit, step: Step, character: Character) -> None:
    """The unit's active character must be ``character``, in a turn, not yet used this course."""
    if state.active_character(unit) is not character:
        raise NotYourAbility(f"only the {character.title} may do that")
    if step.kind != StepKind.TURN:
        raise NotAllowedNow(f"the {character.title}'s ability works only during your turn")
    if character.once_per_course and character in unit.used:
        raise AbilityAlreadyUsed(f"the {character.title}'s ability is once per course and was "
                                 f"already used this course")


def _is_noble(unit: Unit, seat: int) -> bool:
    return unit.winetaster is not None and seat == unit.noble


def check_move(state: GameState, step: Step, action: Action) -> None:
    """Raise a named error when ``action`` is not a legal turn/final action now."""
    _rule(action).check(state, step, action)


def make_move(state: GameState, step: Step, action: Action) -> list[Happening]:
    """Carry out a checked action and say what happened (secrets only in ``private``)."""
    return _rule(action).make(state, step, action)


# -- each action: its check, then what it does -------------------------------------------

def _check_pour(state: GameState, step: Step, action: Pour) -> None:
    unit = state.units[step.unit]
    _place(state, action.goblet)
    if len(action.tokens) == 2:
        _ability(state, unit, step, Character.BARTENDER)
    elif len(action.tokens) != 1:
        raise BadChoice("a Pour puts one token into a goblet (two: Bartender, once)")
    need = Counter(action.tokens)
    for token, n in need.items():
        if unit.screen[token] < n:
            raise TokenNotBehindScreen(
                f"seat {action.seat} has {unit.screen[token]} {token.value} behind the "
                f"screen, cannot pour {n}")


def _make_pour(state: GameState, step: Step, action: Pour) -> list[Happening]:
    unit = state.units[step.unit]
    goblet = state.places[action.goblet - 1]
    for token in action.tokens:
        unit.screen[token] -= 1
        goblet.tokens[token] += 1
        goblet.poured_by.append(action.seat)
    if len(action.tokens) == 2:
        unit.used.add(Character.BARTENDER)
    return [Happening("poured", {"seat": action.seat, "goblet": action.goblet,
                                 "count": len(action.tokens)}, seat=action.seat,
                      private={"tokens": [t.value for t in action.tokens]})]


def _check_peek(state: GameState, step: Step, action: Peek) -> None:
    unit = state.units[step.unit]
    if _is_noble(unit, action.seat):
        raise NobleCannotPeek("a Noble cannot Peek; their Winetaster does the tasting")
    if state.options.mode == RUSSIAN:
        if action.goblet is None:
            raise BadChoice("name the goblet to Peek into: no goblet is yours in "
                            "Russian Goblette")
        _place(state, action.goblet)
    elif (action.goblet is not None and _place(state, action.goblet) != unit.place
          and not (state.active_character(unit) is Character.SOMMELIER
                   and step.kind == StepKind.TURN)):
        raise NotYourAbility(f"you may only Peek into your own goblet (place "
                             f"{unit.place}); the Sommelier may look into any")


def _make_peek(state: GameState, step: Step, action: Peek) -> list[Happening]:
    unit = state.units[step.unit]
    place = action.goblet or unit.place
    seen = as_names(state.places[place - 1].tokens)
    state.seen.setdefault(action.seat, []).append(
        {"course": state.course, "what": "goblet", "goblet": place, "tokens": seen})
    return [Happening("peeked", {"seat": action.seat}, seat=action.seat,
                      private={"goblet": place, "tokens": seen})]


def _check_rotate(state: GameState, step: Step, action: Rotate) -> None:
    unit = state.units[step.unit]
    if state.options.mode == RUSSIAN:
        raise NotAllowedNow("you can't Rotate in Russian Goblette")
    if action.steps == 2:
        if state.active_character(unit) is not Character.BUTLER:
            raise NotYourAbility("only the Butler may Rotate two places")
        if step.kind != StepKind.TURN:
            raise NotAllowedNow("the Butler's two-place Rotate works only during your turn")
    elif action.steps != 1:
        raise BadChoice(f"a Rotate moves the goblets 1 place (2: Butler), not {action.steps}")


def _make_rotate(state: GameState, step: Step, action: Rotate) -> list[Happening]:
    places = state.places
    n = len(places)
    shift = action.steps if action.direction == "cw" else -action.steps
    state.places = [places[(i - shift) % n] for i in range(n)]
    return [Happening("rotated", {"seat": action.seat, "direction": action.direction,
                                  "steps": action.steps})]


def _check_swap(state: GameState, step: Step, action: Swap) -> None:
    unit = state.units[step.unit]
    if state.options.mode == RUSSIAN:
        if action.goblets is None:
            raise BadChoice("in Russian Goblette a Swap names two goblets: "
                            "{'goblets': [a, b]}")
        a, b = (_place(state, g) for g in action.goblets)
        if a == b:
            raise BadChoice("a Swap needs two different goblets")
    else:
        other = _swap_partner(unit, action)
        _place(state, other)
        if other == unit.place:
            raise BadChoice("you can't swap your goblet with itself")


def _make_swap(state: GameState, step: Step, action: Swap) -> list[Happening]:
    unit = state.units[step.unit]
    if state.options.mode != RUSSIAN:
        a, b = unit.place, _swap_partner(unit, action) or 0
    else:
        a, b = action.goblets  # type: ignore[misc]
    _exchange(state, a, b)
    return [Happening("swapped", {"seat": action.seat, "goblets": [a, b]})]


def _check_juggle(state: GameState, step: Step, action: Juggle) -> None:
    _ability(state, state.units[step.unit], step, Character.JUGGLER)
    _two_places(state, action.goblets)


def _make_juggle(state: GameState, step: Step, action: Juggle) -> list[Happening]:
    a, b = action.goblets
    _exchange(state, a, b)
    state.units[step.unit].used.add(Character.JUGGLER)
    return [Happening("juggled", {"seat": action.seat, "goblets": [a, b]})]


def _check_scheme(state: GameState, step: Step, action: Scheme) -> None:
    _ability(state, state.units[step.unit], step, Character.SCHEMER)
    _two_places(state, action.goblets)
    if state.places[0].coaster is None:
        raise NotAllowedNow("there are no coaster rings to swap in this game")


def _make_scheme(state: GameState, step: Step, action: Scheme) -> list[Happening]:
    places = state.places
    a, b = action.goblets
    places[a - 1].coaster, places[b - 1].coaster = places[b - 1].coaster, places[a - 1].coaster
    state.units[step.unit].used.add(Character.SCHEMER)
    return [Happening("schemed", {"seat": action.seat}, seat=action.seat,
                      private={"goblets": [a, b]})]


def _check_spy(state: GameState, step: Step, action: Spy) -> None:
    unit = state.units[step.unit]
    _ability(state, unit, step, Character.SPY)
    if action.target not in state.seats or action.target in unit.seats:
        raise BadChoice(f"the Spy looks behind another player's screen; seat {action.target}"
                        f" is not one")


def _make_spy(state: GameState, step: Step, action: Spy) -> list[Happening]:
    screen = as_names(state.unit_of(action.target).screen)
    state.units[step.unit].used.add(Character.SPY)
    state.seen.setdefault(action.seat, []).append(
        {"course": state.course, "what": "screen", "seat": action.target, "tokens": screen})
    return [Happening("spied", {"seat": action.seat, "target": action.target}, seat=action.seat,
                      private={"tokens": screen})]


#: the Alchemist's swap, written once: what each token is turned from
TRANSMUTED_FROM = {Token.ANTIDOTE: Token.POISON, Token.POISON: Token.ANTIDOTE}


def _check_transmute(state: GameState, step: Step, action: Transmute) -> None:
    unit = state.units[step.unit]
    _ability(state, unit, step, Character.ALCHEMIST)
    source = TRANSMUTED_FROM.get(action.into)
    if source is None:
        raise BadChoice("the Alchemist turns a Poison into an Antidote or an Antidote "
                        "into a Poison")
    if unit.screen[source] < 1:
        raise TokenNotBehindScreen(f"no {source.value} behind your screen to turn")
    if state.pool[action.into] < 1:
        raise NotAllowedNow(f"the pool has no {action.into.value} left to turn into")


def _make_transmute(state: GameState, step: Step, action: Transmute) -> list[Happening]:
    unit = state.units[step.unit]
    source = TRANSMUTED_FROM[action.into]
    unit.screen[source] -= 1
    state.pool[source] += 1
    state.pool[action.into] -= 1
    unit.screen[action.into] += 1
    unit.used.add(Character.ALCHEMIST)
    return [Happening("transmuted", {"seat": action.seat}, seat=action.seat,
                      private={"into": action.into.value})]


def _check_pass(state: GameState, step: Step, action: Pass) -> None:
    return None


def _make_pass(state: GameState, step: Step, action: Pass) -> list[Happening]:
    return [Happening("passed", {"seat": action.seat})]


A = TypeVar("A", bound=Action)


@dataclass(frozen=True)
class _Rule(Generic[A]):
    """One action's check and what it does."""

    check: Callable[[GameState, Step, A], None]
    make: Callable[[GameState, Step, A], list[Happening]]


#: the one dispatch: each turn action to its rule
RULES: dict[type[Action], _Rule[Any]] = {
    Pour: _Rule(_check_pour, _make_pour),
    Peek: _Rule(_check_peek, _make_peek),
    Rotate: _Rule(_check_rotate, _make_rotate),
    Swap: _Rule(_check_swap, _make_swap),
    Juggle: _Rule(_check_juggle, _make_juggle),
    Scheme: _Rule(_check_scheme, _make_scheme),
    Spy: _Rule(_check_spy, _make_spy),
    Transmute: _Rule(_check_transmute, _make_transmute),
    Pass: _Rule(_check_pass, _make_pass),
}


def _rule(action: Action) -> _Rule[Any]:
    rule = RULES.get(type(action))
    if rule is None:
        raise NotAllowedNow(f"{type(action).__name__} is not an action for this step")
    return rule


def _swap_partner(unit: Unit, action: Swap) -> int | None:
    if action.goblets is not None:
        if unit.place not in action.goblets:
            raise NotAllowedNow("a Swap exchanges your own goblet with another; the Juggler "
                                "swaps any two")
        a, b = action.goblets
        return b if a == unit.place else a
    return action.goblet


def _two_places(state: GameState, goblets: tuple[int, int]) -> None:
    a, b = (_place(state, g) for g in goblets)
    if a == b:
        raise BadChoice("name two different goblets")


def _exchange(state: GameState, a: int, b: int) -> None:
    places = state.places
    places[a - 1], places[b - 1] = places[b - 1], places[a - 1]
