"""Rules audit: sentences of the device's rules page (shared/rules/goblets.md) that had no
test of their own, each pinned through the engine as the page words it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from models.goblets import Game, Options
from models.goblets.actions import Drink, Gamble, Pass, Peek, Pour, Scheme
from models.goblets.characters import Character
from models.goblets.errors import NotAllowedNow, NotYourAbility
from models.goblets.houses import House
from models.goblets.scenario import events, pass_until, play, pour_wine_until_toast, table
from models.goblets.scoring import Drinker, course_points
from models.goblets.tokens import POOL, Token, survives

W, P, A, U, OGRE = Token.WINE, Token.POISON, Token.ANTIDOTE, Token.UNICORN, Token.OGRE
GOBLETS = ["wine", "poison", "poison", "antidote"]
TARGETS = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


# -- Pool: "Each course each player takes 3 Wine, 2 Poison, 2 Antidote behind their screen;
#    the goblets get 1 Antidote + 2 Poison + Wine up to one token per goblet." -------------

@pytest.mark.parametrize("players", range(2, 13))
def test_every_player_count_deals_3_2_2_screens_and_one_token_per_goblet(players: int) -> None:
    game = Game(Options(players, characters=False), random.Random(players))
    game.start()
    state = game.state
    units = players if players <= 6 else players // 2 + players % 2
    assert len(state.units) == (players if players <= 3 else units)
    goblets = 6 if players <= 3 else units
    assert len(state.places) == goblets
    for unit in state.units:
        assert unit.screen == Counter({W: 3, P: 2, A: 2})
    assert all(sum(g.tokens.values()) == 1 for g in state.places)
    poured = sum((g.tokens for g in state.places), Counter())
    assert poured == Counter({A: 1, P: 2, W: goblets - 3})
    assert +state.all_tokens() == Counter(POOL)
    if players >= 7:
        assert all(u.loyalty in ("loyal", "traitor") for u in state.units if u.winetaster)


# -- Special tokens: "Survival: if the goblet holds the Unicorn Antidote, you survive.
#    Otherwise ... any Poison left, or the Ogre Poison, poisons you." ------------------------

def _drank(game: Game) -> dict[int, dict[str, object]]:
    out = pass_until(game, phase="turns")
    return {d["seat"]: d for d in events(out, "drank")}


def test_at_the_reveal_the_ogre_poison_kills_whatever_antidotes_share_its_goblet() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={2: "Ogre Cook"})
    play(game, Pour(2, 4, (OGRE,)))  # goblet 4: the Antidote, now the Ogre Poison
    pour_wine_until_toast(game, caller=2)
    drank = _drank(game)
    assert drank[4]["tokens"] == {"wine": 3, "antidote": 1, "ogre": 1}
    assert drank[4]["poisoned"] is True


def test_at_the_reveal_the_unicorn_antidote_saves_from_poison_and_ogre_poison() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS,
                 characters={2: "Ogre Cook", 3: "Unicorn Keeper"})
    play(game, Pour(2, 3, (OGRE,)), Pour(2, 2, (W,)))  # goblet 3: Poison + Ogre Poison
    play(game, Pour(3, 3, (U,)))
    pour_wine_until_toast(game, caller=2)
    drank = _drank(game)
    assert drank[3]["tokens"] == {"wine": 3, "poison": 1, "unicorn": 1, "ogre": 1}
    assert drank[3]["survived"] is True


def test_the_hypochondriacs_antidotes_remove_only_ordinary_poisons() -> None:
    # "each ordinary Antidote in your goblet removes two ordinary Poisons"
    assert not survives(Counter({OGRE: 1, A: 3}), hypochondriac=True)
    assert survives(Counter({P: 4, A: 2}), hypochondriac=True)
    assert not survives(Counter({P: 5, A: 2}), hypochondriac=True)
    assert survives(Counter({P: 5, OGRE: 1, U: 1}), hypochondriac=True)


# -- "[Course] at the beginning of each course": the tokens come again each course ----------

def test_course_token_abilities_act_again_at_the_start_of_the_next_course() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS,
                 characters={1: "Unicorn Keeper", 2: "Hoarder", 3: "Ogre Cook"})
    pour_wine_until_toast(game, caller=2)
    pass_until(game, phase="turns")
    assert game.state.course == 2
    screens = [u.screen for u in game.state.units]
    assert screens[0][U] == 1 and screens[1][W] == 4 and screens[2][OGRE] == 1
    assert screens[3] == Counter({W: 3, P: 2, A: 2})
    assert +game.state.all_tokens() == Counter(POOL)


# -- [Score] characters ------------------------------------------------------------------

def _drinker(seat: int, house: House, target: House, ch: Character | None, alive: bool,
             wine: int) -> Drinker:
    return Drinker(seat, house, target, ch, alive, wine)


H = list(House)


def test_a_poisoned_avenger_scores_both_points_when_target_and_targeter_are_poisoned() -> None:
    # seat 1 (house 1) targets house 2; seat 3 (house 3) targets house 1: both poisoned
    drinkers = [_drinker(1, H[0], H[1], Character.AVENGER, False, 0),
                _drinker(2, H[1], H[3], None, False, 0),
                _drinker(3, H[2], H[0], None, False, 1),
                _drinker(4, H[3], H[2], None, True, 0)]
    assert course_points(drinkers)[1] == 2


def test_a_martyr_scoring_as_if_survived_keeps_the_most_wine_bonus() -> None:
    drinkers = [_drinker(1, H[0], H[1], Character.MARTYR, False, 5),
                _drinker(2, H[1], H[0], None, False, 0),
                _drinker(3, H[2], H[3], None, True, 1),
                _drinker(4, H[3], H[2], None, True, 1)]
    assert course_points(drinkers)[1] == 4  # 3 as if survived + 1 most Wine


# -- [Turn] means during your turn: not in the toast phase (seed) -----------------------------

def test_the_sommeliers_peek_into_another_goblet_is_a_turn_ability_only() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={3: "Sommelier"})
    pour_wine_until_toast(game, caller=2)
    assert game.state.phase == "toast" and game.current_player == 3
    with pytest.raises(NotYourAbility):
        play(game, Peek(3, 1))
    out = play(game, Peek(3))
    assert [h.private["goblet"] for h in out if h.event == "peeked"] == [3]


# -- Gambler: "swap your goblet with a goblet chosen at random by the device" ---------------

def test_the_gamblers_goblet_is_always_swapped_with_another_one() -> None:
    for seed in range(10):
        game = table(4, seed=seed, goblets=GOBLETS, targets=TARGETS, characters={1: "Gambler"})
        pour_wine_until_toast(game, caller=2)
        pass_until(game, kind="gamble")
        out = play(game, Gamble(1))
        a, b = events(out, "gambled")[0]["goblets"]
        assert a == 1 and b in (2, 3, 4)


# -- Winetaster cards: "one is dealt to each Winetaster at random and the rest are set aside
#    unseen, so a table may have no Traitor." -----------------------------------------------

def test_a_winetasters_table_may_have_no_traitor_and_twelve_players_always_have_one() -> None:
    traitors = []
    for seed in range(40):
        game = Game(Options(8, characters=False), random.Random(seed))
        game.start()
        traitors.append([u.loyalty for u in game.state.units].count("traitor"))
    assert 0 in traitors and 1 in traitors and max(traitors) == 1
    for seed in range(10):
        game = Game(Options(12, characters=False), random.Random(seed))
        game.start()
        assert sorted(u.loyalty for u in game.state.units) == ["loyal"] * 5 + ["traitor"]


# -- Raise Your Memory: no rings, so the Schemer has nothing to swap -------------------------

def test_the_schemer_has_no_coasters_to_swap_in_raise_your_memory() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={2: "Schemer"},
                 variants=("memory",))
    with pytest.raises(NotAllowedNow, match="no coaster"):
        play(game, Scheme(2, (1, 3)))


# -- Legacy: "a poisoned player draws a new character for the next course" -----------------

def test_legacy_nobody_draws_after_the_third_course() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, variants=("legacy",), dealt=True,
                 characters={1: "Sommelier", 2: "Spy", 3: "Butler", 4: "Glutton"})
    for course in (1, 2, 3):
        pour_wine_until_toast(game, caller=2)
        out = pass_until(game, phase="turns")
        poisoned = [d["seat"] for d in events(out, "drank") if d["poisoned"]]
        assert poisoned, "two Poisons and one Antidote in separate goblets: someone dies"
        drawn = [e["seat"] for e in events(out, "new_character")]
        assert drawn == ([] if course == 3 else poisoned)


# -- Russian Goblette: "each goblet is judged alone when it is drunk; an Antidote drunk
#    earlier protects against nothing later." ------------------------------------------------

def test_russian_goblette_an_antidote_drunk_earlier_protects_against_nothing_later() -> None:
    game = table(2, goblets=["wine", "poison", "antidote", "wine", "poison", "wine"], host=2)
    pour_wine_until_toast(game, caller=2)
    while game.step.kind == "final":
        play(game, Pass(game.current_player))
    assert game.current_player == 1
    out = play(game, Drink(1, 3), Drink(2, 1), Drink(1, 5))
    drank = events(out, "drank")
    assert drank[0]["tokens"] == {"antidote": 1} and drank[0]["survived"] is True
    assert drank[2]["tokens"] == {"poison": 1} and drank[2]["poisoned"] is True
    assert events(out, "course_won") == [{"seats": [2], "course": 1}]
