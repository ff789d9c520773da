"""The 21 characters (house rule: the box's originals), each by name."""

from __future__ import annotations

from collections import Counter

import pytest

from models.goblets.actions import (
    Gamble,
    Juggle,
    Pass,
    Peek,
    Plot,
    Pour,
    Rotate,
    Scheme,
    Spy,
    Taste,
    Toast,
    Transmute,
)
from models.goblets.characters import Character, Timing
from models.goblets.engine import Game
from models.goblets.errors import (
    AbilityAlreadyUsed,
    BadChoice,
    NotAllowedNow,
    NotYourAbility,
    ToastWithWineLeft,
)
from models.goblets.scenario import events, pass_until, play, pour_wine_until_toast, table
from models.goblets.tokens import POOL, Token

W, P, A = Token.WINE, Token.POISON, Token.ANTIDOTE
GOBLETS = ["wine", "poison", "poison", "antidote"]
TARGETS = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


def game4(**chars: str) -> Game:
    return table(4, goblets=GOBLETS, targets=TARGETS,
                 characters={int(k[1:]): v for k, v in chars.items()})


def scores_after_reveal(game: Game) -> dict[int, int]:
    out = pass_until(game, phase="turns")
    return {h.seat: h.private["vp"] for h in out if h.event == "scored"}  # type: ignore[misc]


def reveal(**chars: str) -> dict[int, int]:
    game = game4(**chars)
    pour_wine_until_toast(game, caller=2)
    return scores_after_reveal(game)


# without characters this course scores {1: 4, 2: 1, 3: 0, 4: 1} (see test_goblets_toast)


def test_there_are_21_characters_each_with_a_timing_tag() -> None:
    assert [c.number for c in Character] == list(range(1, 22))
    assert {c.timing for c in Character} == set(Timing)
    assert Character.parse("Chaperone").number == 21 and Character.parse(9).title == "Taster"


def test_sommelier_peeks_into_any_goblet() -> None:
    game = game4(s2="Sommelier")
    out = play(game, Peek(2, 4))
    assert [h.private for h in out if h.event == "peeked"] == [
        {"goblet": 4, "tokens": {"antidote": 1}}]


def test_juggler_swaps_any_two_goblets_once_per_course_as_an_action() -> None:
    game = game4(s2="Juggler")
    g3, g4 = game.state.places[2], game.state.places[3]
    play(game, Juggle(2, (3, 4)))
    assert game.state.places[2] is g4 and game.state.places[3] is g3
    assert game.step.actions_left == 1
    with pytest.raises(AbilityAlreadyUsed, match="once per course"):
        play(game, Juggle(2, (1, 2)))


def test_juggler_ability_resets_each_course() -> None:
    game = game4(s2="Juggler")
    play(game, Juggle(2, (3, 4)))
    pour_wine_until_toast(game, caller=3)
    pass_until(game, phase="turns")
    while game.current_player != 2:
        play(game, Pass(game.current_player))
    assert game.is_legal(Juggle(2, (1, 3)))


def test_only_the_juggler_juggles() -> None:
    with pytest.raises(NotYourAbility, match="Juggler"):
        play(game4(), Juggle(2, (3, 4)))


def test_ogre_cook_takes_the_ogre_poison_each_course() -> None:
    game = game4(s3="Ogre Cook")
    assert game.state.units[2].screen[Token.OGRE] == 1
    assert game.state.pool[Token.OGRE] == 0


def test_unicorn_keeper_takes_the_unicorn_antidote_each_course() -> None:
    game = game4(s1="Unicorn Keeper")
    assert game.state.units[0].screen[Token.UNICORN] == 1


def test_toastmaster_takes_two_final_actions() -> None:
    game = game4(s4="Toastmaster")
    pour_wine_until_toast(game, caller=2)
    order = []
    while game.state.phase == "toast":
        order.append(game.current_player)
        play(game, Pass(game.current_player))
    assert order == [3, 4, 4, 1, 2]


def test_schemer_swaps_two_coasters_while_everyone_else_looks_away() -> None:
    game = game4(s2="Schemer")
    out = play(game, Scheme(2, (1, 3)))
    assert [g.coaster.colour for g in game.state.places] == ["purple", "green", "brown", "yellow"]
    assert events(out, "schemed") == [{"seat": 2}]
    with pytest.raises(AbilityAlreadyUsed):
        play(game, Scheme(2, (1, 2)))


def test_glutton_gets_1_more_vp_surviving_with_3_or_more_wine() -> None:
    assert reveal(s1="Glutton")[1] == 5
    assert reveal(s4="Glutton")[4] == 2
    assert reveal(s2="Glutton")[2] == 1  # poisoned: no bonus


