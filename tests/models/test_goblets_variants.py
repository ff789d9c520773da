"""Desserts: Raise Your Memory, Legacy, Russian Goblette (2-3) and Winetasters (7-12)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from models.goblets import Game, Options, SetupError
from models.goblets.actions import Drink, Pass, Peek, Pour, Rotate, Swap, Toast
from models.goblets.errors import (
    BadChoice,
    NobleCannotPeek,
    NotAllowedNow,
    ToastNotFirstAction,
    ToastWithWineLeft,
    WinetasterCannotToast,
)
from models.goblets.scenario import events, pass_until, play, pour_wine_until_toast, table
from models.goblets.tokens import POOL, Token

W, P, A = Token.WINE, Token.POISON, Token.ANTIDOTE
GOBLETS = ["wine", "poison", "poison", "antidote"]
TARGETS = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


# -- Raise Your Memory ---------------------------------------------------------------------

def test_raise_your_memory_shows_no_coaster_colour_only_places() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, variants=("memory",))
    goblets = game.view(None)["goblets"]
    assert [g["coaster"] for g in goblets] == [None] * 4
    assert [g["place"] for g in goblets] == [1, 2, 3, 4]
    assert table(4).view(None)["goblets"][0]["coaster"] == "brown"


def test_raise_your_memory_the_table_does_not_follow_who_poured_into_a_goblet_as_it_moves() -> None:
    """The moment of a pour is public (its event); a caption that travelled with the goblet
    through rotations and swaps would mark it as well as its coaster would."""
    game = table(4, goblets=GOBLETS, targets=TARGETS, variants=("memory",))
    seat = game.current_player
    out = play(game, Pour(seat, 1, (W,)))
    assert events(out, "poured") == [{"seat": seat, "goblet": 1, "count": 1}]
    play(game, Rotate(seat, "clockwise"))
    assert [g["poured_by"] for g in game.view(None)["goblets"]] == [[]] * 4
    plain = table(4, goblets=GOBLETS, targets=TARGETS)
    play(plain, Pour(plain.current_player, 1, (W,)))
    assert game.state.places[1].poured_by or game.state.places[0].poured_by or \
        any(p.poured_by for p in game.state.places), "the engine still knows; the table is not shown"
    assert plain.view(None)["goblets"][0]["poured_by"] == [plain.current_player]


# -- Legacy --------------------------------------------------------------------------------

def test_legacy_poisoned_player_draws_a_new_character_for_the_next_course() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, variants=("legacy",), dealt=True,
                 characters={1: "Sommelier", 2: "Spy", 3: "Butler", 4: "Glutton"})
    pour_wine_until_toast(game, caller=2)
    out = pass_until(game, phase="turns")
    drawn = {e["seat"] for e in events(out, "new_character")}
    assert drawn == {2, 3}  # the two poisoned players
    chars = game.state.characters
    assert chars[1].title == "Sommelier" and chars[4].title == "Glutton"
    assert chars[2].title != "Spy" and chars[3].title != "Butler"
    assert len(set(chars.values())) == 4


def test_house_rule_legacy_reshuffles_the_discards_when_the_character_deck_runs_out() -> None:
    import random

    from models.goblets.setup import draw_character

    game = table(4, goblets=GOBLETS, targets=TARGETS, variants=("legacy",), dealt=True,
                 characters={1: "Sommelier", 2: "Spy", 3: "Butler", 4: "Glutton"})
    state = game.state
    others = {state.characters[s] for s in (1, 3, 4)}
    state.discard.extend(state.deck)  # every card not in play has been used up
    state.deck = []
    before = len(state.discard)
    new = draw_character(state, random.Random(1), 2)
    assert new not in others, "a card in front of another player is never drawn"
    assert len(state.deck) + len(state.discard) == before, "the reshuffled discards became the deck"
    assert len(set(state.characters.values())) == 4


def test_house_rule_legacy_a_new_character_is_never_the_card_just_given_up() -> None:
    import random

    from models.goblets.setup import draw_character

    for seed in range(40):
        game = table(4, goblets=GOBLETS, targets=TARGETS, variants=("legacy",), dealt=True,
                     characters={1: "Sommelier", 2: "Spy", 3: "Butler", 4: "Glutton"})
        state = game.state
        state.discard.extend(state.deck)
        state.deck = []
        spy = state.characters[2]
        assert draw_character(state, random.Random(seed), 2) is not spy
        assert spy in state.discard, "the card given up waits in the discards for the next reshuffle"


def test_without_legacy_characters_stay() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, dealt=True,
                 characters={1: "Sommelier", 2: "Spy", 3: "Butler", 4: "Glutton"})
    pour_wine_until_toast(game, caller=2)
    pass_until(game, phase="turns")
    assert game.state.characters[2].title == "Spy"


# -- Russian Goblette ----------------------------------------------------------------------

def russian(players: int = 3, **kw: object) -> Game:
    return table(players, goblets=["wine", "poison", "antidote", "wine", "poison", "wine"],
                 dealt=True, **kw)  # type: ignore[arg-type]


def test_russian_goblette_no_characters_no_rings_six_goblets_in_a_row() -> None:
    game = russian()
    assert game.state.characters == {}
    assert len(game.state.places) == 6
    assert all(g.coaster is None for g in game.state.places)
    assert all(u.target is None for u in game.state.units)


def test_russian_goblette_one_single_action_a_turn() -> None:
    game = russian()
    assert game.step.actions_left == 1
    play(game, Pour(2, 5, (W,)))
    assert game.current_player == 3


def test_russian_goblette_no_rotate() -> None:
    with pytest.raises(NotAllowedNow, match="can't Rotate"):
        play(russian(), Rotate(2, "cw"))


def test_russian_goblette_swap_any_two_goblets() -> None:
    game = russian()
    g1, g6 = game.state.places[0], game.state.places[5]
    play(game, Swap(2, goblets=(1, 6)))
    assert game.state.places[0] is g6 and game.state.places[5] is g1


def test_russian_goblette_peek_names_any_goblet() -> None:
    game = russian()
    with pytest.raises(BadChoice, match="name the goblet"):
        play(game, Peek(2))
    out = play(game, Peek(2, 3))
    assert [h.private["tokens"] for h in out if h.event == "peeked"] == [{"antidote": 1}]


def _toast_russian(game: Game, caller: int) -> None:
    pour_wine_until_toast(game, caller)
    pass_until(game, kind="drink")


def test_russian_goblette_drinking_order_from_the_callers_left_and_elimination() -> None:
    game = russian(host=3)  # turns 1, 2, 3
    _toast_russian(game, caller=3)
    assert game.current_player == 1
    out = play(game, Drink(1, 2))  # goblet 2: Poison + Wine poured in by nobody
    assert events(out, "drank")[0]["poisoned"] is True
    assert game.current_player == 2
    play(game, Drink(2, 3))  # the Antidote: survives
    assert game.current_player == 3
    with pytest.raises(BadChoice, match="already been drunk"):
        play(game, Drink(3, 3))


def test_russian_goblette_one_survivor_wins_the_course_and_takes_1_vp() -> None:
    game = russian(players=2, host=2)
    _toast_russian(game, caller=2)
    out = play(game, Drink(1, 2))  # seat 1 is poisoned: seat 2 is the only survivor
    assert events(out, "course_won") == [{"seats": [2], "course": 1}]
    assert game.state.vp == {1: 0, 2: 1}


def test_russian_goblette_most_wine_among_survivors_wins_ties_all_win() -> None:
    game = russian(players=2, host=2)
    pour_wine_until_toast(game, caller=2)
    pass_until(game, kind="drink")
    # goblets: 1 wine, 2 poison, 3 antidote, 4 wine, 5 poison, 6 wine; nobody poured
    out = play(game, Drink(1, 1), Drink(2, 4), Drink(1, 6), Drink(2, 3), Drink(1, 2))
    assert events(out, "course_won") == [{"seats": [2], "course": 1}]
    game = russian(players=2, host=2)
    pour_wine_until_toast(game, caller=2)
    pass_until(game, kind="drink")
    game.state.places[0].tokens = Counter({W: 1})
    out = play(game, Drink(1, 1), Drink(2, 4), Drink(1, 3), Drink(2, 6))
    assert events(out, "drank")[-1]["survived"]
    out += play(game, Drink(1, 2))
    assert events(out, "course_won") == [{"seats": [2], "course": 1}]


def test_russian_goblette_first_to_3_vp_wins_and_ties_share_the_victory() -> None:
    game = Game(Options(3), random.Random(5))
    from models.goblets.bots import play_out

    play_out(game, random.Random(1))
    assert max(game.state.vp.values()) == 3
    assert game.state.winners == [s for s, v in game.state.vp.items() if v == 3]
    assert game.state.tie is None


# -- Winetasters ---------------------------------------------------------------------------

def wt(players: int = 8, **kw: object) -> Game:
    return table(players, **kw)  # type: ignore[arg-type]


def test_winetasters_pairs_play_as_one_player_with_one_goblet_and_one_screen() -> None:
    game = wt(8)
    assert len(game.state.units) == 4 and len(game.state.places) == 4
    assert [u.seats for u in game.state.units] == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_winetaster_cards_5_loyal_1_traitor_one_per_winetaster_at_random() -> None:
    cards = Counter()
    for seed in range(60):
        game = Game(Options(8), random.Random(seed))
        game.start()
        dealt = [u.loyalty for u in game.state.units]
        assert all(c in ("loyal", "traitor") for c in dealt)
        assert dealt.count("traitor") <= 1
        cards.update(dealt)
    assert cards["traitor"] > 0 and cards["loyal"] > cards["traitor"]


def test_the_winetaster_acts_first_then_the_noble_each_one_action() -> None:
    game = wt(8, host=8)  # pair (1, 2) plays first
    assert game.step.kind == "turn" and game.current_player == 1
    play(game, Pour(1, 1, (W,)))
    assert game.current_player == 2 and game.step.actions_left == 1
    play(game, Pour(2, 1, (W,)))
    assert game.current_player == 3


def test_the_winetaster_cannot_toast() -> None:
    game = wt(8, host=8)
    game.state.wine_at_turn_start = 0
    with pytest.raises(WinetasterCannotToast):
        play(game, Toast(1))


def test_the_winetaster_cannot_toast_even_when_the_noble_may_toast_first() -> None:
    game = wt(8, host=8)
    game.state.units[0].screen[Token.WINE] = 0
    game.state.queue = []
    game._begin_turn()  # the pair's turn again, now with no Wine: the Noble may Toast first
    assert game.step.kind == "noble_first"
    with pytest.raises(WinetasterCannotToast):
        play(game, Toast(1))
    assert game.step.kind == "noble_first" and game.current_player == 2


def test_the_noble_cannot_peek() -> None:
    game = wt(8, host=8)
    play(game, Pass(1))
    with pytest.raises(NobleCannotPeek):
        play(game, Peek(2))


def test_the_noble_may_toast_before_the_winetaster_when_no_wine_is_left() -> None:
    game = wt(8, host=8)
    for _ in range(3):
        for noble in (2, 4, 6, 8):
            unit = game.state.unit_of(noble)
            while game.current_player in unit.seats:
                if game.step.kind == "noble_first":
                    play(game, Pass(noble))
                elif unit.screen[W]:
                    play(game, Pour(game.current_player, unit.place, (W,)))
                else:
                    play(game, Pass(game.current_player))
    assert game.step.kind == "noble_first" and game.current_player == 2
    with pytest.raises(ToastNotFirstAction):
        play(game, Pass(2), Toast(2))
    play(game, Pass(1))  # the Winetaster plays; now the Noble's own action
    assert game.current_player == 2 and game.step.kind == "turn"
    with pytest.raises(ToastNotFirstAction, match="before their Winetaster"):
        play(game, Toast(2))
    game = wt(8, host=8)
    pour_wine_until_toast(game, caller=2)
    assert game.state.caller == 2


def test_winetaster_free_peek_in_the_toast_phase_before_the_noble_final_action() -> None:
    game = wt(8, host=8)
    pour_wine_until_toast(game, caller=2)
    steps = []
    while game.state.phase == "toast":
        steps.append((game.step.kind, game.current_player))
        if game.step.kind == "free_peek":
            play(game, Peek(game.current_player))
        else:
            play(game, Pass(game.current_player))
    assert steps == [("free_peek", 3), ("final", 4), ("free_peek", 5), ("final", 6),
                     ("free_peek", 7), ("final", 8), ("free_peek", 1), ("final", 2)]


def test_the_extra_player_plays_as_a_regular_player_with_two_actions() -> None:
    game = wt(7, host=6)
    assert game.state.units[-1].seats == (7,)
    assert game.current_player == 7 and game.step.actions_left == 2


def test_loyal_gets_the_nobles_vp_traitor_3_if_noble_poisoned_else_0() -> None:
    goblets = ["wine", "poison", "poison", "antidote"]
    targets = {2: "McToadery", 4: "Aconitiers", 6: "Wespendorf", 8: "De Miceti"}
    for loyalty, traitor, points in (({1: "loyal", 3: "traitor", 5: "loyal", 7: "loyal"}, 3, 3),
                                     ({1: "loyal", 3: "loyal", 5: "loyal", 7: "traitor"}, 7, 0)):
        game = wt(8, host=8, goblets=goblets, targets=targets, loyalty=loyalty)
        pour_wine_until_toast(game, caller=4)
        out = pass_until(game, phase="turns")
        vp = {h.seat: h.private["vp"] for h in out if h.event == "scored"}
        # nobles score like seats 1-4 of the 4-player game: {2: 4, 4: 1, 6: 0, 8: 1}
        assert vp[2] == 4 and vp[1] == 4  # loyal
        assert vp[6] == 0 and vp[5] == 0  # loyal
        assert vp[traitor] == points  # noble 4 poisoned: 3; noble 8 survived: 0
        loyal = 3 if traitor == 7 else 7
        assert vp[loyal] == vp[loyal + 1]


def test_winetaster_cards_fixed_by_the_header_leave_5_loyal_1_traitor_for_the_rest() -> None:
    for seed in range(12):
        game = wt(12, seed=seed, loyalty={1: "traitor"})
        cards = sorted(u.loyalty for u in game.state.units)
        assert cards == ["loyal"] * 5 + ["traitor"] and game.state.units[0].loyalty == "traitor"
    with pytest.raises(SetupError, match="1 Traitor"):
        wt(8, loyalty={1: "traitor", 3: "traitor"})


def test_roles_rotate_each_course_the_noble_becomes_the_left_players_winetaster() -> None:
    game = wt(7)
    pour_wine_until_toast(game, caller=2)
    pass_until(game, phase="turns")
    assert [u.seats for u in game.state.units] == [(2, 3), (4, 5), (6, 7), (1,)]


def test_only_nobles_characters_are_face_up() -> None:
    game = wt(8, dealt=True)
    public = game.view(None)["characters"]
    assert sorted(public) == [2, 4, 6, 8]
    assert game.view(1)["character"] is not None and game.view(1)["winetaster_card"]
    assert "winetaster_card" not in game.view(2)


def test_winetasters_conserve_tokens() -> None:
    game = wt(12, host=12)
    assert game.state.all_tokens() == Counter(POOL)


def test_russian_goblette_keeps_the_final_actions_before_drinking() -> None:
    game = russian(host=3)
    pour_wine_until_toast(game, caller=3)
    order = []
    while game.step.kind == "final":
        order.append(game.current_player)
        play(game, Pass(game.current_player))
    assert order == [1, 2, 3]
    assert game.step.kind == "drink" and game.current_player == 1


def test_winetaster_may_use_the_nobles_turn_ability() -> None:
    from models.goblets.actions import Juggle

    game = table(8, host=8, characters={2: "Juggler", 1: "Sommelier"})
    assert game.current_player == 1
    with pytest.raises(Exception, match="Sommelier"):
        play(game, Peek(1, 3))  # the Winetaster's own card is face down
    play(game, Juggle(1, (2, 3)))
    assert game.current_player == 2


def test_an_impatient_noble_may_toast_before_the_winetaster_with_1_wine_left() -> None:
    for wine, asked in ((1, True), (2, False)):
        game = wt(8, host=8, characters={2: "Impatient"})
        game.state.units[0].screen[Token.WINE] = wine
        game.state.queue = []
        game._begin_turn()  # the pair's turn with ``wine`` Wine behind the screen
        assert (game.step.kind == "noble_first") is asked
        if asked:
            play(game, Toast(2))
            assert game.state.caller == 2


def test_a_nobles_toast_while_the_winetaster_is_up_names_the_wine_left() -> None:
    game = wt(8, host=8)  # pair (1, 2) plays first, with 3 Wine behind its screen
    assert game.current_player == 1 and game.step.kind == "turn"
    with pytest.raises(ToastWithWineLeft, match="3 Wine"):
        play(game, Toast(2))
    assert game.current_player == 1 and game.step.kind == "turn"
