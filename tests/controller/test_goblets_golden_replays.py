"""Golden Raise Your Goblets replays (tests/replays/goblets), checked two ways.

1. Byte for byte: each ``NAME.jsonl`` replays to ``NAME.expected.jsonl``.
2. Against the rules, not against the code: ``goblets_referee.Referee``, written from
   docs/rules/goblets.md, follows each game beside the box and asserts every rule it can
   see (legal and refused actions, turn and toast order, the reveal, survival, scoring,
   the variants, the tie-break, privacy). Then each scenario's own rule is asserted.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from goblets_referee import Referee  # tests/controller, on the test path

from controller import replay
from controller.session import GameSession

HERE = Path(__file__).resolve().parents[1] / "replays" / "goblets"
GAMES = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
HIDDEN = {"tokens", "screen", "seen", "goblet_tokens", "vp_own"}


def run(path: Path) -> tuple[dict[str, Any], list[Any], list[dict[str, Any]], Any]:
    """Replay a file input by input; the public table view must never show a hidden token
    nor, before the end, a victory point."""
    header, inputs = replay.load(path.read_text(encoding="utf-8").splitlines(), path.name)
    events: list[dict[str, Any]] = [{"t": 0.0, "event": "start", "game": header["game"],
                                     "seed": header["seed"], "players": header["players"]}]
    session = GameSession(header, sink=lambda e: events.append(json.loads(replay.dumps(e))))
    engine = session.flow.engine  # type: ignore[attr-defined]
    for inp in inputs:
        session.feed(inp, record=False)
        public = engine.view(None)
        text = json.dumps(public)
        assert not any(f'"{k}"' in text for k in HIDDEN), public
        if not engine.is_over:
            assert public["vp"] is None or engine.state.options.mode == "russian", public
    session.run_out()
    return header, inputs, events, engine.state


def referee(name: str) -> Referee:
    header, inputs, events, truth = run(HERE / f"{name}.jsonl")
    ref = Referee(header, inputs, events, truth)
    ref.check()
    ref.check_private_truth()
    return ref


def refusals(ref: Referee) -> list[tuple[str, str]]:
    return [(do["type"], err) for do, err in ref.refused]


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_goblets_golden_replay_prints_the_expected_events(path: Path) -> None:
    out = io.StringIO()
    header, inputs = replay.load(path.read_text(encoding="utf-8").splitlines(), path.name)
    replay.run(header, inputs, lambda e: out.write(replay.dumps(e) + "\n"))
    assert out.getvalue() == path.with_name(path.stem + ".expected.jsonl").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_goblets_golden_replay_follows_the_rules_page(path: Path) -> None:
    referee(path.stem)


# -- each scenario's own rule --------------------------------------------------------------

def test_goblets_base_game_refusals_turn_order_three_courses_and_the_tie_break() -> None:
    ref = referee("base_four")
    assert refusals(ref) == [
        ("toast", "ToastWithWineLeft"), ("pour", "NoActionsLeft"),
        ("toast", "ToastNotFirstAction"), ("pour", "NoActionsLeft"),
        ("pour", "TokenNotBehindScreen"), ("toast", "NotAllowedNow"),
        ("rotate", "NotYourAbility"), ("choose", "GameIsOver")]
    assert ref.course == 3 and ref.over
    events = run(HERE / "base_four.jsonl")[2]
    over = [e for e in events if e["event"] == "game_over"][0]
    assert over["vp"] == {"1": 6, "2": 2, "3": 4, "4": 6}
    assert over["tie_break"]["order"] == [1, 4] and over["winners"] == [4]


def test_goblets_characters_juggler_sommelier_ogre_cook_unicorn_keeper_toastmaster() -> None:
    ref = referee("characters_a")
    assert refusals(ref) == [("juggle", "AbilityAlreadyUsed"), ("peek", "NotYourAbility"),
                             ("peek", "NotYourAbility"), ("juggle", "NotAllowedNow")]
    drank = [e for e in run(HERE / "characters_a.jsonl")[2] if e["event"] == "drank"]
    ogre = [e for e in drank if "ogre" in e["tokens"] and "unicorn" not in e["tokens"]]
    assert ogre and all(e["poisoned"] and e["tokens"].get("antidote") for e in ogre)
    saved = [e for e in drank if "unicorn" in e["tokens"] and ("ogre" in e["tokens"]
                                                                or "poison" in e["tokens"])]
    assert saved and all(e["survived"] for e in saved)


def test_goblets_characters_schemer_glutton_martyr_taster_alchemist_hoarder() -> None:
    ref = referee("characters_b")
    assert refusals(ref) == [("transmute", "AbilityAlreadyUsed"), ("scheme", "AbilityAlreadyUsed"),
                             ("pour", "TokenNotBehindScreen"), ("transmute", "NotAllowedNow"),
                             ("taste", "BadChoice")]
    # course 1: the Glutton survives with 3+ Wine (1 + 1 + 1 + 1), the Martyr is poisoned
    # with their target poisoned and scores 3
    assert ref.course_vp[0][2] == 4 and ref.course_vp[0][3] == 3


def test_goblets_characters_impatient_plotter_pacifist_avenger_spy_butler() -> None:
    ref = referee("characters_c")
    assert refusals(ref) == [("pour", "NotAllowedNow"), ("plot", "BadChoice"),
                             ("spy", "AbilityAlreadyUsed"), ("rotate", "NotAllowedNow"),
                             ("toast", "ToastWithWineLeft"), ("toast", "ToastWithWineLeft")]
    assert "toast 1" in ref.log  # the Impatient toasts with 1 Wine behind the screen


def test_goblets_characters_hypochondriac_bartender_gambler_chaperone() -> None:
    ref = referee("characters_d")
    assert refusals(ref) == [("pour", "AbilityAlreadyUsed"), ("pour", "NotYourAbility"),
                             ("peek", "NotYourTurn")]
    # the Hypochondriac's one Antidote removed the Bartender's two Poisons
    assert "c1 1 survived" in ref.log


def test_goblets_russian_goblette_three_players_to_a_shared_victory() -> None:
    ref = referee("russian_three")
    assert refusals(ref) == [("rotate", "NotAllowedNow"), ("swap", "BadChoice"),
                             ("pour", "NoActionsLeft"), ("peek", "BadChoice"),
                             ("drink", "BadChoice"), ("drink", "GameIsOver")]
    assert ref.course_vp == [{1: 0, 2: 0, 3: 1}, {1: 0, 2: 1, 3: 0}, {1: 1, 2: 1, 3: 1},
                             {1: 0, 2: 1, 3: 1}]
    assert ref.vp == {1: 1, 2: 3, 3: 3}


def test_goblets_russian_goblette_two_players_ties_share_the_course_and_the_victory() -> None:
    ref = referee("russian_two")
    assert ref.vp == {1: 3, 2: 3} and ref.over


def test_goblets_winetasters_seven_players_pairs_roles_and_the_extra_player() -> None:
    ref = referee("winetasters_seven")
    assert refusals(ref) == [("toast", "WinetasterCannotToast"), ("peek", "NobleCannotPeek"),
                             ("toast", "WinetasterCannotToast"), ("toast", "WinetasterCannotToast")]
    c1, c2 = ref.course_vp[0], ref.course_vp[1]
    assert c1[1] == c1[2] and c1[5] == c1[6]  # Loyal Winetasters score as their Nobles
    assert c1[3] == 0 and c1[4] > 0           # the Traitor, Noble survived
    assert c2[6] == 3                         # the Traitor, Noble poisoned


def test_goblets_raise_your_memory_and_legacy() -> None:
    ref = referee("memory_legacy")
    assert refusals(ref) == [("scheme", "NotAllowedNow")]
    events = run(HERE / "memory_legacy.jsonl")[2]
    assert all(e["coaster"] is None for e in events if e["event"] == "drank")
    drawn = [(e["t"], e["seat"]) for e in events if e["event"] == "new_character"]
    assert len(drawn) == 4  # two after each of the first two courses, none after the last
