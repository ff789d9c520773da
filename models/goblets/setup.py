"""Setting the table and the Appetizers: seating, screens, goblets, targets, characters.

Every draw comes from the injected ``random.Random`` or from the fixed deal, so
a seed (or a scripted deal) reproduces a game exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from models.base import Happening
from models.goblets.characters import DECK, Character
from models.goblets.houses import HOUSES, House
from models.goblets.state import (
    BANQUET,
    RUSSIAN,
    RUSSIAN_GOBLETS,
    WINETASTERS,
    GameState,
    Goblet,
    Options,
    Phase,
    Step,
    StepKind,
    Unit,
)
from models.goblets.tokens import SCREEN_START, Token, goblet_setup

WINETASTER_CARDS = ("loyal",) * 5 + ("traitor",)


class SetupError(ValueError):
    """A set-up or fixed deal the game cannot start from; the message names the bad field."""


@dataclass(frozen=True)
class FixedDeal:
    """What a set-up may fix instead of leaving it to chance (course 1 unless keyed by course).

    ``goblets``: course -> one token per place; ``targets``: course -> seat -> house;
    ``loyalty``: course -> seat -> card; ``characters``: seat -> character; ``tie_break``.
    """

    characters: dict[int, Character] = field(default_factory=dict)
    targets: dict[int, dict[int, House]] = field(default_factory=dict)
    goblets: dict[int, list[Token]] = field(default_factory=dict)
    loyalty: dict[int, dict[int, str]] = field(default_factory=dict)
    tie_break: list[Token] | None = None


def seating(options: Options, course: int) -> list[tuple[int, int | None]]:
    """(drinking seat, Winetaster seat or None) per unit, clockwise, for ``course``.

    With Winetasters the pairs shift one seat each course: each Noble becomes the Winetaster
    of the player to their left, and the odd "extra" player moves round with them.

    >>> seating(Options(7), 1)
    [(2, 1), (4, 3), (6, 5), (7, None)]
    >>> seating(Options(7), 2)
    [(3, 2), (5, 4), (7, 6), (1, None)]
    """
    n = options.players
    if options.mode != WINETASTERS:
        return [(s, None) for s in range(1, n + 1)]
    shift = course - 1
    units: list[tuple[int, int | None]] = []
    for i in range(n // 2):
        taster = (shift + 2 * i) % n + 1
        units.append((taster % n + 1, taster))
    if n % 2:
        units.append(((shift + n - 1) % n + 1, None))
    return units


def houses(options: Options, course: int) -> list[House]:
    """Each unit's house for ``course``, in :func:`seating`'s order.

    The houses stay at fixed table positions (rules page): position k is where course 1's
    unit k sits. With Winetasters a re-formed pair plays the house of the position its
    Winetaster's seat holds (each course's Winetasters sit two seats apart, so no two share
    one), and the extra player the house left over; in course 3 with an even count the pairs
    are course 1's again, and so are their houses.

    >>> [h.value for h in houses(Options(8), 3)]
    ['McToadery', 'Aconitiers', 'Wespendorf', 'De Miceti']
    """
    units = seating(options, course)
    if options.mode != WINETASTERS:
        return list(HOUSES[: len(units)])
    position = {seat: k for k, (noble, taster) in enumerate(seating(options, 1))
                for seat in (noble, taster) if seat is not None}
    taken = [position[taster] if taster is not None else None for _, taster in units]
    left = [k for k in range(len(units)) if k not in taken]
    return [HOUSES[k if k is not None else left.pop(0)] for k in taken]


def deal_characters(state: GameState, rng: random.Random, fixed: FixedDeal) -> None:
    """Shuffle the 21 cards and deal one to every seat (fixed cards first)."""
    if not state.options.with_characters:
        return
    deck = [c for c in DECK if c not in fixed.characters.values()]
    rng.shuffle(deck)
    for seat in state.seats:
        state.characters[seat] = fixed.characters.get(seat) or deck.pop()
    state.deck = deck


def draw_character(state: GameState, rng: random.Random, seat: int) -> Character:
    """Legacy: discard the seat's character and draw a new one (the discards are reshuffled
    into the deck when it runs out)."""
    old = state.characters[seat]
    if not state.deck:  # the card just given up stays out: a new character is another one
        state.deck, state.discard = state.discard, []
        rng.shuffle(state.deck)
    state.discard.append(old)
    state.characters[seat] = state.deck.pop()
    return state.characters[seat]


def _take(state: GameState, tokens: Counter[Token]) -> Counter[Token]:
    """Take what the pool has of ``tokens`` (never more: tokens are conserved)."""
    got = Counter({t: min(n, state.pool[t]) for t, n in tokens.items()})
    state.pool.subtract(got)
    return +got


def begin_course(state: GameState, rng: random.Random, fixed: FixedDeal) -> list[Happening]:
    """Appetizers: seat the units, fill screens, pour the goblets, deal targets, run [Course]."""
    state.course += 1
    opts = state.options
    russian = opts.mode == RUSSIAN
    state.units = [Unit(i, house, noble, taster) for i, ((noble, taster), house)
                   in enumerate(zip(seating(opts, state.course), houses(opts, state.course)))]
    goblet_count = RUSSIAN_GOBLETS if russian else len(state.units)
    coasters = not (russian or opts.memory)
    state.places = [Goblet(state.units[i].house if coasters else None)
                    for i in range(goblet_count)]
    for unit in state.units:
        unit.screen = _take(state, Counter(SCREEN_START))
    _pour_goblets(state, rng, fixed)
    state.caller = None
    state.spent = set()
    happenings: list[Happening] = []
    if not russian:
        _deal_targets(state, rng, fixed)
    if opts.mode == WINETASTERS:
        _deal_winetaster_cards(state, rng, fixed)
    plots = _course_abilities(state)
    state.phase = Phase.COURSE
    state.queue = plots
    happenings.append(Happening("course", {
        "course": state.course, "host": state.host,
        "units": [{"house": u.house.value, "seats": list(u.seats), "place": u.place}
                  for u in state.units],
        "targets": {u.noble: u.target.value for u in state.units if u.target is not None},
    }))
    for unit in state.units:
        if unit.loyalty is not None and unit.winetaster is not None:
            happenings.append(Happening("winetaster_card", {"seat": unit.winetaster},
                                        seat=unit.winetaster, private={"card": unit.loyalty}))
    for unit in state.units:
        for seat in unit.seats:
            happenings.append(Happening("screen", {"seat": seat}, seat=seat,
                                        private={"tokens": {t.value: n for t, n in
                                                            unit.screen.items() if n}}))
    return happenings


def _pour_goblets(state: GameState, rng: random.Random, fixed: FixedDeal) -> None:
    count = len(state.places)
    needed = goblet_setup(count)
    pours = fixed.goblets.get(state.course)
    if pours is None:
        pours = sorted(needed.elements(), key=lambda t: t.value)
        rng.shuffle(pours)
    elif Counter(pours) != needed or len(pours) != count:
        want = ", ".join(f"{n} {t.value}" for t, n in needed.items())
        raise SetupError(f"goblets for course {state.course}: one token per goblet, "
                         f"{want}; got {[t.value for t in pours]}")
    state.pool.subtract(needed)
    for goblet, token in zip(state.places, pours):
        goblet.tokens[token] += 1


def _deal_targets(state: GameState, rng: random.Random, fixed: FixedDeal) -> None:
    """The Host deals the target cards (at random, or as the header fixes the deal); from the
    Host clockwise, a player who drew their own house swaps with the player to their left."""
    units = state.units
    given = fixed.targets.get(state.course)
    if given is not None:
        for unit in units:
            house = given.get(unit.noble) or next(
                (given[s] for s in unit.seats if s in given), None)
            if house is None:
                raise SetupError(f"targets: no target given for seat {unit.noble}")
            unit.target = house
        if sorted(u.target.value for u in units if u.target) != \
                sorted(u.house.value for u in units):
            raise SetupError("targets: each house in play must be dealt exactly once")
    else:
        cards = [u.house for u in units]
        rng.shuffle(cards)
        for unit, card in zip(units, cards):
            unit.target = card
    start = state.unit_of(state.host).index
    for k in range(len(units)):
        unit = units[(start + k) % len(units)]
        if unit.target is unit.house:
            left = units[(unit.index + 1) % len(units)]
            unit.target, left.target = left.target, unit.target


def _deal_winetaster_cards(state: GameState, rng: random.Random, fixed: FixedDeal) -> None:
    """One of the 6 cards (5 Loyal, 1 Traitor) to each Winetaster; a header may fix some,
    and the rest come at random from the cards left, so a table never holds two Traitors."""
    given = {s: c for s, c in fixed.loyalty.get(state.course, {}).items()
             if any(u.winetaster == s for u in state.units)}
    cards = list(WINETASTER_CARDS)
    for card in given.values():
        if card not in cards:
            raise SetupError(f"loyalty for course {state.course}: there are only 5 Loyal and "
                             f"1 Traitor cards")
        cards.remove(card)
    rng.shuffle(cards)
    for unit in state.units:
        if unit.winetaster is not None:
            unit.loyalty = given.get(unit.winetaster) or cards.pop()


def _course_abilities(state: GameState) -> list[Step]:
    """From the Host clockwise: take the Ogre Poison, the Unicorn Antidote, the Hoarder's Wine;
    a Plotter gets a choice step."""
    steps: list[Step] = []
    start = state.unit_of(state.host).index
    n = len(state.units)
    for k in range(n):
        unit = state.units[(start + k) % n]
        unit.used = set()
        ch = state.active_character(unit)
        if ch is Character.OGRE_COOK:
            unit.screen += _take(state, Counter({Token.OGRE: 1}))
        elif ch is Character.UNICORN_KEEPER:
            unit.screen += _take(state, Counter({Token.UNICORN: 1}))
        elif ch is Character.HOARDER:
            unit.screen += _take(state, Counter({Token.WINE: 1}))
        elif ch is Character.PLOTTER:
            steps.append(Step(StepKind.PLOT, unit.noble, unit.index))
    return steps


__all__ = [
    "BANQUET",
    "FixedDeal",
    "SetupError",
    "begin_course",
    "deal_characters",
    "draw_character",
    "seating",
]
