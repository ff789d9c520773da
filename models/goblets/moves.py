"""The actions of a turn and of the toast phase: Pour, Peek, Rotate, Swap and the [Turn]
abilities (Juggler, Schemer, Spy, Alchemist, Bartender, Butler, Sommelier).

``check_move`` raises a named error and changes nothing; ``make_move`` changes the state
and says what happened. The engine calls one after the other.
"""

from __future__ import annotations

from collections import Counter

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
from models.goblets.state import RUSSIAN, GameState, Step, Unit
from models.goblets.tokens import Token, as_names


def _place(state: GameState, place: int | None) -> int:
    if place is None or not 1 <= place <= len(state.places):
        raise NoSuchGoblet(f"there is no goblet at place {place} (places 1-{len(state.places)})")
    return place


def _ability(state: GameState, unit: Unit, step: Step, character: Character) -> None:
    """The unit's active character must be ``character``, in a turn, not yet used this course."""
    if state.active_character(unit) is not character:
        raise NotYourAbility(f"only the {character.title} may do that")
    if step.kind != "turn":
        raise NotAllowedNow(f"the {character.title}'s ability works only during your turn")
    if character.once_per_course and character in unit.used:
        raise AbilityAlreadyUsed(f"the {character.title}'s ability is once per course and was "
                                 f"already used this course")


def _is_noble(unit: Unit, seat: int) -> bool:
    return unit.winetaster is not None and seat == unit.noble


def check_move(state: GameState, step: Step, action: Action) -> None:
    """Raise a named error when ``action`` is not a legal turn/final action now."""
    unit = state.units[step.unit]
    russian = state.options.mode == RUSSIAN
    if isinstance(action, Pour):
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
    elif isinstance(action, Peek):
        if _is_noble(unit, action.seat):
            raise NobleCannotPeek("a Noble cannot Peek; their Winetaster does the tasting")
        if russian:
            if action.goblet is None:
                raise BadChoice("name the goblet to Peek into: no goblet is yours in "
                                "Russian Goblette")
            _place(state, action.goblet)
        elif (action.goblet is not None and _place(state, action.goblet) != unit.place
              and not (state.active_character(unit) is Character.SOMMELIER
                       and step.kind == "turn")):
            raise NotYourAbility(f"you may only Peek into your own goblet (place "
                                 f"{unit.place}); the Sommelier may look into any")
    elif isinstance(action, Rotate):
        if russian:
            raise NotAllowedNow("you can't Rotate in Russian Goblette")
        if action.steps == 2:
            if state.active_character(unit) is not Character.BUTLER:
                raise NotYourAbility("only the Butler may Rotate two places")
            if step.kind != "turn":
                raise NotAllowedNow("the Butler's two-place Rotate works only during your turn")
        elif action.steps != 1:
            raise BadChoice(f"a Rotate moves the goblets 1 place (2: Butler), not {action.steps}")
    elif isinstance(action, Swap):
        if russian:
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
    elif isinstance(action, Juggle):
        _ability(state, unit, step, Character.JUGGLER)
        _two_places(state, action.goblets)
    elif isinstance(action, Scheme):
        _ability(state, unit, step, Character.SCHEMER)
        _two_places(state, action.goblets)
        if state.places[0].coaster is None:
            raise NotAllowedNow("there are no coaster rings to swap in this game")
    elif isinstance(action, Spy):
        _ability(state, unit, step, Character.SPY)
        if action.target not in state.seats or action.target in unit.seats:
            raise BadChoice(f"the Spy looks behind another player's screen; seat {action.target}"
                            f" is not one")
    elif isinstance(action, Transmute):
        _ability(state, unit, step, Character.ALCHEMIST)
        source = {Token.ANTIDOTE: Token.POISON, Token.POISON: Token.ANTIDOTE}.get(action.into)
        if source is None:
            raise BadChoice("the Alchemist turns a Poison into an Antidote or an Antidote "
                            "into a Poison")
        if unit.screen[source] < 1:
            raise TokenNotBehindScreen(f"no {source.value} behind your screen to turn")
        if state.pool[action.into] < 1:
            raise NotAllowedNow(f"the pool has no {action.into.value} left to turn into")
    elif not isinstance(action, Pass):
        raise NotAllowedNow(f"{type(action).__name__} is not an action for this step")


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


def make_move(state: GameState, step: Step, action: Action) -> list[Happening]:
    """Carry out a checked action and say what happened (secrets only in ``private``)."""
    unit = state.units[step.unit]
    seat = action.seat
    places = state.places
    if isinstance(action, Pour):
        goblet = places[action.goblet - 1]
        for token in action.tokens:
            unit.screen[token] -= 1
            goblet.tokens[token] += 1
            goblet.poured_by.append(seat)
        if len(action.tokens) == 2:
            unit.used.add(Character.BARTENDER)
        return [Happening("poured", {"seat": seat, "goblet": action.goblet,
                                     "count": len(action.tokens)}, seat=seat,
                          private={"tokens": [t.value for t in action.tokens]})]
    if isinstance(action, Peek):
        place = action.goblet or unit.place
        seen = as_names(places[place - 1].tokens)
        state.seen.setdefault(seat, []).append(
            {"course": state.course, "what": "goblet", "goblet": place, "tokens": seen})
        return [Happening("peeked", {"seat": seat}, seat=seat,
                          private={"goblet": place, "tokens": seen})]
    if isinstance(action, Rotate):
        n = len(places)
        shift = action.steps if action.direction == "cw" else -action.steps
        state.places = [places[(i - shift) % n] for i in range(n)]
        return [Happening("rotated", {"seat": seat, "direction": action.direction,
                                      "steps": action.steps})]
    if isinstance(action, (Swap, Juggle)):
        if isinstance(action, Swap) and state.options.mode != RUSSIAN:
            a, b = unit.place, _swap_partner(unit, action) or 0
        else:
            a, b = action.goblets  # type: ignore[misc]
        places[a - 1], places[b - 1] = places[b - 1], places[a - 1]
        if isinstance(action, Juggle):
            unit.used.add(Character.JUGGLER)
            return [Happening("juggled", {"seat": seat, "goblets": [a, b]})]
        return [Happening("swapped", {"seat": seat, "goblets": [a, b]})]
    if isinstance(action, Scheme):
        a, b = action.goblets
        places[a - 1].coaster, places[b - 1].coaster = places[b - 1].coaster, places[a - 1].coaster
        unit.used.add(Character.SCHEMER)
        return [Happening("schemed", {"seat": seat}, seat=seat, private={"goblets": [a, b]})]
    if isinstance(action, Spy):
        screen = as_names(state.unit_of(action.target).screen)
        unit.used.add(Character.SPY)
        state.seen.setdefault(seat, []).append(
            {"course": state.course, "what": "screen", "seat": action.target, "tokens": screen})
        return [Happening("spied", {"seat": seat, "target": action.target}, seat=seat,
                          private={"tokens": screen})]
    if isinstance(action, Transmute):
        source = Token.POISON if action.into is Token.ANTIDOTE else Token.ANTIDOTE
        unit.screen[source] -= 1
        state.pool[source] += 1
        state.pool[action.into] -= 1
        unit.screen[action.into] += 1
        unit.used.add(Character.ALCHEMIST)
        return [Happening("transmuted", {"seat": seat}, seat=seat,
                          private={"into": action.into.value})]
    return [Happening("passed", {"seat": seat})]
