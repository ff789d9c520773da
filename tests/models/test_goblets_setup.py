"""Setting the table and the Appetizers of Raise Your Goblets."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.games.goblets.header import game_from_header, options_from_header
from models.goblets import Game, Options, SetupError
from models.goblets import setup as setup_mod
from models.goblets.houses import House
from models.goblets.scenario import pass_until, pour_wine_until_toast, table
from models.goblets.setup import FixedDeal, begin_course, houses, seating
from models.goblets.state import GameState, Unit
from models.goblets.tokens import POOL, Token

TARGETS4 = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


def test_pool_holds_21_wine_15_poison_14_antidote_1_unicorn_1_ogre() -> None:
    assert POOL == {Token.WINE: 21, Token.POISON: 15, Token.ANTIDOTE: 14, Token.UNICORN: 1,
                    Token.OGRE: 1}
    game = table(5)
    assert game.state.all_tokens() == Counter(POOL)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_each_screen_starts_with_3_wine_2_poison_2_antidote(players: int) -> None:
    game = table(players)
    for unit in game.state.units:
        assert unit.screen == Counter({Token.WINE: 3, Token.POISON: 2, Token.ANTIDOTE: 2})


@pytest.mark.parametrize("players", [4, 5, 6])
def test_goblets_get_1_antidote_2_poison_and_wine_one_token_per_goblet(players: int) -> None:
    game = table(players, seed=players)
    inside = Counter()
    for goblet in game.state.places:
        assert sum(goblet.tokens.values()) == 1
        inside.update(goblet.tokens)
    assert inside == Counter({Token.ANTIDOTE: 1, Token.POISON: 2, Token.WINE: players - 3})


def test_goblets_are_poured_at_random_from_the_injected_random() -> None:
    def pours(seed: int) -> list[str]:
        game = Game(Options(6), random.Random(seed))
        game.start()
        return [next(iter(g.tokens)).value for g in game.state.places]

    assert pours(7) == pours(7)
    assert len({tuple(pours(s)) for s in range(20)}) > 5


def test_fixed_goblets_must_be_the_rules_tokens() -> None:
    with pytest.raises(SetupError, match="goblets for course 1"):
        table(4, goblets=["wine", "wine", "poison", "antidote"])


def test_each_player_takes_the_goblet_with_their_house_coaster() -> None:
    game = table(6)
    for unit in game.state.units:
        assert game.state.places[unit.index].coaster is unit.house
    assert [u.house.colour for u in game.state.units] == [
        "brown", "green", "purple", "yellow", "blue", "red"]


class _Scripted(random.Random):
    """A random whose first shuffle lays out a given order."""

    def __init__(self, first: list[House]) -> None:
        super().__init__(0)
        self.first: list[House] | None = first

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        if self.first is not None and len(x) == len(self.first) and isinstance(x[0], House):
            x[:] = self.first
            self.first = None
        else:
            super().shuffle(x)


def test_target_card_of_own_house_is_swapped_with_the_player_to_the_left() -> None:
    h = list(House)[:4]
    state = GameState(Options(4, characters=False), host=1)
    state.units = [Unit(i, h[i], i + 1) for i in range(4)]
    # seat 1 draws its own house (De Miceti): it swaps with seat 2
    setup_mod._deal_targets(state, _Scripted([h[0], h[2], h[3], h[1]]), setup_mod.FixedDeal())
    assert [u.target for u in state.units] == [h[2], h[0], h[3], h[1]]


def test_swap_with_left_goes_round_from_the_host() -> None:
    h = list(House)[:4]
    state = GameState(Options(4, characters=False), host=3)
    state.units = [Unit(i, h[i], i + 1) for i in range(4)]
    # seat 4 (after the host, seat 3) holds its own house and swaps with seat 1, its left
    setup_mod._deal_targets(state, _Scripted([h[1], h[2], h[0], h[3]]), setup_mod.FixedDeal())
    assert [u.target for u in state.units] == [h[3], h[2], h[0], h[1]]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 9, 12])
def test_nobody_ever_targets_their_own_house(players: int) -> None:
    for seed in range(40):
        game = Game(Options(players, characters=False), random.Random(seed))
        game.start()
        targets = [u.target for u in game.state.units]
        assert all(u.target is not u.house for u in game.state.units)
        assert sorted(t.value for t in targets) == sorted(u.house.value for u in game.state.units)


def test_a_fixed_target_deal_of_own_house_is_swapped_with_the_player_to_the_left() -> None:
    # The header fixes the Host's deal; the swap-with-the-left rule still applies to it.
    game = table(4, targets={1: "De Miceti", 2: "Aconitiers", 3: "Wespendorf", 4: "McToadery"})
    assert {u.noble: u.target.value for u in game.state.units} == {
        1: "Aconitiers", 2: "De Miceti", 3: "Wespendorf", 4: "McToadery"}


def test_a_fixed_target_deal_swaps_from_the_host_clockwise() -> None:
    # seats 3 and 4 both hold their own house; from Host 4: 4 swaps with 1 first, then 3 with 4
    deal = {1: "McToadery", 2: "De Miceti", 3: "Aconitiers", 4: "Wespendorf"}
    game = table(4, host=4, targets=deal)
    assert {u.noble: u.target.value for u in game.state.units} == {
        1: "Wespendorf", 2: "De Miceti", 3: "McToadery", 4: "Aconitiers"}
    game = table(4, host=1, targets=deal)  # from Host 1: only 3 swaps, with 4
    assert {u.noble: u.target.value for u in game.state.units} == {
        1: "McToadery", 2: "De Miceti", 3: "Wespendorf", 4: "Aconitiers"}


def test_a_fixed_target_deal_must_deal_each_house_once() -> None:
    with pytest.raises(SetupError, match="exactly once"):
        table(4, targets={1: "McToadery", 2: "McToadery", 3: "Wespendorf", 4: "De Miceti"})


def test_turn_order_starts_with_the_player_left_of_the_host() -> None:
    assert table(4, host=1).current_player == 2
    assert table(4, host=4).current_player == 1
    assert table(5, host=3).current_player == 4


def test_the_last_toast_caller_is_the_next_courses_host() -> None:
    game = table(4, goblets=["wine", "poison", "poison", "antidote"], targets=TARGETS4)
    pour_wine_until_toast(game, caller=3)
    pass_until(game, phase="turns")
    assert game.state.course == 2
    assert game.state.host == 3
    assert game.current_player == 4


def test_header_errors_name_the_bad_field() -> None:
    with pytest.raises(SetupError, match="players"):
        options_from_header({"players": 13})
    with pytest.raises(SetupError, match="unknown variant 'desserts'"):
        options_from_header({"players": 4, "options": {"variants": ["desserts"]}})
    with pytest.raises(SetupError, match="Russian Goblette is for 2-3 players"):
        options_from_header({"players": 5, "options": {"variants": ["russian"]}})
    with pytest.raises(SetupError, match="host"):
        options_from_header({"players": 4, "host": 9})
    with pytest.raises(SetupError, match="characters"):
        options_from_header({"players": 4, "characters": {"1": "Pirate"}})


def test_variants_follow_the_player_count() -> None:
    assert Options(2).mode == "russian" and Options(3).mode == "russian"
    assert Options(4).mode == Options(6).mode == "banquet"
    assert Options(7).mode == Options(12).mode == "winetasters"


def test_winetaster_pairs_seat_the_noble_left_of_their_winetaster() -> None:
    assert seating(Options(8), 1) == [(2, 1), (4, 3), (6, 5), (8, 7)]
    # each Noble becomes the Winetaster of the player to their left
    assert seating(Options(8), 2) == [(3, 2), (5, 4), (7, 6), (1, 8)]


def test_characters_dealt_one_per_seat_from_the_shuffled_21() -> None:
    game = Game(Options(6), random.Random(3))
    game.start()
    chars = game.state.characters
    assert sorted(chars) == [1, 2, 3, 4, 5, 6]
    assert len(set(chars.values())) == 6
    assert len(game.state.deck) == 15


def test_the_first_host_is_seat_1_unless_the_header_names_one() -> None:
    game = game_from_header({"players": 5}, random.Random(1))
    game.start()
    assert game.state.host == 1 and game.current_player == 2


def test_winetasters_houses_stay_at_fixed_table_positions() -> None:
    """A re-formed pair plays the house of the position its Winetaster's seat holds; the
    extra player the house left over; in course 3 of an even count course 1's pairs are back,
    and so are their houses."""
    def layout(players: int, course: int) -> dict[tuple[int, ...], str]:
        return {tuple(s for s in unit if s is not None): h.value
                for unit, h in zip(seating(Options(players), course), houses(Options(players), course))}

    assert layout(8, 3) == layout(8, 1) == {(2, 1): "De Miceti", (4, 3): "McToadery",
                                            (6, 5): "Aconitiers", (8, 7): "Wespendorf"}
    assert layout(8, 2) == {(3, 2): "De Miceti", (5, 4): "McToadery", (7, 6): "Aconitiers",
                            (1, 8): "Wespendorf"}
    # 7 players: the extra player (seat 7, then 1, then 2) takes the house no pair holds
    assert layout(7, 2)[(1,)] == "Wespendorf" and layout(7, 3)[(2,)] == "De Miceti"
    assert layout(7, 3)[(1, 7)] == "Wespendorf"
    for players in range(7, 13):
        for course in (1, 2, 3):
            assert sorted(layout(players, course).values()) == sorted(
                h.value for h in houses(Options(players), 1)), (players, course)


def test_winetasters_course_three_seats_each_pair_at_its_first_course_house() -> None:
    game = Game(Options(8), random.Random(2))
    game.start()
    first = {u.seats: u.house for u in game.state.units}
    begin_course(game.state, random.Random(3), FixedDeal())  # course 2
    begin_course(game.state, random.Random(4), FixedDeal())  # course 3
    assert {u.seats: u.house for u in game.state.units} == first