def test_martyr_poisoned_with_target_poisoned_scores_as_if_survived() -> None:
    assert reveal(s2="Martyr")[2] == 3
    assert reveal(s3="Martyr")[3] == 0  # target survived: nothing changes


def test_taster_returns_one_token_from_their_goblet_to_the_pool_before_drinking() -> None:
    game = game4(s2="Taster")
    pour_wine_until_toast(game, caller=3)
    pass_until(game, kind="taste")
    assert game.current_player == 2
    assert game.view(2)["goblet"] == {"wine": 3, "poison": 1}
    assert "goblet" not in game.view(1)
    with pytest.raises(BadChoice, match="no antidote"):
        play(game, Taste(2, A))
    out = play(game, Taste(2, P))
    drank = {d["seat"]: d["survived"] for d in events(out, "drank")}
    assert drank[2] is True
    assert game.state.all_tokens() == Counter(POOL)


def test_alchemist_turns_poison_into_antidote_as_a_free_action_once() -> None:
    game = game4(s2="Alchemist")
    play(game, Transmute(2, A))
    assert game.state.units[1].screen == Counter({W: 3, P: 1, A: 3})
    assert game.step.actions_left == 2
    with pytest.raises(AbilityAlreadyUsed):
        play(game, Transmute(2, P))
    assert game.state.all_tokens() == Counter(POOL)


def test_alchemist_may_turn_an_antidote_back_into_poison() -> None:
    game = game4(s2="Alchemist")
    play(game, Transmute(2, P))
    assert game.state.units[1].screen == Counter({W: 3, P: 3, A: 1})


def test_hoarder_takes_1_extra_wine() -> None:
    game = game4(s4="Hoarder")
    assert game.state.units[3].screen[W] == 4


def test_hoarder_gets_no_wine_from_an_empty_pool() -> None:
    game = table(6, characters={1: "Hoarder"})
    assert game.state.units[0].screen[W] == 3
    assert game.state.all_tokens() == Counter(POOL)


def test_impatient_may_toast_with_1_wine_left() -> None:
    game = game4(s2="Impatient")
    for seat in (2, 3, 4, 1):
        play(game, Pour(seat, seat, (W,)), Pour(seat, seat, (W,)))
    assert game.state.units[1].screen[W] == 1
    out = play(game, Toast(2))
    assert events(out, "toast") == [{"caller": 2, "course": 1}]


def test_without_impatient_1_wine_left_forbids_the_toast() -> None:
    game = game4()
    for seat in (2, 3, 4, 1):
        play(game, Pour(seat, seat, (W,)), Pour(seat, seat, (W,)))
    with pytest.raises(ToastWithWineLeft):
        play(game, Toast(2))


def test_plotter_may_swap_target_cards_after_the_deal() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={1: "Plotter"})
    assert game.step.kind == "plot" and game.current_player == 1
    with pytest.raises(BadChoice, match="never takes their own house"):
        play(game, Plot(1, 4))  # seat 4 targets De Miceti, the Plotter's own house
    with pytest.raises(BadChoice, match="seat 2 would get their own house"):
        play(game, Plot(1, 2))  # nobody may be left targeting themself
    out = play(game, Plot(1, 3))
    assert events(out, "plotted")[0]["targets"] == {1: "Wespendorf", 3: "McToadery"}
    assert game.state.phase == "turns" and game.current_player == 2


def test_plotter_may_decline() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={1: "Plotter"})
    play(game, Pass(1))
    assert game.state.units[0].target.value == "McToadery"


def test_pacifist_scores_2_for_surviving_and_nothing_for_the_target() -> None:
    assert reveal(s1="Pacifist")[1] == 3  # 2 + the most-Wine bonus, which never changes
    assert reveal(s2="Pacifist")[2] == 0


def test_avenger_poisoned_still_scores_for_target_and_for_the_one_who_targeted_them() -> None:
    assert reveal(s2="Avenger")[2] == 1  # target poisoned; seat 1 (who targets 2) survived
    assert reveal(s3="Avenger")[3] == 1  # target survived; seat 2 (who targets 3) poisoned


def test_spy_looks_behind_another_players_screen_once_per_course() -> None:
    game = game4(s2="Spy")
    out = play(game, Spy(2, 3))
    assert [h.private for h in out if h.event == "spied"] == [
        {"tokens": {"wine": 3, "poison": 2, "antidote": 2}}]
    assert game.view(2)["seen"][0]["what"] == "screen"
    with pytest.raises(AbilityAlreadyUsed):
        play(game, Spy(2, 4))


