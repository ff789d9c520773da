"""The Toast: final actions, the reveal, survival, the scoring table, three courses, tie-break."""

from __future__ import annotations

from collections import Counter

import pytest

from models.goblets.actions import Choose, Juggle, Pass, Peek, Pour, Toast
from models.goblets.engine import Game
from models.goblets.errors import BadChoice, NoActionsLeft, NotAllowedNow
from models.goblets.houses import House
from models.goblets.scenario import events, pass_until, play, pour_wine_until_toast, table
from models.goblets.scoring import Drinker, course_points, most_wine, table_points
from models.goblets.tokens import POOL, Token, survives

GOBLETS = ["wine", "poison", "poison", "antidote"]
TARGETS = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


def toasted(caller: int = 2, **kw: object) -> Game:
    game = table(4, goblets=GOBLETS, targets=TARGETS, **kw)  # type: ignore[arg-type]
    pour_wine_until_toast(game, caller)
    return game


def test_final_actions_go_from_the_callers_left_and_the_caller_is_last() -> None:
    game = toasted(caller=2)
    order = []
    while game.state.phase == "toast":
        order.append(game.current_player)
        play(game, Pass(game.current_player))
    assert order == [3, 4, 1, 2]


def test_a_final_action_is_one_action_and_never_a_toast() -> None:
    game = toasted(caller=2)
    with pytest.raises(NotAllowedNow, match="already been called"):
        play(game, Toast(3))
    play(game, Pour(3, 1, (Token.POISON,)))
    assert game.current_player == 4
    with pytest.raises(NoActionsLeft):
        play(game, Peek(3))


def test_character_abilities_cannot_be_used_in_the_toast_phase() -> None:
    game = toasted(caller=2, characters={3: "Juggler"})
    with pytest.raises(NotAllowedNow, match="only during your turn"):
        play(game, Juggle(3, (1, 2)))


def test_reveal_each_player_drinks_the_goblet_in_front_of_them() -> None:
    game = toasted(caller=2)
    out = pass_until(game, phase="turns")
    drank = {d["seat"]: (d["survived"], d["wine"]) for d in events(out, "drank")}
    assert drank == {1: (True, 4), 2: (False, 3), 3: (False, 3), 4: (True, 3)}
    assert [d["seat"] for d in events(out, "drank")] == [3, 4, 1, 2]


def test_each_antidote_removes_one_poison_any_poison_left_poisons() -> None:
    assert survives(Counter({Token.POISON: 2, Token.ANTIDOTE: 2}))
    assert not survives(Counter({Token.POISON: 2, Token.ANTIDOTE: 1}))
    assert survives(Counter({Token.WINE: 3, Token.ANTIDOTE: 2}))


def test_wine_has_no_effect_on_survival() -> None:
    assert not survives(Counter({Token.POISON: 1, Token.WINE: 9}))


def test_ogre_poison_is_not_removed_by_ordinary_antidotes() -> None:
    assert not survives(Counter({Token.OGRE: 1, Token.ANTIDOTE: 5}))


def test_unicorn_antidote_removes_every_poison_ogre_included() -> None:
    assert survives(Counter({Token.OGRE: 1, Token.POISON: 4, Token.UNICORN: 1}))


def test_scoring_table_survive_1_target_poisoned_1_both_plus_1() -> None:
    assert table_points(True, False) == 1
    assert table_points(False, True) == 1
    assert table_points(True, True) == 3
    assert table_points(False, False) == 0


def test_most_wine_bonus_only_for_a_single_leader() -> None:
    h = list(House)
    drinkers = [Drinker(1, h[0], h[1], None, False, 4), Drinker(2, h[1], h[0], None, False, 2)]
    assert most_wine(drinkers) == 1
    assert course_points(drinkers) == {1: 2, 2: 1}  # both poisoned: each hit its target
    tied = [Drinker(1, h[0], h[1], None, True, 3), Drinker(2, h[1], h[0], None, True, 3)]
    assert most_wine(tied) is None
    assert course_points(tied) == {1: 1, 2: 1}


def test_course_scores_follow_the_table() -> None:
    game = toasted(caller=2)
    out = pass_until(game, phase="turns")
    scored = {h.seat: h.private["vp"] for h in out if h.event == "scored"}
    # seat 1 survives, its target (seat 2) is poisoned, and it has the most Wine
    assert scored == {1: 4, 2: 1, 3: 0, 4: 1}


def test_victory_points_stay_private_until_the_end() -> None:
    game = toasted(caller=2)
    out = pass_until(game, phase="turns")
    for h in out:
        if h.event == "scored":
            assert set(h.fields) == {"seat"}
    assert game.view(None)["vp"] is None
    assert game.view(1)["vp_own"] == 4


def test_course_end_returns_every_token_to_the_pool_and_deals_again() -> None:
    game = toasted(caller=2)
    pass_until(game, phase="turns")
    assert game.state.course == 2
    assert game.state.all_tokens() == Counter(POOL)
    for unit in game.state.units:
        assert unit.screen == Counter({Token.WINE: 3, Token.POISON: 2, Token.ANTIDOTE: 2})


def _three_courses(tie_break: list[str] | None) -> tuple[Game, list]:
    goblets = {1: GOBLETS, 2: ["poison", "wine", "antidote", "poison"],
               3: ["antidote", "poison", "wine", "poison"]}
    game = table(4, goblets=goblets, targets={1: TARGETS, 2: TARGETS, 3: TARGETS},
                 tie_break=tie_break)
    out = []
    for _ in range(3):
        out += pour_wine_until_toast(game, caller=2)
        out += pass_until(game, phase="turns")
    return game, out


def test_three_courses_then_the_most_vp_wins_and_a_tie_goes_to_the_tie_break() -> None:
    game, out = _three_courses(["poison", "wine"])
    assert game.state.vp == {1: 7, 2: 3, 3: 7, 4: 2}
    assert events(out, "tie_break") == [{"seats": [3, 1], "goblets": 2}]
    assert game.state.phase == "tiebreak" and game.current_player == 3


def test_tie_break_tied_players_choose_from_the_last_caller_clockwise_survivor_wins() -> None:
    game, _ = _three_courses(["poison", "wine"])
    with pytest.raises(BadChoice, match="choose a goblet"):
        play(game, Pass(3))
    out = play(game, Choose(3, 1))
    assert events(out, "tie_goblet") == [
        {"seat": 3, "goblet": 1, "token": "poison", "survived": False},
        {"seat": 1, "goblet": 2, "token": "wine", "survived": True}]
    over = events(out, "game_over")[0]
    assert over["winners"] == [1] and over["ranking"][:2] == [1, 3]
    assert over["vp"] == {1: 7, 2: 3, 3: 7, 4: 2}
    assert game.view(None)["vp"] == {1: 7, 2: 3, 3: 7, 4: 2}
    assert game.state.all_tokens() == Counter(POOL)


def test_tie_break_goblets_poured_by_the_injected_random_when_not_fixed() -> None:
    game, _ = _three_courses(None)
    assert sorted(game.state.tie.goblets) == sorted([Token.WINE, Token.POISON])
    play(game, Choose(3, 2))
    assert game.is_over and game.state.winners in ([1], [3])


def test_a_toast_in_the_tie_break_is_refused_saying_it_is_the_tie_break() -> None:
    game, _ = _three_courses(["poison", "wine"])
    with pytest.raises(NotAllowedNow, match="tie-break"):
        play(game, Toast(3))
