"""Teams, seats, goals and the deal of a Cheers game.

The seed's team splits: 3 = 2+1; 4 = 2+2; 5 = 3+2 or 2+2+1; 6 = 3+3 or 2+2+2.
Seats are numbered 1..n clockwise; turn order is clockwise (seat numbers going
up, then back to 1). Every random choice is drawn from an injected
``random.Random``, always in the same order (seating, goals, deck, first player),
and only when the caller did not fix it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from models.cheers.cards import CARD_IDS, DECK_SIZE, INGREDIENTS, Ingredient, card, ingredient

MIN_PLAYERS = 3
MAX_PLAYERS = 6
GOAL_SIZE = 5
HAND_SIZE = 3
#: House rule (odd counts): a player on a team smaller than the largest refills to 4 cards.
ODD_COUNT_HAND_SIZE = 4
TEAM_NAMES = ("A", "B", "C")

#: the seed's splits per player count; the first is the default
SPLITS: dict[int, tuple[str, ...]] = {
    3: ("2+1",),
    4: ("2+2",),
    5: ("3+2", "2+2+1"),
    6: ("3+3", "2+2+2"),
}

#: seat order to sit in, seat 1 first. 4 and 6 are the seed's; 3 and 5 are house rules.
SEAT_ORDERS: dict[str, str] = {
    "2+1": "ABA",  # house rule (odd counts)
    "2+2": "ABAB",
    "3+2": "ABABA",  # house rule (odd counts)
    "2+2+1": "ABCAB",  # house rule (odd counts)
    "3+3": "ABABAB",
    "2+2+2": "ABCABC",
}

Goal = tuple[Ingredient, ...]


class SetupError(ValueError):
    """A set-up the rules do not allow (player count, split, teams, goals, deck)."""


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first turn.

    ``teams`` maps seat -> team letter; ``goals`` team -> 5 ingredients (sorted);
    ``deck`` is the draw order (first id drawn first); ``hand_sizes`` seat -> 3 or 4;
    ``seat_of_station`` says where the player who joined at a station sits.
    """

    players: int
    split: str
    masquerade: bool
    teams: Mapping[int, str]
    goals: Mapping[str, Goal]
    deck: tuple[str, ...]
    first: int
    hand_sizes: Mapping[int, int]
    seat_of_station: Mapping[int, int]
    turn_cap: int | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))


def split_sizes(split: str) -> tuple[int, ...]:
    """``"2+2+1"`` -> ``(2, 2, 1)``: team A's size first."""
    try:
        sizes = tuple(int(part) for part in split.split("+"))
    except ValueError:
        raise SetupError(f"bad team split {split!r} (write it like '3+2')") from None
    return sizes


def default_split(players: int) -> str:
    check_players(players)
    return SPLITS[players][0]


