"""Golden Cheers replays (tests/replays/cheers), checked two ways.

1. Byte for byte: each ``NAME.jsonl`` replays to ``NAME.expected.jsonl``.
2. Against the rules, not against the code: a small referee written from
   docs/rules/cheers.md follows the public events (and, for the face-down limit
   discards, the inputs) and checks every rule it can see: cheers exactly when the
   played SMALL icon meets a BIG icon in that front, the two receivers, fronts at
   most 6 when a turn starts, hands refilled to 3 (4 for the odd-count house rule),
   clockwise turns, victory exactly when a front holds its goal after the move, the
   first in turn order from the active player, and no secret in any public event.
   Then each scenario's own rule is asserted.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import cheers_referee  # tests/controller, on the test path
import pytest

from controller import replay

HERE = Path(__file__).resolve().parents[1] / "replays" / "cheers"
GAMES = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))

INGREDIENTS = ("grenadine", "mint", "lemon", "cassis", "curacao")


def card(cid: str) -> tuple[str, str]:
    """(big, small) of a card id, from the id rule in the rules page."""
    n = int(cid[1:]) - 1
    return INGREDIENTS[n // 10], INGREDIENTS[(n % 10) // 2]


def run(path: Path, drop: frozenset[int] = frozenset()
        ) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    """Replay a file (leaving out the input lines numbered in ``drop``, 2 = first input)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = [line for n, line in enumerate(lines, start=1) if n not in drop]
    header, inputs = replay.load(kept, path.name)
    events: list[dict[str, Any]] = []
    replay.run(header, inputs, events.append)
    return header, events, inputs


def events_of(name: str) -> list[dict[str, Any]]:
    return run(HERE / f"{name}.jsonl")[1]


def named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == name]


def strip(e: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in e.items() if k != "t"}


# -- the referee ---------------------------------------------------------------------------

# what each public event may say: the rules-page referee's list
PUBLIC_FIELDS = cheers_referee.PUBLIC_FIELDS


def holds(front: list[str], goal: list[str]) -> bool:
    have = Counter(card(c)[0] for c in front)
    need = Counter(goal)
    return all(i in need for i in have) and all(have[i] >= n for i, n in need.items())


