"""Teams, seats, goals and the deal: the seed's splits and the house rules for odd counts."""

import random
from collections import Counter

import pytest

from models.cheers.actions import DiscardHand
from models.cheers.engine import new_game
from models.cheers.setup import (
    SEAT_ORDERS,
    SPLITS,
    SetupError,
    build_setup,
    draw_goal,
    hand_sizes_for,
)


@pytest.mark.parametrize("players,splits", [(3, ["2+1"]), (4, ["2+2"]), (5, ["3+2", "2+2+1"]),
                                            (6, ["3+3", "2+2+2"])])
def test_every_split_of_the_seed(players: int, splits: list[str]) -> None:
    assert list(SPLITS[players]) == splits
    for split in splits:
        setup = build_setup(players, random.Random(1), split=split)
        sizes = sorted(Counter(setup.teams.values()).values(), reverse=True)
        assert "+".join(map(str, sizes)) == split


def test_seed_seat_orders_for_four_and_six() -> None:
    assert SEAT_ORDERS["2+2"] == "ABAB"
    assert SEAT_ORDERS["3+3"] == "ABABAB"
    assert SEAT_ORDERS["2+2+2"] == "ABCABC"
    setup = build_setup(6, random.Random(3), split="2+2+2")
    assert "".join(setup.teams[s] for s in setup.seats) == "ABCABC"


def test_house_rule_odd_count_seat_orders() -> None:
    assert SEAT_ORDERS["2+1"] == "ABA"
    assert SEAT_ORDERS["3+2"] == "ABABA"
    assert SEAT_ORDERS["2+2+1"] == "ABCAB"
    setup = build_setup(5, random.Random(3), split="2+2+1")
    assert "".join(setup.teams[s] for s in setup.seats) == "ABCAB"


def test_house_rule_odd_count_smaller_team_holds_four() -> None:
    assert hand_sizes_for({1: "A", 2: "B", 3: "A"}) == {1: 3, 2: 4, 3: 3}
    assert hand_sizes_for({1: "A", 2: "B", 3: "C", 4: "A", 5: "B"}) == {1: 3, 2: 3, 3: 4, 4: 3, 5: 3}
    assert hand_sizes_for({1: "A", 2: "B", 3: "A", 4: "B", 5: "A"})[2] == 4
    assert set(hand_sizes_for({s: "AB"[s % 2] for s in range(1, 7)}).values()) == {3}


def test_every_hand_is_dealt_three_and_the_odd_count_house_rule_refills_to_four() -> None:
    rng = random.Random(5)
    setup = build_setup(3, rng, teams={"A": [1, 3], "B": [2]}, first=2)
    state, events = new_game(setup, rng)
    assert [len(state.hands[s]) for s in (1, 2, 3)] == [3, 3, 3], "the rules: deal 3 cards to each hand"
    assert state.hands[2] == list(setup.deck[3:6])
    assert len(state.draw_pile) == 50 - 9
    assert [e.as_dict() for e in events if e.event == "dealt"][1] == {"event": "dealt", "seat": 2,
                                                                      "count": 3}
    happened = state.apply(DiscardHand(2))
    assert len(state.hands[2]) == 4, "the smaller team's player refills to 4 at the end of the turn"
    assert {"event": "drew", "seat": 2, "count": 4} in [e.as_dict() for e in happened]


def test_players_are_assigned_to_seats_at_random_from_the_rng() -> None:
    a = build_setup(6, random.Random(11), split="3+3")
    b = build_setup(6, random.Random(11), split="3+3")
    assert a == b
    seatings = {tuple(build_setup(6, random.Random(s)).seat_of_station.values()) for s in range(20)}
    assert len(seatings) > 5
    assert sorted(a.seat_of_station.values()) == [1, 2, 3, 4, 5, 6]


def test_goal_draw_five_tokens_at_most_two_each_one_kind_never() -> None:
    rng = random.Random(2)
    kinds_seen = Counter()
    for _ in range(500):
        goal = draw_goal(rng)
        counts = Counter(goal)
        assert len(goal) == 5 and max(counts.values()) <= 2 and len(counts) <= 4
        kinds_seen[len(counts)] += 1
    assert set(kinds_seen) == {3, 4}


def test_every_team_member_shares_the_goal() -> None:
    setup = build_setup(6, random.Random(4), split="2+2+2")
    assert set(setup.goals) == {"A", "B", "C"}