def test_butler_rotates_one_or_two_places() -> None:
    game = game4(s2="Butler")
    before = list(game.state.places)
    play(game, Rotate(2, "cw", 2))
    assert game.state.places == [before[2], before[3], before[0], before[1]]


def test_hypochondriac_antidote_removes_two_poisons() -> None:
    for hypo, alive in ((True, True), (False, False)):
        game = game4(**({"s4": "Hypochondriac"} if hypo else {}))
        pour_wine_until_toast(game, caller=2)
        play(game, Pour(3, 4, (P,)), Pour(4, 4, (P,)))  # goblet 4: 1 Antidote, 2 Poison
        out = pass_until(game, phase="turns")
        assert {d["seat"]: d["survived"] for d in events(out, "drank")}[4] is alive


def test_bartender_pours_two_tokens_into_one_goblet_once_per_course() -> None:
    game = game4(s2="Bartender")
    out = play(game, Pour(2, 3, (P, P)))
    assert game.state.places[2].tokens[P] == 3
    assert events(out, "poured") == [{"seat": 2, "goblet": 3, "count": 2}]
    with pytest.raises(AbilityAlreadyUsed):
        play(game, Pour(2, 3, (W, W)))
    with pytest.raises(NotYourAbility, match="Bartender"):
        play(table(4, goblets=GOBLETS, targets=TARGETS), Pour(2, 3, (W, W)))


def test_gambler_may_swap_goblets_with_one_the_box_picks_at_random() -> None:
    game = game4(s1="Gambler")
    pour_wine_until_toast(game, caller=2)
    pass_until(game, kind="gamble")
    mine = game.state.places[0]
    out = play(game, Gamble(1))
    gambled = events(out, "gambled")[0]
    assert gambled["goblets"][0] == 1 and gambled["goblets"][1] in (2, 3, 4)
    drank = {d["seat"]: d for d in events(out, "drank")}
    other = gambled["goblets"][1]
    # seat 1 drinks what was at ``other``; its own 4-Wine goblet went there
    assert drank[1]["wine"] == 3 and drank[1]["survived"] is (other == 4)
    assert drank[other]["wine"] == 4 and drank[other]["survived"] is True
    assert sum(mine.tokens.values()) == 0  # the course is over: back in the pool


def test_chaperone_acts_after_the_toast_caller_as_the_very_last() -> None:
    game = game4(s3="Chaperone")
    pour_wine_until_toast(game, caller=2)
    order = []
    while game.state.phase == "toast":
        order.append(game.current_player)
        play(game, Pass(game.current_player))
    assert order == [4, 1, 2, 3]


def test_chaperone_who_calls_the_toast_is_simply_last() -> None:
    game = game4(s2="Chaperone")
    pour_wine_until_toast(game, caller=2)
    order = []
    while game.state.phase == "toast":
        order.append(game.current_player)
        play(game, Pass(game.current_player))
    assert order == [3, 4, 1, 2]


def test_alchemist_free_action_does_not_count_as_the_first_action() -> None:
    game = game4(s2="Alchemist")
    for _ in range(2):
        for seat in (2, 3, 4, 1):
            unit = game.state.unit_of(seat)
            while game.current_player == seat and unit.screen[W]:
                play(game, Pour(seat, unit.place, (W,)))
            if game.current_player == seat:
                play(game, Pass(seat))
    play(game, Transmute(2, A))
    out = play(game, Toast(2))
    assert events(out, "toast") == [{"caller": 2, "course": 1}]


def test_a_winetasters_face_down_character_is_never_in_a_public_event():
    import random

    from controller.games.goblets.header import game_from_header

    header = {"game": "goblets", "seed": 5, "players": 7, "options": {"variants": [], "characters": True}}
    game = game_from_header(header, random.Random(5))
    happenings = game.start()
    public = next(h for h in happenings if h.event == "characters").fields["characters"]
    tasters = [s for s, c in game.state.characters.items() if s not in public]
    assert len(tasters) == 3, "7 players: three pairs, three Winetasters with face-down cards"
    for h in happenings:
        if h.event == "character_dealt":
            assert set(h.fields) == {"seat"} and h.seat == h.fields["seat"] and "character" in h.private


def test_a_toast_during_the_plotters_choice_is_refused_saying_the_turns_have_not_begun() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={1: "Plotter"})
    with pytest.raises(NotAllowedNow) as refused:
        game.apply(Toast(1))
    assert "already been called" not in refused.value.reason
    assert "Plotter" in refused.value.reason