class Referee:
    """Follows a game's events and asserts the rules page at every step."""

    def __init__(self, header: dict[str, Any], events: list[dict[str, Any]], inputs: list[Any]) -> None:
        self.header, self.events = header, events
        self.limit_cards = {inp.t: inp.action["card"] for inp in inputs
                            if inp.kind == "do" and inp.action.get("type") == "limit_discard"}
        setup = named(events, "setup")[0]
        self.n = setup["players"]
        self.sizes = {int(s): k for s, k in setup["hand_sizes"].items()}
        revealed = named(events, "goals_revealed")
        self.teams = {int(s): t for s, t in revealed[0]["teams"].items()} if revealed else None
        self.goals = revealed[0]["goals"] if revealed else None
        self.masquerade = setup["masquerade"]

    def check(self) -> None:
        fronts: dict[int, list[str]] = {s: [] for s in range(1, self.n + 1)}
        hands: dict[int, int] = {s: 0 for s in fronts}
        moved_by_cheers: set[str] = set()
        active, over, pile_empty_ended = None, False, False
        last_turn = 0
        for i, e in enumerate(self.events):
            kind = e["event"]
            assert set(e) - {"t", "event"} <= PUBLIC_FIELDS[kind], e  # nothing secret is public
            if kind == "illegal":
                continue
            assert not over or kind in ("goals_revealed",), f"{e} after game_over"
            if kind == "dealt":
                assert e["count"] == 3, "the rules: deal 3 cards to each hand"
                hands[e["seat"]] = e["count"]
            elif kind == "turn":
                if active is not None:
                    assert e["seat"] == active % self.n + 1, "turns go clockwise"
                    assert hands[active] == self.sizes[active], "the active player refilled"
                assert e["turn"] == last_turn + 1
                last_turn, active = e["turn"], e["seat"]
                assert all(len(f) <= 6 for f in fronts.values()), "front limit"
                if self.goals:
                    assert not any(holds(fronts[s], self.goals[self.teams[s]]) for s in fronts), \
                        "a held goal must end the game"
            elif kind == "played":
                assert e["seat"] == active
                assert (e["big"], e["small"]) == card(e["card"])
                hands[active] -= 1
                matches = [c for c in fronts[e["to"]] if card(c)[0] == e["small"]]
                nxt = self.events[i + 1]
                fronts[e["to"]].append(e["card"])
                if matches:
                    assert nxt["event"] == "cheers_called" and nxt["matches"] == matches
                    assert nxt["target"] == e["to"] and nxt["played"] == e["card"]
                    assert self.events[i + 2] == {**self.events[i + 2], "event": "awaiting",
                                                  "seat": e["to"], "decision": "cheers"}
                else:
                    assert nxt["event"] != "cheers_called", "no SMALL=BIG match, no cheers"
            elif kind == "cheers":
                target = e["target"]
                given = {int(s): c for s, c in e["given"].items()}
                assert len(given) == 2 and target not in given, "two different OTHER players"
                assert sorted(given.values()) == sorted([e["played"], e["clinked"]])
                assert card(e["clinked"])[0] == card(e["played"])[1]
                if not self.masquerade and self.teams:
                    assert any(self.teams[s] != self.teams[target] for s in given), "one to an enemy"
                fronts[target].remove(e["played"])
                fronts[target].remove(e["clinked"])
                for s, c in given.items():
                    fronts[s].append(c)
                moved_by_cheers |= set(given.values())
                assert self.events[i + 1]["event"] != "cheers_called", "moved cards never cheer"
            elif kind == "pushed":
                assert e["seat"] == active and e["to"] != active
                fronts[active].remove(e["card"])
                fronts[e["to"]].append(e["card"])
                assert self.events[i + 1]["event"] != "cheers_called", "a push never cheers"
            elif kind == "discarded_hand":
                assert e["count"] == hands[e["seat"]]
                hands[e["seat"]] = 0
            elif kind == "limit_discard":
                assert len(fronts[e["seat"]]) == 7, "only a front over 6 discards"
                fronts[e["seat"]].remove(self.limit_cards[e["t"]])
            elif kind == "drew":
                assert e["seat"] == active, "only the active player refills"
                hands[active] += e["count"]
            elif kind == "victory":
                holders = [s for s in self._order(active) if holds(fronts[s], self.goals[self.teams[s]])]
                assert holders and e["player"] == holders[0], "first holder from the active player"
                assert e["team"] == self.teams[e["player"]]
                assert all(len(f) <= 6 for f in fronts.values()), "limit discards come first"
            elif kind == "game_over":
                over = True
                if e["reason"] == "victory":
                    assert self.events[i - 1]["event"] == "victory"
                else:
                    assert e["winner"] is None
                    pile_empty_ended = e["reason"] == "draw_pile_exhausted"
        if self.goals and not any(e["event"] == "victory" for e in self.events):
            assert not any(holds(fronts[s], self.goals[self.teams[s]]) for s in fronts)
        if pile_empty_ended:
            assert [e["pile"] for e in named(self.events, "reshuffled")] == [2, 3, 4]

    def _order(self, first: int) -> list[int]:
        return [(first - 1 + k) % self.n + 1 for k in range(self.n)]


# -- byte for byte and the referee on every file ---------------------------------------------

