"""Setting the table: characters to stations, the deck, the first revealer.

Player counts (rules page): 4 (FR JP MX RU; the six walking-man cards removed:
24 cards), 5 (one character withdrawn at random; 30 cards), 6 (all; 30 cards),
7 (six characters + one tourist drawn at random), 8 (six + both tourists).
With the "events" variant the six event cards are shuffled into the deck.
All randomness comes from the injected ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from models.base import IllegalAction
from models.tchin_tchin.cards import CARDS, CHARACTERS, DRINK_CARDS, EVENT_CARDS, TOURISTS

MIN_PLAYERS = 4
MAX_PLAYERS = 8


class SetupError(IllegalAction):
    """A table the game cannot start from (wrong player count, unknown card, ...)."""


@dataclass(frozen=True)
class Table:
    """A dealt table: who plays what at which station, the deck (top first) and the first revealer."""

    characters: Mapping[int, str]
    deck: tuple[str, ...]
    first: int

    @property
    def seats(self) -> tuple[int, ...]:
        """Stations in seat order (clockwise = station order)."""
        return tuple(sorted(self.characters))


#: the characters a 4-player table plays (the German and English ones are removed with the
#: walking-man cards)
FOUR_PLAYERS = ("FR", "JP", "MX", "RU")


def codes_for(players: int, rng: random.Random) -> list[str]:
    """The character and tourist codes in play for a player count (not yet dealt)."""
    _check_count(players)
    if players == 4:
        return list(FOUR_PLAYERS)
    codes = list(CHARACTERS)
    if players == 5:
        codes.remove(rng.choice(codes))
    elif players == 7:
        codes.append(rng.choice(sorted(TOURISTS)))
    elif players == 8:
        codes.extend(sorted(TOURISTS))
    return codes


def deck_for(players: int, events: bool, rng: random.Random) -> list[str]:
    """The shuffled deck: 30 drink cards (24 without the walking-man cards at 4 players), + events."""
    _check_count(players)
    ids = [cid for cid, c in DRINK_CARDS.items() if not (players == 4 and c.walking_man)]
    if events:
        ids.extend(EVENT_CARDS)
    rng.shuffle(ids)
    return ids


def deal_characters(stations: Sequence[int], players: int, rng: random.Random) -> dict[int, str]:
    """Shuffle the codes in play and give one to each station."""
    if len(stations) != players:
        raise SetupError(f"{players} players need {players} stations, got {len(stations)}")
    codes = codes_for(players, rng)
    rng.shuffle(codes)
    return dict(zip(sorted(stations), codes))


def deal(
    players: int,
    rng: random.Random,
    *,
    events: bool = False,
    stations: Sequence[int] | None = None,
    characters: Mapping[int, str] | None = None,
    deck: Sequence[str] | None = None,
    first: int | None = None,
) -> Table:
    """A full table; any of ``characters``, ``deck``, ``first`` given is used as is (after checks).

    Draw order from ``rng`` (so a seed always deals the same table): characters, deck, first.
    """
    _check_count(players)
    if characters is None:
        seats = list(stations) if stations is not None else list(range(1, players + 1))
        characters = deal_characters(seats, players, rng)
    else:
        characters = check_characters(characters, players)
    if deck is None:
        deck = deck_for(players, events, rng)
    else:
        deck = check_deck(deck)
    seats = sorted(characters)
    if first is None:
        first = rng.choice(seats)
    elif first not in characters:
        raise SetupError(f"the first revealer {first} has no seat (seated: {seats})")
    return Table(dict(characters), tuple(deck), first)


def check_characters(characters: Mapping[int, str], players: int) -> dict[int, str]:
    """Check a picked table: known, distinct codes, one per player, and the player count's
    characters (rules page): FR JP MX RU at 4, five of the six at 5, all six at 6 to 8 (with
    one tourist at 7, both at 8)."""
    if len(characters) != players:
        raise SetupError(f"{players} players but {len(characters)} characters given")
    out: dict[int, str] = {}
    for station, code in characters.items():
        if not isinstance(station, int) or station < 1:
            raise SetupError(f"station {station!r} is not a station number")
        if code not in CHARACTERS and code not in TOURISTS:
            raise SetupError(f"station {station}: unknown character {code!r} "
                             f"(known: {', '.join([*CHARACTERS, *TOURISTS])})")
        if code in out.values():
            raise SetupError(f"character {code} is dealt twice")
        if code in TOURISTS and players < 7:
            raise SetupError(f"station {station}: tourists play only with 7 or 8 players")
        out[station] = code
    codes = set(out.values())
    if players == 4 and codes != set(FOUR_PLAYERS):
        extra = sorted(codes - set(FOUR_PLAYERS))
        raise SetupError(f"a 4-player table plays {' '.join(FOUR_PLAYERS)}, not {' '.join(extra)}")
    missing = [c for c in CHARACTERS if c not in codes]
    if players >= 6 and missing:
        raise SetupError(f"a {players}-player table plays all six characters; "
                         f"{' '.join(missing)} missing")
    return out


def check_deck(deck: Sequence[str]) -> list[str]:
    """Check a scripted deck: known card ids, each at most once (a short deck is fine)."""
    seen: set[str] = set()
    for cid in deck:
        if cid not in CARDS:
            raise SetupError(f"unknown card {cid!r} in the deck (known: W1-W6, D01-D24, "
                             "R1 R2 S1 S2 M1 M2)")
        if cid in seen:
            raise SetupError(f"card {cid} is in the deck twice")
        seen.add(cid)
    return list(deck)


def _check_count(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"Tchin Tchin is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