def test_fixed_teams_both_spellings() -> None:
    by_team = build_setup(4, random.Random(1), teams={"A": [1, 2], "B": [3, 4]})
    by_seat = build_setup(4, random.Random(1), teams={"1": "A", "2": "A", "3": "B", "4": "B"})
    assert by_team.teams == by_seat.teams == {1: "A", 2: "A", 3: "B", 4: "B"}


@pytest.mark.parametrize("players,teams,split,sizes", [
    (3, {"A": [2], "B": [1, 3]}, "2+1", {1: 3, 2: 4, 3: 3}),
    (5, {"A": [1, 3], "B": [2, 4, 5]}, "3+2", {1: 4, 2: 3, 3: 4, 4: 3, 5: 3}),
    (5, {"A": [1, 4], "B": [2, 5], "C": [3]}, "2+2+1", {1: 3, 2: 3, 3: 4, 4: 3, 5: 3}),
    (5, {"A": [3], "B": [1, 4], "C": [2, 5]}, "2+2+1", {1: 3, 2: 3, 3: 4, 4: 3, 5: 3}),
    (6, {"A": [1, 4], "B": [2, 5], "C": [3, 6]}, "2+2+2", {s: 3 for s in range(1, 7)}),
])
def test_fixed_teams_name_the_split_by_their_sizes_whichever_letter_is_larger(
        players: int, teams: dict, split: str, sizes: dict) -> None:
    # "5 = 3+2" is a team of three and a team of two, whichever letter each has; without a
    # split, the teams' sizes say which of the seed's splits is played
    for given in (None, split):
        setup = build_setup(players, random.Random(0), split=given, teams=teams)
        assert setup.split == split and dict(setup.hand_sizes) == sizes
        assert set(setup.goals) == set(teams)


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 5, "teams": {"A": [1, 2, 3], "B": [4, 5]}, "split": "2+2+1"}, "sizes 3\\+2"),
    ({"players": 5, "teams": {"A": [1, 2, 3, 4], "B": [5]}}, "sizes 4\\+1.*3\\+2 or 2\\+2\\+1"),
    ({"players": 6, "teams": {"A": [1, 2], "B": [3, 4], "D": [5, 6]}}, "unknown team 'D'"),
    ({"players": 7}, "3 to 6 players"),
    ({"players": 5, "split": "4+1"}, "3\\+2 or 2\\+2\\+1"),
    ({"players": 4, "teams": {"A": [1, 2, 3], "B": [4]}}, "sizes 3\\+1"),
    ({"players": 4, "teams": {"A": [1, 2], "B": [2, 4]}}, "seat 2 is on two teams"),
    ({"players": 4, "goals": {"A": ["mint"] * 5}}, "more than 2"),
    ({"players": 4, "goals": {"A": ["mint", "mint", "lemon", "cassis", "curacao", "grenadine"]}},
     "6 ingredients"),
    ({"players": 4, "goals": {"A": ["mint", "lemon", "cassis", "curacao", "grenadine"]}},
     "all 5 ingredients"),
    ({"players": 4, "goals": {"D": ["mint"] * 2}}, "unknown team 'D'"),
    ({"players": 4, "deck": ["C01", "C01"]}, "C01 twice"),
    ({"players": 4, "deck": ["C99"]}, "C99"),
    ({"players": 4, "first": 5}, "first must be a seat"),
])
def test_bad_setup_is_a_clear_error(kwargs: dict, message: str) -> None:
    players = kwargs.pop("players")
    with pytest.raises(SetupError, match=message):
        build_setup(players, random.Random(0), **kwargs)


def test_fixed_deck_is_the_draw_order_and_the_rest_follows() -> None:
    setup = build_setup(4, random.Random(0), deck=["C10", "C20", "C30"])
    assert setup.deck[:3] == ("C10", "C20", "C30") and sorted(setup.deck) == sorted(set(setup.deck))
    assert len(setup.deck) == 50


def test_house_rule_masquerade_seats_are_random() -> None:
    orders = {"".join(build_setup(6, random.Random(s), split="3+3", masquerade=True).teams.values())
              for s in range(30)}
    assert len(orders) > 3 and all(sorted(o) == sorted("AAABBB") for o in orders)