def expected(path: Path) -> str:
    return path.with_name(path.stem + ".expected.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_cheers_golden_replay_prints_the_expected_events(path: Path) -> None:
    out = io.StringIO()
    replay.main(str(path), out)
    assert out.getvalue() == expected(path)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_cheers_golden_replay_keeps_every_rule(path: Path) -> None:
    header, events, inputs = run(path)
    assert named(events, "goals_revealed"), "every golden game is played to its end or a cap"
    Referee(header, events, inputs).check()


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_cheers_illegal_actions_change_nothing(path: Path) -> None:
    """Leaving out every refused input gives the very same game."""
    _, events, _ = run(path)
    refused_t = {e["t"] for e in named(events, "illegal")}
    lines = path.read_text(encoding="utf-8").splitlines()
    drop = frozenset(n for n, line in enumerate(lines, start=1) if n > 1 and json.loads(line)["t"] in refused_t)
    _, clean, _ = run(path, drop)
    assert [strip(e) for e in events if e["event"] != "illegal"] == [strip(e) for e in clean]
    assert all(e["reason"] and e["error"] for e in named(events, "illegal"))


def test_cheers_there_are_golden_replays() -> None:
    assert len(GAMES) >= 10


# -- each scenario's own rule ---------------------------------------------------------------

def errors(events: list[dict[str, Any]]) -> list[str]:
    return [e["error"] for e in named(events, "illegal")]


def test_cheers_rule_three_actions_and_who_chooses_the_clink() -> None:
    ev = events_of("actions_and_cheers")
    played = named(ev, "played")
    # a card on an empty front, and BIG-on-SMALL (reverse) matching, are no cheers
    assert [p["card"] for p in played[:2]] == ["C01", "C03"]
    called = named(ev, "cheers_called")
    assert called[0] == {**called[0], "target": 1, "matches": ["C01", "C03"]}
    assert errors(ev)[:7] == ["NotAClinkingCard", "NotYourTurn", "CardNotInFront", "CheersToTarget",
                              "CheersToSamePlayer", "NoSuchSeat", "NotThisStep"]
    first = named(ev, "cheers")[0]
    assert first["clinked"] == "C03" and first["given"] == {"3": "C02", "2": "C03"}
    # L/G given to seat 2 beside a Grenadine card: moved by a cheers, it never cheers again
    second = named(ev, "cheers")[1]
    assert second["given"] == {"2": "C21", "4": "C02"}
    # L/G pushed onto seat 4's G/G: a push never cheers; a push draws nothing
    push_at = ev.index(named(ev, "pushed")[0])
    assert ev[push_at + 1]["event"] == "turn"
    assert named(ev, "discarded_hand")[0] == {**named(ev, "discarded_hand")[0], "seat": 3, "count": 3}
    assert "EmptyFront" in errors(ev) and "PushToSelf" in errors(ev) and "CardNotInHand" in errors(ev)
    assert errors(ev)[-2:] == ["BadAction", "UnknownAction"]


def test_cheers_rule_front_limit_then_victory_poison_and_non_active_winner() -> None:
    ev = events_of("limit_and_victory")
    limits = named(ev, "limit_discard")
    assert limits == [{"t": 12.0, "event": "limit_discard", "seat": 2},
                      {"t": 14.0, "event": "limit_discard", "seat": 2}]
    # after the second discard seat 2 holds P P B B L and a Grenadine: no victory, play goes on
    after = ev[ev.index(limits[1]) + 1:]
    assert after[0]["event"] == "drew" and after[1] == {**after[1], "event": "turn", "seat": 1}
    # seat 1 plays, seat 2's cheers gives the Grenadine away: seat 2 (not active) wins for B
    tail = [strip(e) for e in ev[-5:]]
    assert tail[0]["event"] == "cheers" and tail[0]["given"] == {"1": "C11", "3": "C03"}
    assert tail[1] == {"event": "victory", "team": "B", "player": 2}
    assert tail[2] == {"event": "game_over", "winner": "B", "reason": "victory"}
    assert tail[3]["event"] == "goals_revealed"
    assert tail[4]["event"] == "illegal" and tail[4]["error"] == "GameIsOver"
    assert not any(e["event"] == "drew" and e["t"] == 16.0 for e in ev), "the game ends at once"


def test_cheers_rule_limit_discards_in_turn_order_from_the_active_player() -> None:
    ev = events_of("limit_after_cheers")
    waits = [(e["seat"], e["decision"]) for e in named(ev, "awaiting")]
    assert waits[-2:] == [(4, "limit_discard"), (1, "limit_discard")]
    assert errors(ev) == ["NotYourTurn"]
    assert [e["seat"] for e in named(ev, "limit_discard")] == [4, 1]


def test_cheers_rule_simultaneous_goals_first_from_the_active_player() -> None:
    ev = events_of("simultaneous_victory")
    # seat 3 is active; seats 1 (A) and 4 (B) complete together: 3, 4, 1, 2 -> seat 4
    assert strip(named(ev, "victory")[0]) == {"event": "victory", "team": "B", "player": 4}


def test_cheers_rule_at_least_one_card_to_an_enemy_of_the_target() -> None:
    for name in ("enemy_requirement_six", "odd_five_two_teams"):
        ev = events_of(name)
        refused = [e for e in named(ev, "illegal") if e["error"] == "CheersWithoutEnemy"]
        assert refused, name
        assert all("enemy" in e["reason"] for e in refused)


def test_cheers_rule_masquerade_has_secret_teams_and_no_enemy_requirement() -> None:
    ev = events_of("masquerade_no_enemy")
    assert named(ev, "setup")[0]["teams"] is None
    assert named(ev, "cheers")[0]["given"] == {"3": "C11", "5": "C01"}  # both teammates of seat 1
    assert not named(ev, "illegal")
    assert strip(named(ev, "game_over")[0]) == {"event": "game_over", "winner": None, "reason": "turn_cap"}
    revealed = ev.index(named(ev, "goals_revealed")[0])
    assert all("teams" not in e or e["teams"] is None for e in ev[:revealed])


@pytest.mark.parametrize("name, split, teams, sizes", [
    ("odd_three", "2+1", {"A": [1, 3], "B": [2]}, {"1": 3, "2": 4, "3": 3}),
    ("odd_five_two_teams", "3+2", {"A": [1, 3, 5], "B": [2, 4]}, {"1": 3, "2": 4, "3": 3, "4": 4, "5": 3}),
    ("odd_five_three_teams", "2+2+1", {"A": [1, 4], "B": [2, 5], "C": [3]},
     {"1": 3, "2": 3, "3": 4, "4": 3, "5": 3}),
    ("six_three_teams", "2+2+2", {"A": [1, 4], "B": [2, 5], "C": [3, 6]}, {str(s): 3 for s in range(1, 7)}),
])
def test_cheers_rule_seat_orders_and_odd_count_hand_of_four(name, split, teams, sizes) -> None:
    ev = events_of(name)
    setup = named(ev, "setup")[0]
    assert (setup["split"], setup["teams"], setup["hand_sizes"]) == (split, teams, sizes)
    assert {str(e["seat"]): e["count"] for e in named(ev, "dealt")} == {s: 3 for s in sizes}, "every hand dealt 3"
    four = [int(s) for s, k in sizes.items() if k == 4]
    played_before: set[int] = set()  # seats whose turn has ended: their hand was refilled
    for e in ev:
        if e["event"] == "discarded_hand":
            refilled = e["seat"] in played_before
            assert e["count"] == (4 if e["seat"] in four and refilled else 3), e
        elif e["event"] == "drew":
            played_before.add(e["seat"])
    assert not four or any(e["event"] == "drew" and e["seat"] in four for e in ev), "a hand of four was refilled"


def test_cheers_rule_first_player_then_clockwise() -> None:
    ev = events_of("odd_five_three_teams")
    assert [e["seat"] for e in named(ev, "turn")] == [5, 1, 2, 3, 4, 5]


def test_cheers_rule_draw_pile_rebuilt_three_times_then_no_winner() -> None:
    ev = events_of("draw_pile_exhausted")
    assert [(e["pile"], e["cards"]) for e in named(ev, "reshuffled")] == [(2, 39), (3, 39), (4, 39)]
    # turn 13 draws the first pile's last 2 cards, the discards are shuffled, then 1 more
    at = ev.index(named(ev, "reshuffled")[0])
    assert [strip(e) for e in ev[at - 1:at + 2:2]] == [{"event": "drew", "seat": 1, "count": 2},
                                                       {"event": "drew", "seat": 1, "count": 1}]
    over = ev.index(named(ev, "game_over")[0])
    assert strip(ev[over]) == {"event": "game_over", "winner": None, "reason": "draw_pile_exhausted"}
    # 38 cards after the deal, then three piles of 39: the 4th pile's last card is drawn on turn 52
    assert strip(ev[over - 1]) == {"event": "drew", "seat": 4, "count": 2}
    assert named(ev, "turn")[-1]["turn"] == 52
    assert errors(ev) == ["GameIsOver"]


def test_cheers_golden_events_never_name_a_hand_goal_or_discard_before_the_end() -> None:
    for path in GAMES:
        _, ev, _ = run(path)
        end = next(i for i, e in enumerate(ev) if e["event"] == "game_over")
        text = json.dumps(ev[:end])
        assert '"goals"' not in text and '"goal"' not in text and '"hand"' not in text
        assert '"cards": [' not in text and '"card": "' not in json.dumps(named(ev, "limit_discard"))
        for e in ev[:end]:
            if e["event"] in ("dealt", "drew", "discarded_hand"):
                assert isinstance(e["count"], int) and "cards" not in e