def check_players(players: int) -> None:
    if not isinstance(players, int) or isinstance(players, bool):
        raise SetupError(f"players must be a whole number, not {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"Cheers is for 3 to 6 players, not {players}")


def check_split(players: int, split: str) -> None:
    check_players(players)
    if split not in SPLITS[players]:
        allowed = " or ".join(SPLITS[players])
        raise SetupError(f"{players} players split {allowed}, not {split!r}")


def hand_sizes_for(teams: Mapping[int, str]) -> dict[int, int]:
    """The hand each seat refills to at the end of its turns. House rule (odd counts): players
    on a team smaller than the largest refill to 4, others to 3. Every hand is dealt 3."""
    sizes = Counter(teams.values())
    largest = max(sizes.values())
    odd = len(teams) % 2 == 1
    return {
        seat: ODD_COUNT_HAND_SIZE if odd and sizes[team] < largest else HAND_SIZE
        for seat, team in teams.items()
    }


def seat_teams(split: str, masquerade: bool, rng: random.Random) -> dict[int, str]:
    """Team per seat: the split's seat order; under Masquerade a random order."""
    letters = list(SEAT_ORDERS[split])
    if masquerade:
        rng.shuffle(letters)
    return {seat: team for seat, team in enumerate(letters, start=1)}


def parse_teams(players: int, split: str | None, raw: Mapping[str, object]) -> tuple[dict[int, str], str]:
    """Fixed teams, either ``{"A": [1, 3], "B": [2, 4]}`` or ``{"1": "A", "2": "B", ...}``,
    and their split. A split names team sizes, not which letter has which (5 = 3+2 is a team
    of three and a team of two), so the letters may carry the sizes in any order; with no
    split given, it is read from the teams."""
    teams: dict[int, str] = {}
    if raw and all(str(k).strip().isdigit() for k in raw):
        for seat, team in raw.items():
            teams[int(seat)] = str(team).upper()
    else:
        for team, seats in raw.items():
            if not isinstance(seats, (list, tuple)):
                raise SetupError(f"team {team!r} must list its seats, not {seats!r}")
            for seat in seats:
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise SetupError(f"team {team!r}: seat {seat!r} is not a seat number")
                if seat in teams:
                    raise SetupError(f"seat {seat} is on two teams")
                teams[seat] = str(team).upper()
    if sorted(teams) != list(range(1, players + 1)):
        raise SetupError(f"teams must place every seat 1..{players} exactly once, got {sorted(teams)}")
    counts = Counter(teams.values())
    if split is None:
        split = next((s for s in SPLITS[players]
                      if sorted(split_sizes(s)) == sorted(counts.values())), None)
        if split is None:
            sizes = "+".join(str(counts[t]) for t in sorted(counts))
            raise SetupError(f"teams have sizes {sizes}, but {players} players split "
                             f"{' or '.join(SPLITS[players])}")
    expected = TEAM_NAMES[: len(split_sizes(split))]
    unknown = sorted(set(counts) - set(expected))
    if unknown:
        raise SetupError(f"split {split} has teams {', '.join(expected)}; unknown team {unknown[0]!r}")
    got = tuple(counts.get(t, 0) for t in expected)
    if sorted(got) != sorted(split_sizes(split)):
        raise SetupError(f"teams have sizes {'+'.join(map(str, got))}, but the split is {split}")
    return teams, split


def draw_goal(rng: random.Random) -> Goal:
    """The seed's draw: 5 pairs of tokens, one pair put away, 5 of the 8 left drawn."""
    stacks = list(INGREDIENTS)
    rng.shuffle(stacks)
    stacks.pop(rng.randrange(len(stacks)))
    tokens = [ing for ing in stacks for _ in range(2)]
    rng.shuffle(tokens)
    return sort_goal(tokens[:GOAL_SIZE])


def sort_goal(tokens: Iterable[Ingredient]) -> Goal:
    return tuple(sorted(tokens, key=INGREDIENTS.index))


def parse_goal(team: str, raw: object) -> Goal:
    """A fixed goal: 5 ingredient names, at most 2 of one kind, at most 4 kinds."""
    if not isinstance(raw, (list, tuple)):
        raise SetupError(f"goal of team {team} must be a list of 5 ingredients, not {raw!r}")
    try:
        goal = sort_goal(ingredient(str(name)) for name in raw)
    except ValueError as exc:
        raise SetupError(f"goal of team {team}: {exc}") from None
    if len(goal) != GOAL_SIZE:
        raise SetupError(f"goal of team {team} has {len(goal)} ingredients, not {GOAL_SIZE}")
    counts = Counter(goal)
    if max(counts.values()) > 2:
        raise SetupError(f"goal of team {team} has more than 2 of one ingredient")
    if len(counts) > 4:
        raise SetupError(f"goal of team {team} uses all 5 ingredients; one is always put away")
    return goal


def parse_deck(raw: Iterable[object], rng: random.Random) -> tuple[str, ...]:
    """A fixed draw order; ids not listed follow in a shuffled order."""
    ids: list[str] = []
    for item in raw:
        try:
            ids.append(card(str(item)).id)
        except ValueError as exc:
            raise SetupError(f"deck: {exc}") from None
    dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dupes:
        raise SetupError(f"deck lists {dupes[0]} twice")
    rest = [cid for cid in CARD_IDS if cid not in set(ids)]
    rng.shuffle(rest)
    return tuple(ids + rest)


def build_setup(
    players: int,
    rng: random.Random,
    *,
    split: str | None = None,
    masquerade: bool = False,
    teams: Mapping[str, object] | None = None,
    goals: Mapping[str, object] | None = None,
    deck: Iterable[object] | None = None,
    first: int | None = None,
    turn_cap: int | None = None,
) -> Setup:
    """Fix teams, goals, the draw order and the first player (drawing from ``rng`` what is unset)."""
    check_players(players)
    split = split or None
    if split is not None:
        check_split(players, split)
    if teams:
        seat_team, split = parse_teams(players, split, teams)
        stations = {s: s for s in range(1, players + 1)}
    else:
        split = split or default_split(players)
        seat_team = seat_teams(split, masquerade, rng)
        seat_order = list(range(1, players + 1))
        rng.shuffle(seat_order)
        stations = {station: seat for station, seat in enumerate(seat_order, start=1)}
    team_names = TEAM_NAMES[: len(split_sizes(split))]
    fixed_goals = dict(goals or {})
    unknown = sorted(set(map(str, fixed_goals)) - set(team_names))
    if unknown:
        raise SetupError(f"goal given for unknown team {unknown[0]!r}")
    team_goals = {
        t: parse_goal(t, fixed_goals[t]) if t in fixed_goals else draw_goal(rng) for t in team_names
    }
    draw_order = parse_deck(deck, rng) if deck is not None else _shuffled_deck(rng)
    if first is None:
        first = rng.randint(1, players)
    elif not isinstance(first, int) or isinstance(first, bool) or not 1 <= first <= players:
        raise SetupError(f"first must be a seat from 1 to {players}, not {first!r}")
    if turn_cap is not None and (not isinstance(turn_cap, int) or turn_cap < 1):
        raise SetupError(f"turn_cap must be a positive whole number or null, not {turn_cap!r}")
    return Setup(
        players=players,
        split=split,
        masquerade=masquerade,
        teams=seat_team,
        goals=team_goals,
        deck=draw_order,
        first=first,
        hand_sizes=hand_sizes_for(seat_team),
        seat_of_station=stations,
        turn_cap=turn_cap,
    )


def _shuffled_deck(rng: random.Random) -> tuple[str, ...]:
    ids = list(CARD_IDS)
    rng.shuffle(ids)
    assert len(ids) == DECK_SIZE
    return tuple(ids)
