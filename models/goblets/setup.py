"""Setting the table and the Appetizers: seating, screens, goblets, targets, characters.

Every draw comes from the injected ``random.Random`` or from the header's fixed deal, so
a seed (or a scripted deal) reproduces a game exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

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
    Step,
    Unit,
)
from models.goblets.tokens import SCREEN_START, Token, goblet_setup

WINETASTER_CARDS = ("loyal",) * 5 + ("traitor",)


class SetupError(ValueError):
    """A header or fixed deal the game cannot start from; the message names the bad field."""


@dataclass(frozen=True)
class FixedDeal:
    """What a header may fix instead of leaving it to chance (course 1 unless keyed by course).

    ``goblets``: course -> one token per place; ``targets``: course -> seat -> house;
    ``loyalty``: course -> seat -> card; ``characters``: seat -> character; ``tie_break``.
    """

    characters: dict[int, Character] = field(default_factory=dict)
    targets: dict[int, dict[int, House]] = field(default_factory=dict)
    goblets: dict[int, list[Token]] = field(default_factory=dict)
    loyalty: dict[int, dict[int, str]] = field(default_factory=dict)
    tie_break: list[Token] | None = None


def _seat(raw: Any, players: int, what: str) -> int:
    try:
        seat = int(raw)
    except (TypeError, ValueError):
        raise SetupError(f"{what}: {raw!r} is not a seat number") from None
    if not 1 <= seat <= players:
        raise SetupError(f"{what}: seat {seat} is not at this table (seats 1-{players})")
    return seat


def _by_course(raw: Any) -> dict[int, Any]:
    """A per-course mapping ``{"1": ..., "2": ...}``, or a bare deal meaning course 1."""
    if not raw:
        return {}
    if isinstance(raw, dict) and all(isinstance(v, (dict, list)) for v in raw.values()):
        try:
            return {int(k): v for k, v in raw.items()}
        except ValueError:
            raise SetupError(f"per-course deals are keyed by course number, got {list(raw)}") \
                from None
    return {1: raw}


def options_from_header(header: dict[str, Any]) -> tuple[Options, FixedDeal, int]:
    """Options, fixed deal and host from a replay header; :class:`SetupError` names what is wrong."""
    players = header.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 12:
        raise SetupError(f"players must be a whole number from 2 to 12, got {players!r}")
    opts = header.get("options") or {}
    if not isinstance(opts, dict):
        raise SetupError(f"options must be an object, got {opts!r}")
    variants = opts.get("variants", [])
    if not isinstance(variants, list):
        raise SetupError(f"options.variants must be a list, got {variants!r}")
    known = {"memory", "legacy", "russian", "winetasters"}
    for v in variants:
        if v not in known:
            raise SetupError(f"unknown variant {v!r} (known: {', '.join(sorted(known))})")
    options = Options(players, memory="memory" in variants, legacy="legacy" in variants,
                      characters=bool(opts.get("characters", True)))
    if "russian" in variants and options.mode != RUSSIAN:
        raise SetupError(f"Russian Goblette is for 2-3 players, not {players}")
    if "winetasters" in variants and options.mode != WINETASTERS:
        raise SetupError(f"Winetasters is for 7-12 players, not {players}")
    host = _seat(header.get("host", 1), players, "host")
    return options, _fixed(header, options), host


def _fixed(header: dict[str, Any], options: Options) -> FixedDeal:
    n = options.players
    chars: dict[int, Character] = {}
    for seat, name in (header.get("characters") or {}).items():
        try:
            ch = Character.parse(name)
        except ValueError as exc:
            raise SetupError(f"characters: {exc}") from None
        if ch in chars.values():
            raise SetupError(f"characters: {ch.title} is dealt twice (one card of each)")
        chars[_seat(seat, n, "characters")] = ch
    targets: dict[int, dict[int, House]] = {}
    for course, deal in _by_course(header.get("targets") or {}).items():
        try:
            targets[course] = {_seat(s, n, "targets"): House.parse(h) for s, h in deal.items()}
        except (ValueError, AttributeError) as exc:
            raise SetupError(f"targets: {exc}") from None
    goblets: dict[int, list[Token]] = {}
    raw_goblets = header.get("goblets")
    if raw_goblets:
        for course, pours in _by_course(raw_goblets).items():
            try:
                goblets[course] = [Token.parse(t) for t in pours]
            except (ValueError, TypeError) as exc:
                raise SetupError(f"goblets: {exc}") from None
    loyalty: dict[int, dict[int, str]] = {}
    for course, deal in _by_course(header.get("loyalty") or {}).items():
        for card in deal.values():
            if card not in ("loyal", "traitor"):
                raise SetupError(f"loyalty: {card!r} is not a Winetaster card (loyal or traitor)")
        loyalty[course] = {_seat(s, n, "loyalty"): c for s, c in deal.items()}
    tie = header.get("tie_break")
    try:
        tie_tokens = [Token.parse(t) for t in tie] if tie else None
    except (ValueError, TypeError) as exc:
        raise SetupError(f"tie_break: {exc}") from None
    return FixedDeal(chars, targets, goblets, loyalty, tie_tokens)


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
    state.discard.append(state.characters[seat])
    if not state.deck:
        state.deck, state.discard = state.discard, []
        rng.shuffle(state.deck)
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
    state.units = [Unit(i, HOUSES[i], noble, taster)
                   for i, (noble, taster) in enumerate(seating(opts, state.course))]
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
    state.phase = "course"
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
            steps.append(Step("plot", unit.noble, unit.index))
    return steps


__all__ = [
    "BANQUET",
    "FixedDeal",
    "SetupError",
    "begin_course",
    "deal_characters",
    "draw_character",
    "options_from_header",
    "seating",
]
