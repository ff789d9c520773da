"""Property tests over random legal games: tokens conserved, no secret on the public view,
scores as the rule table says, and illegal actions leave no trace."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from models.goblets import Game, Options
from models.goblets.actions import Pass, Pour, Toast
from models.goblets.bots import choose_action
from models.goblets.errors import IllegalAction
from models.goblets.scoring import character_points, table_points
from models.goblets.tokens import POOL, Token

games = st.builds(
    lambda players, seed, memory, legacy, chars: (Options(players, memory, legacy, chars), seed),
    st.integers(2, 12), st.integers(0, 10_000), st.booleans(), st.booleans(), st.booleans())


def _secret_strings(game: Game) -> list[str]:
    return [t.value for t in Token]


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_legal_games_conserve_tokens_and_hide_secrets(table: tuple[Options, int]) -> None:
    options, seed = table
    game = Game(options, random.Random(seed))
    game.start()
    bot = random.Random(seed + 1)
    moves = 0
    while not game.is_over:
        assert +game.state.all_tokens() == Counter(POOL)
        public = json.dumps(game.view(None), default=str)
        for token in Token:
            # the public table never names a token (no screen, no goblet, no peek)
            if game.state.tie is None:
                assert f'"{token.value}"' not in public
        assert "screen" not in game.view(None) and "seen" not in game.view(None)
        game.apply(choose_action(game, bot))
        moves += 1
        assert moves < 5000
    assert +game.state.all_tokens() == Counter(POOL)
    assert game.state.winners
    vp = game.state.vp
    assert game.view(None)["vp"] == vp


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 6), st.integers(0, 10_000))
def test_scores_match_the_rule_table_without_characters(players: int, seed: int) -> None:
    game = Game(Options(players, characters=False), random.Random(seed))
    game.start()
    bot = random.Random(seed)
    while not game.is_over:
        course = game.state.course
        before = dict(game.state.vp)
        units = [(u.noble, u.house, u.target) for u in game.state.units]
        drank: dict[int, dict] = {}
        while game.state.course == course and not game.is_over:
            for h in game.apply(choose_action(game, bot)):
                if h.event == "drank":
                    drank[h.fields["seat"]] = h.fields
        if not drank:
            continue
        hist = game.state.history[course - 1]
        survived = hist["survived"]
        poisoned_houses = {h for s, h, _ in units if not survived[s]}
        assert survived == {s: d["survived"] for s, d in drank.items()}
        wine = {s: d["wine"] for s, d in drank.items()}
        best = max(wine.values())
        leaders = [s for s, w in wine.items() if w == best]
        for s, _house, target in units:
            expect = table_points(survived[s], target in poisoned_houses)
            expect += 1 if leaders == [s] else 0
            assert hist["points"][s] == expect
            assert game.state.vp[s] == before.get(s, 0) + expect


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(0, 10_000), st.integers(0, 60))
def test_illegal_actions_change_nothing(players: int, seed: int, moves: int) -> None:
    game = Game(Options(players), random.Random(seed))
    game.start()
    bot = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(choose_action(game, bot))
    before = copy.deepcopy(game.state)
    rng_before = game.rng.getstate()
    legal = set(game.legal_actions())
    for seat in range(1, players + 1):
        for bad in (Toast(seat), Pass(seat), Pour(seat, 99, (Token.WINE,)),
                    Pour(seat, 1, (Token.OGRE,))):
            if bad in legal:
                continue
            try:
                game.apply(bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{bad} was applied but not listed as legal")
            assert game.state == before
            assert game.rng.getstate() == rng_before


def test_character_points_pacifist_never_scores_the_target() -> None:
    from models.goblets.characters import Character

    for survived in (True, False):
        for target in (True, False):
            assert character_points(Character.PACIFIST, survived, target, False, 0) == \
                (2 if survived else 0)
