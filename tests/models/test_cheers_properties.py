"""Properties over random legal games (bots and random legal choices)."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.cheers_games import random_game_benchmark
from models.cheers.bots import Bot, play_bot_game
from models.cheers.cards import CARD_IDS
from models.cheers.engine import new_game
from models.cheers.rules import goal_holds
from models.cheers.setup import SPLITS, build_setup
from models.cheers.view import view

CONFIGS = [(n, s) for n, splits in SPLITS.items() for s in splits]


def _secrets(state) -> set[str]:
    hidden = set(state.discard_pile)
    for seat in state.seats:
        hidden |= set(state.hands[seat])
    return hidden


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), config=st.sampled_from(CONFIGS), masquerade=st.booleans(),
       random_moves=st.booleans())
def test_random_legal_games_keep_every_rule(seed, config, masquerade, random_moves) -> None:
    players, split = config
    rng = random.Random(seed)
    setup = build_setup(players, rng, split=split, masquerade=masquerade, turn_cap=150)
    state, _ = new_game(setup, rng)
    chooser = random.Random(seed ^ 0x5EED)
    bot = Bot(chooser)
    while not state.over:
        action = chooser.choice(state.legal_actions()) if random_moves else bot.choose(state)
        events = state.apply(action)
        # 50 cards always accounted for
        assert Counter(state.all_cards()) == Counter(CARD_IDS)
        if state.step == "turn" or state.over:  # the move has resolved
            assert all(len(f) <= 6 for f in state.fronts.values())
            holders = [s for s in state.seats if goal_holds(state.fronts[s], state.goal(s))]
            assert bool(holders) == (state.winner_team is not None)
            if holders:
                assert state.winner_seat in holders
        if not state.over:
            # no secret in the public view or in the public events
            secrets = _secrets(state)
            public = repr(view(state, None))
            assert not any(f"'{c}'" in public for c in secrets)
            for e in events:
                if e.event in ("drew", "dealt", "discarded_hand", "limit_discard"):
                    assert not any(c in repr(e.fields) for c in CARD_IDS)
                assert "goal" not in repr(e.fields)


def test_bot_games_end_and_mostly_with_a_winner() -> None:
    results = Counter(play_bot_game(seed, players).end_reason
                      for seed in range(12) for players in (3, 4, 6))
    assert results["victory"] >= 30


def test_random_game_benchmark_counts_complete_games() -> None:
    assert random_game_benchmark(0.3) > 0
