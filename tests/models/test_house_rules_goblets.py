"""Raise Your Goblets: house rules of docs/rules/goblets.md, each pinned by a test."""

from __future__ import annotations

import random
from collections import Counter

from models.goblets import tiebreak
from models.goblets.actions import Choose, Drink, Pass
from models.goblets.engine import Game
from models.goblets.scenario import events, pass_until, play, pour_wine_until_toast, table
from models.goblets.state import Options
from models.goblets.tokens import POOL, Token

GOBLETS = ["wine", "poison", "poison", "antidote"]
TARGETS = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


def test_house_rule_taster_may_decline_and_the_goblet_stays_as_it_is() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={2: "Taster"})
    pour_wine_until_toast(game, caller=3)
    pass_until(game, kind="taste")
    assert game.current_player == 2 and game.step.kind == "taste"
    before = Counter(game.state.places[1].tokens)
    assert before == Counter({Token.WINE: 3, Token.POISON: 1})
    out = play(game, Pass(2))
    assert not events(out, "tasted")
    drank = {d["seat"]: d for d in events(out, "drank")}
    assert drank[2]["tokens"] == {"wine": 3, "poison": 1} and drank[2]["poisoned"] is True


def test_house_rule_taster_and_gambler_choose_in_order_from_the_callers_left() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS, characters={1: "Taster", 4: "Gambler"})
    pour_wine_until_toast(game, caller=2)
    while game.step.kind not in ("taste", "gamble"):
        play(game, Pass(game.step.seat))  # the final actions
    # from the caller's left (seat 3): seat 4's Gambler first, then seat 1's Taster
    assert game.step.kind == "gamble" and game.current_player == 4
    play(game, Pass(4))
    assert game.step.kind == "taste" and game.current_player == 1


def test_house_rule_russian_goblette_scored_events_carry_the_vp_publicly() -> None:
    game = Game(Options(2), random.Random(3))
    game.start()
    # the first player calls the Toast as soon as they may, everyone else passes
    out = []
    for _ in range(200):
        if game.state.phase == "russian_drink" or game.step.kind == "drink":
            break
        seat = game.step.seat
        unit = game.state.units[game.step.unit]
        if unit.screen[Token.WINE] == 0 and game.legal_actions(seat) and any(
                type(a).__name__ == "Toast" for a in game.legal_actions(seat)):
            out += game.apply(game.legal_actions(seat)[-2])  # Toast (then Pass) are last
        elif unit.screen[Token.WINE] > 0:
            out += game.apply({"type": "pour", "seat": seat, "token": "wine", "goblet": 1})
        else:
            out += game.apply(Pass(seat))
    while game.step is not None and game.step.kind == "drink":
        taken = {i + 1 for i, g in enumerate(game.state.places) if g.drunk_by is not None}
        free = next(p for p in range(1, 7) if p not in taken)
        out += play(game, Drink(game.step.seat, free))
    scored = events(out, "scored")
    assert len(scored) == 2
    for fields in scored:
        assert set(fields) == {"seat", "vp", "total"}  # public, unlike the banquet's
    assert sum(f["vp"] for f in scored) >= 1


def test_house_rule_tie_break_stops_when_the_wine_is_found() -> None:
    game = table(4, goblets=GOBLETS, targets=TARGETS)
    state = game.state
    state.last_caller = 2
    state.vp = {1: 5, 2: 5, 3: 2, 4: 5}
    state.pool = Counter(POOL)  # as at the end of a course: every token back in the pool
    for unit in state.units:
        unit.screen = Counter()
    for goblet in state.places:
        goblet.tokens = Counter()
    tiebreak.begin_tie_break(state, game.rng, [1, 2, 4], [Token.WINE, Token.POISON, Token.POISON])
    assert state.tie.order == [2, 4, 1] and game.current_player == 2
    out = play(game, Choose(2, 1))
    assert events(out, "tie_goblet") == [{"seat": 2, "goblet": 1, "token": "wine", "survived": True}]
    over = events(out, "game_over")[0]
    assert over["winners"] == [2]
    assert 4 not in state.tie.taken and 1 not in state.tie.taken  # nobody else chose


def test_house_rule_winetasters_legacy_only_the_poisoned_noble_draws_a_new_character() -> None:
    # 8 players: course 1 pairs (Winetaster 1, Noble 2), (3, 4), (5, 6), (7, 8)
    game = table(8, goblets=["poison", "wine", "poison", "antidote"], dealt=True,
                 characters={}, variants=("legacy",))
    before = dict(game.state.characters)
    pour_wine_until_toast(game, caller=4)
    out = pass_until(game, phase="turns")
    poisoned = {d["seat"] for d in events(out, "drank") if d["poisoned"]}
    assert poisoned and poisoned <= {2, 4, 6, 8}  # only Nobles drink
    redrawn = {h.seat for h in out if h.event == "new_character"}
    assert redrawn == poisoned
    for seat in (1, 3, 5, 7):  # no Winetaster is ever poisoned: they keep their cards
        assert game.state.characters[seat] == before[seat]
