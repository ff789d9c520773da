"""The Toast: final actions, [Drink] abilities, the reveal, scoring and the course's end."""

from __future__ import annotations

import random
from collections import Counter

from models.base import Happening
from models.goblets.actions import Gamble, Plot, Taste
from models.goblets.characters import Character
from models.goblets.errors import BadChoice
from models.goblets.scoring import Drinker, course_points, winetaster_points
from models.goblets.state import COURSES, WINETASTERS, GameState, Step, StepKind, Unit
from models.goblets.tokens import Token, as_names, survives


def units_from_left_of(state: GameState, seat: int) -> list[Unit]:
    """Every unit clockwise, starting left of ``seat``'s unit and ending with it."""
    start = state.unit_of(seat).index
    n = len(state.units)
    return [state.units[(start + 1 + k) % n] for k in range(n)]


def final_steps(state: GameState, caller: int) -> list[Step]:
    """Final actions from the caller's left, the caller last; a Toastmaster acts twice, a
    Chaperone after the caller as the very last; a Winetaster's free Peek comes first."""
    order = units_from_left_of(state, caller)
    chaperone = [u for u in order if state.active_character(u) is Character.CHAPERONE
                 and caller not in u.seats]
    order = [u for u in order if u not in chaperone] + chaperone
    steps: list[Step] = []
    for unit in order:
        if unit.winetaster is not None:
            steps.append(Step(StepKind.FREE_PEEK, unit.winetaster, unit.index))
        times = 2 if state.active_character(unit) is Character.TOASTMASTER else 1
        steps.extend(Step(StepKind.FINAL, unit.noble, unit.index) for _ in range(times))
    return steps


def drink_steps(state: GameState) -> list[Step]:
    """[Drink] choices from the caller's left: the Taster and the Gambler decide."""
    steps = []
    for unit in units_from_left_of(state, state.caller or 1):
        ch = state.active_character(unit)
        if ch is Character.TASTER:
            steps.append(Step(StepKind.TASTE, unit.noble, unit.index))
        elif ch is Character.GAMBLER:
            steps.append(Step(StepKind.GAMBLE, unit.noble, unit.index))
    return steps


def check_choice(state: GameState, step: Step, action: Plot | Taste | Gamble) -> None:
    unit = state.units[step.unit]
    if isinstance(action, Taste):
        if state.places[unit.index].tokens[action.token] < 1:
            raise BadChoice(f"your goblet holds no {action.token.value} to return")
    elif isinstance(action, Plot):
        if action.target not in state.seats or action.target in unit.seats:
            raise BadChoice(f"seat {action.target} is not another player")
        other = state.unit_of(action.target)
        if other.target is unit.house:
            raise BadChoice("the Plotter never takes their own house as target")
        if unit.target is other.house:
            raise BadChoice(f"seat {action.target} would get their own house as target")


def make_choice(state: GameState, rng: random.Random, step: Step,
                action: Plot | Taste | Gamble) -> list[Happening]:
    unit = state.units[step.unit]
    if isinstance(action, Taste):
        goblet = state.places[unit.index]
        goblet.tokens[action.token] -= 1
        state.pool[action.token] += 1
        return [Happening("tasted", {"seat": action.seat}, seat=action.seat,
                          private={"returned": action.token.value,
                                   "tokens": as_names(goblet.tokens)})]
    if isinstance(action, Plot):
        other = state.unit_of(action.target)
        unit.target, other.target = other.target, unit.target
        return [Happening("plotted", {"seat": action.seat, "with": action.target,
                                      "targets": {unit.noble: _name(unit),
                                                  other.noble: _name(other)}})]
    others = [i for i in range(len(state.places)) if i != unit.index]
    pick = rng.choice(others)
    places = state.places
    places[unit.index], places[pick] = places[pick], places[unit.index]
    return [Happening("gambled", {"seat": action.seat, "goblets": [unit.place, pick + 1]})]


def _name(unit: Unit) -> str | None:
    return unit.target.value if unit.target else None


def reveal_and_score(state: GameState) -> list[Happening]:
    """Each unit drinks the goblet in front of it; then the course is scored."""
    out: list[Happening] = []
    drinkers: list[Drinker] = []
    for unit in units_from_left_of(state, state.caller or 1):
        goblet = state.places[unit.index]
        ch = state.active_character(unit)
        alive = survives(goblet.tokens, hypochondriac=ch is Character.HYPOCHONDRIAC)
        wine = goblet.tokens[Token.WINE]
        drinkers.append(Drinker(unit.noble, unit.house, unit.target, ch, alive, wine))
        out.append(Happening("drank", {
            "seat": unit.noble, "goblet": unit.place, "tokens": as_names(goblet.tokens),
            "coaster": goblet.coaster.value if goblet.coaster else None,
            "survived": alive, "poisoned": not alive, "wine": wine}))
    points = course_points(drinkers)
    survived = {d.seat: d.survived for d in drinkers}
    for unit in state.units:
        if unit.winetaster is not None and unit.loyalty is not None:
            points[unit.winetaster] = winetaster_points(unit.loyalty, points[unit.noble],
                                                         survived[unit.noble])
    for seat in sorted(points):
        state.vp[seat] = state.vp.get(seat, 0) + points[seat]
        out.append(Happening("scored", {"seat": seat}, seat=seat,
                             private={"vp": points[seat], "total": state.vp[seat]}))
    state.history.append({"course": state.course, "caller": state.caller,
                          "survived": survived, "points": points})
    return out


def clear_table(state: GameState, rng: random.Random) -> list[Happening]:
    """The course ends: Legacy redraws, then every token goes back to the pool."""
    out: list[Happening] = []
    if (state.options.legacy and state.options.with_characters and state.history
            and state.course < COURSES):
        from models.goblets.setup import draw_character

        for seat, alive in state.history[-1]["survived"].items():
            if not alive:
                new = draw_character(state, rng, seat)
                if state.options.mode == WINETASTERS:
                    # roles turn over next course: the card may be face down, so only its owner sees it
                    out.append(Happening("new_character", {"seat": seat}, seat=seat,
                                         private={"character": new.title}))
                else:
                    out.append(Happening("new_character", {"seat": seat, "character": new.title}))
    back: Counter[Token] = Counter()
    for unit in state.units:
        back.update(unit.screen)
        unit.screen = Counter()
    for goblet in state.places:
        back.update(goblet.tokens)
        goblet.tokens = Counter()
    state.pool.update(back)
    state.pool = +state.pool
    out.append(Happening("course_over", {"course": state.course, "caller": state.caller}))
    return out
