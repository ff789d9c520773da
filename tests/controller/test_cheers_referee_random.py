"""Cheers played against ``cheers_referee.Referee``, a referee written from the rules pages.

Deterministic random games (fixed seeds) at 3, 4, 5 (3+2 and 2+2+1) and 6 (3+3 and 2+2+2)
players, with and without Masquerade, are driven through the box's own flow the way a
replay drives it (``do`` inputs fed to a :class:`GameSession`): random legal moves, a share
of illegal ones, the target's cheers choices and the limit discards. After every input the
referee asserts that the box's events, table, menus and private screens are the rules'.
Each game's script then replays, as a replay file, to the very same events. The golden
replays of tests/replays/cheers are followed by the same referee, and the referee itself is
shown to catch a box that breaks a rule.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import pytest
from cheers_referee import (  # tests/controller, on the test path
    CARD_IDS,
    INGREDIENTS,
    SEAT_ORDERS,
    Referee,
    Screen,
    Seen,
    Tally,
    icons,
)

from controller import replay
from controller.flow import Input
from controller.session import GameSession

HERE = Path(__file__).resolve().parents[1] / "replays" / "cheers"
GOLDEN = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
CONFIGS = [(3, "2+1"), (4, "2+2"), (5, "3+2"), (5, "2+2+1"), (6, "3+3"), (6, "2+2+2")]
MAX_INPUTS = 900


# -- the box, seen as the players see it ----------------------------------------------------

class Box:
    """One game on the box: inputs go in as a replay feeds them; what comes out is read as
    the table and each seat's own screen show it."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header
        self.events: list[dict[str, Any]] = []
        self.session = GameSession(header, sink=lambda e: self.events.append(json.loads(replay.dumps(e))))
        self.t = 0.0
        self.lines: list[dict[str, Any]] = []

    @property
    def state(self) -> Any:
        return self.session.flow.state  # type: ignore[attr-defined]

    def seen(self, do: dict[str, Any] | None, since: int) -> Seen:
        state = self.state
        menu = [a.to_dict() for a in state.legal_actions()]
        return Seen(do, self.events[since:], table_of(state), screens_of(state), menu)

    def feed(self, do: dict[str, Any]) -> Seen:
        since = len(self.events)
        self.t += 1.0
        self.lines.append({"t": self.t, "do": do})
        self.session.feed(Input(self.t, "do", action=do), record=False)
        return self.seen(do, since)


def table_of(state: Any) -> dict[str, Any]:
    """The public table (``view(None)``) in plain values."""
    v = state.view(None)
    cheers = None if v.cheers is None else \
        (v.cheers.target, v.cheers.played.id, sorted(c.id for c in v.cheers.matches))
    return {"fronts": {s: [c.id for c in f] for s, f in v.fronts.items()},
            "hand_sizes": dict(v.hand_sizes), "draw_pile": v.draw_pile, "discard_pile": v.discard_pile,
            "pile": v.pile, "current": v.current_player, "step": str(v.step), "over": v.over,
            "cheers": cheers, "limit_seats": list(v.limit_seats),
            "teams": None if v.teams is None else dict(v.teams),
            "goals": None if v.goals is None else {t: [str(i.value) for i in g] for t, g in v.goals.items()},
            "hand": v.hand, "goal": v.goal}


def screens_of(state: Any) -> dict[int, Screen]:
    """What each seat's private view shows its owner."""
    out = {}
    for seat in range(1, state.setup.players + 1):
        v = state.view(seat)
        out[seat] = Screen([c.id for c in v.hand], [str(i.value) for i in v.goal], str(v.team),
                           list(v.teammates))
    return out


def start(header: dict[str, Any]) -> tuple[Box, Referee]:
    box = Box(header)
    ref = Referee(header)
    ref.start(box.seen(None, 0))
    return box, ref


# -- the players: random, a little greedy, sometimes wrong -----------------------------------

@dataclass
class Style:
    illegal: float = 0.15  # how often an input breaks a rule
    greedy: float = 0.6  # how often the move that helps the own team most is taken
    discard: float = 0.08  # how often the whole hand is discarded
    give_map: float = 0.3  # how often a cheers' give is written as a map
    spread: bool = False  # cards go to the smallest fronts: the discards stay empty for long
    same_goals: bool = False  # every team is dealt one goal (fixed deals): goals met together
    tie: bool = False  # everyone helps every front, and waits to complete two at once


def after(ref: Referee, a: dict[str, Any]) -> dict[int, list[str]]:
    """The fronts once ``a`` has moved its cards (a cheers it may call aside)."""
    fronts = {s: list(f) for s, f in ref.fronts.items()}
    seat = a["seat"]
    if a["type"] == "play":
        fronts[a["to"]].append(a["card"])
    elif a["type"] == "push":
        fronts[seat].remove(a["card"])
        fronts[a["to"]].append(a["card"])
    elif a["type"] == "limit_discard":
        fronts[seat].remove(a["card"])
    elif a["type"] == "cheers":
        p = ref.pending
        assert p is not None
        fronts[seat].remove(a["clink"])
        fronts[seat].remove(p.played)
        fronts[a["give"][0]].append(p.played)
        fronts[a["give"][1]].append(a["clink"])
    return fronts


def missing_in(ref: Referee, seat: int, front: list[str]) -> int:
    goal = Counter(ref.goals[ref.teams[seat]])
    have = Counter(icons(c)[0] for c in front)
    return sum(max(0, k - have[i]) for i, k in goal.items()) + sum(k for i, k in have.items() if i not in goal)


def gain(ref: Referee, a: dict[str, Any], everyone: bool = False) -> float:
    """How much a move helps the mover's team (or, ``everyone``, all fronts) near its goal."""
    own = ref.teams[a["seat"]]
    fronts = after(ref, a)
    return sum((missing_in(ref, s, ref.fronts[s]) - missing_in(ref, s, fronts[s]))
               * (1 if everyone or ref.teams[s] == own else -0.5) for s in ref.seats)


def completes(ref: Referee, a: dict[str, Any]) -> int:
    """How many fronts would hold their goal after ``a``."""
    fronts = after(ref, a)
    return sum(missing_in(ref, s, fronts[s]) == 0 for s in ref.seats)


def seek_a_tie(ref: Referee, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Moves that complete two fronts at once; else the ones that complete none."""
    count = {id(a): completes(ref, a) for a in legal}
    return [a for a in legal if count[id(a)] >= 2] or [a for a in legal if count[id(a)] == 0] or legal


def choose_legal(ref: Referee, rng: random.Random, style: Style) -> dict[str, Any]:
    legal = ref.legal()
    if ref.step_name() == "turn":
        discard = [a for a in legal if a["type"] == "discard_hand"]
        empty = not ref.hands[ref.active] and rng.random() < 0.5  # house rule: an empty hand
        if empty or rng.random() < style.discard or len(legal) == 1:
            return discard[0]
        legal = [a for a in legal if a["type"] != "discard_hand"]
        if style.spread:
            legal = spread_out(ref, legal)
    if style.tie:
        legal = seek_a_tie(ref, legal)
    if rng.random() < style.greedy:
        score = {id(a): gain(ref, a, style.tie) for a in legal}
        best = max(score.values())
        legal = [a for a in legal if score[id(a)] == best]
    a = dict(rng.choice(legal))
    if a["type"] == "cheers":
        a = cheers_form(ref, a, rng, style)
    return a


def spread_out(ref: Referee, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays and pushes onto the smallest fronts (plays first)."""
    moves = [a for a in legal if a["type"] == "play"] or legal
    quiet = [a for a in moves if a["type"] != "play" or not any(
        icons(c)[0] == icons(a["card"])[1] for c in ref.fronts[a["to"]])]
    moves = quiet or moves
    least = min(len(ref.fronts[a["to"]]) for a in moves)
    return [a for a in moves if len(ref.fronts[a["to"]]) == least]


def cheers_form(ref: Referee, a: dict[str, Any], rng: random.Random, style: Style) -> dict[str, Any]:
    """The same cheers written another way the page allows: a give map, ``keep_clink``, or
    the clink left out when only one card matches."""
    p = ref.pending
    assert p is not None
    x, y = a["give"]
    roll = rng.random()
    if roll < style.give_map / 2:
        return {"type": "cheers", "seat": a["seat"], "give": {str(x): p.played, str(y): a["clink"]}}
    if roll < style.give_map:
        return {"type": "cheers", "seat": a["seat"], "clink": a["clink"], "give": {p.played: x, a["clink"]: y}}
    if roll < style.give_map + 0.1:
        return {"type": "cheers", "seat": a["seat"], "keep_clink": a["clink"], "give": [x, y]}
    if len(p.matches) == 1 and roll < style.give_map + 0.3:
        return {"type": "cheers", "seat": a["seat"], "give": [x, y]}
    return a


def choose_illegal(ref: Referee, rng: random.Random) -> dict[str, Any]:
    """An input that likely breaks a rule now (the referee, not this, says which)."""
    n, seats = ref.n, ref.seats
    seat = ref.deciding() or 1
    others = [s for s in seats if s != seat]
    elsewhere = [c for s in others for c in ref.hands[s] + ref.fronts[s]] or list(CARD_IDS)
    front = ref.fronts[seat]
    options: list[dict[str, Any]] = [
        {"type": "play", "seat": rng.choice(others), "card": rng.choice(list(CARD_IDS)), "to": seat},
        {"type": "play", "seat": seat, "card": rng.choice(elsewhere), "to": rng.choice(seats)},
        {"type": "play", "seat": seat, "card": rng.choice(ref.hands[seat] or ["C01"]), "to": rng.choice([0, n + 1])},
        {"type": "push", "seat": seat, "card": rng.choice(front or ["C01"]), "to": seat},
        {"type": "push", "seat": seat, "card": rng.choice(elsewhere), "to": rng.choice(others)},
        {"type": "discard_hand", "seat": rng.choice(others)},
        {"type": "limit_discard", "seat": seat, "card": rng.choice(elsewhere)},
        {"type": "cheers", "seat": seat, "clink": rng.choice(front or ["C01"]), "give": rng.sample(others, 2)},
        {"type": "fly", "seat": seat},
        {"type": "play", "seat": seat, "to": seat},
    ]
    if ref.pending is not None:
        p = ref.pending
        mates = [s for s in others if not ref.enemies(seat, s)]
        clink = rng.choice(p.matches)
        options += [
            {"type": "cheers", "seat": seat, "clink": p.played, "give": rng.sample(others, 2)},
            {"type": "cheers", "seat": seat, "clink": clink, "give": [seat, rng.choice(others)]},
            {"type": "cheers", "seat": seat, "clink": clink, "give": [others[0], others[0]]},
            {"type": "cheers", "seat": seat, "clink": clink, "give": [others[0], n + 1]},
            {"type": "cheers", "seat": seat, "give": rng.sample(others, 2)},
            {"type": "cheers", "seat": rng.choice(others), "clink": clink, "give": rng.sample(others, 2)},
            {"type": "play", "seat": seat, "card": rng.choice(ref.hands[seat] or ["C01"]), "to": seat},
        ]
        if len(mates) >= 2:  # both to teammates: the enemy rule (never under Masquerade)
            options += [{"type": "cheers", "seat": seat, "clink": clink, "give": rng.sample(mates, 2)}] * 4
    elif ref.limit_queue:
        options += [{"type": "play", "seat": ref.active, "card": rng.choice(ref.hands[ref.active] or ["C01"]),
                     "to": seat},
                    {"type": "limit_discard", "seat": rng.choice(others), "card": rng.choice(list(CARD_IDS))}]
    if not front:
        options += [{"type": "push", "seat": seat, "card": rng.choice(list(CARD_IDS)), "to": rng.choice(others)}]
    return rng.choice(options)


def shuffled_teams(n: int, split: str, rng: random.Random) -> dict[str, list[int]]:
    """Seats given to teams at random; the letters need not follow the split's sizes (at
    3+2, team A may be the team of two)."""
    letters = list(SEAT_ORDERS[split])
    rng.shuffle(letters)
    names = sorted(set(letters))
    renamed = dict(zip(names, rng.sample(names, len(names))))
    out: dict[str, list[int]] = {}
    for seat, t in enumerate(letters, start=1):
        out.setdefault(renamed[t], []).append(seat)
    return dict(sorted(out.items()))


def a_goal(rng: random.Random) -> list[str]:
    """A goal as the seed draws it: one pair put away, 5 of the 8 tokens left."""
    kinds = list(INGREDIENTS)
    kinds.remove(rng.choice(kinds))
    tokens = [k for k in kinds for _ in range(2)]
    rng.shuffle(tokens)
    return sorted(tokens[:5])


def header_for(n: int, split: str, masquerade: bool, seed: int, fixed: bool,
               turn_cap: int | None = 60, same_goals: bool = False) -> dict[str, Any]:
    """``fixed``: the header fixes the whole deal; else the box draws teams, goals, deck and
    the first player."""
    rng = random.Random(f"header-{seed}")
    options: dict[str, Any] = {"split": split, "masquerade": masquerade, "turn_cap": turn_cap}
    header: dict[str, Any] = {"game": "cheers", "seed": seed, "players": n, "options": options}
    if fixed:
        teams = shuffled_teams(n, split, rng)
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        goal = a_goal(rng)
        header.update(teams=teams, goals={t: goal if same_goals else a_goal(rng) for t in teams},
                      deck=deck[:rng.choice([20, 50])], first=rng.randint(1, n))
    return header


@dataclass
class Played:
    box: Box
    ref: Referee
    seens: list[Seen] = field(default_factory=list)


def play(header: dict[str, Any], seed: int, style: Style) -> Played:
    """A whole game, every input checked by the referee; two inputs more after its end."""
    rng = random.Random(f"moves-{seed}")
    box, ref = start(header)
    game = Played(box, ref)
    after_end = 2
    while after_end and len(box.lines) < MAX_INPUTS:
        if ref.over:
            after_end -= 1
            do = choose_legal_after_end(ref, rng)
        elif rng.random() < style.illegal:
            do = choose_illegal(ref, rng)
        else:
            do = choose_legal(ref, rng, style)
        seen = box.feed(do)
        ref.follow(seen)
        game.seens.append(seen)
    ref.finish()
    return game


def choose_legal_after_end(ref: Referee, rng: random.Random) -> dict[str, Any]:
    return {"type": "discard_hand", "seat": rng.choice(ref.seats)}


def replays_the_same(game: Played) -> None:
    """The inputs, written as a replay file, replay to the events the game printed."""
    lines = [json.dumps(game.box.header)] + [json.dumps(line) for line in game.box.lines]
    header, inputs = replay.load(lines, "random.jsonl")
    out: list[dict[str, Any]] = []
    replay.run(header, inputs, lambda e: out.append(json.loads(replay.dumps(e))))
    assert out[1:] == game.box.events


# -- the random games --------------------------------------------------------------------

TOTAL = Tally()


def add(tally: Tally) -> None:
    for f in fields(Tally):
        mine = getattr(tally, f.name)
        if isinstance(mine, Counter):
            getattr(TOTAL, f.name).update(mine)
        else:
            setattr(TOTAL, f.name, getattr(TOTAL, f.name) + mine)


#: (players, split, masquerade, seed, the header fixes the deal, how the players play)
STYLES = {"plain": Style(), "slow": Style(greedy=0.2), "clumsy": Style(illegal=0.4), "greedy": Style(greedy=0.9, give_map=0.6)}
GAMES = [(n, split, masq, 1000 + 100 * k + 10 * masq + r, r % 2 == 0, style)
         for k, (n, split) in enumerate(CONFIGS)
         for masq in (False, True)
         for r, style in enumerate(("plain", "slow", "clumsy", "greedy"))]


@pytest.mark.parametrize("n, split, masquerade, seed, fixed, style", GAMES,
                         ids=[f"{n}p-{s}-{'masq' if m else 'open'}-{'fixed' if f else 'drawn'}-{st}-{seed}"
                              for n, s, m, seed, f, st in GAMES])
def test_random_game_keeps_every_rule_of_the_page(n: int, split: str, masquerade: bool, seed: int,
                                                  fixed: bool, style: str) -> None:
    game = play(header_for(n, split, masquerade, seed, fixed), seed, STYLES[style])
    replays_the_same(game)
    tally = game.ref.tally
    add(tally)
    assert tally.refused, "every game tries some illegal inputs"
    assert sum(tally.moves.values()) >= 10
    assert tally.refused["GameIsOver"] == 2
    assert tally.ends.total() == 1


def test_long_games_rebuild_the_pile_three_times_then_end_with_no_winner() -> None:
    """Hands discarded again and again: the pile is rebuilt from the discards three times,
    and the fourth pile's end ends the game with no winner."""
    ends: Counter[str] = Counter()
    for k, (n, split) in enumerate([(4, "2+2"), (5, "2+2+1"), (3, "2+1"), (6, "3+3"), (5, "3+2")]):
        seed = 300 + k
        style = Style(illegal=0.05, greedy=0.0, discard=0.85)
        game = play(header_for(n, split, k % 2 == 1, seed, fixed=k != 2, turn_cap=None), seed, style)
        add(game.ref.tally)
        ends.update(game.ref.tally.ends)
        if game.ref.tally.ends["draw_pile_exhausted"]:
            assert game.ref.pile == 4 and game.ref.tally.reshuffles == 3
            assert [e["pile"] for e in game.box.events if e["event"] == "reshuffled"] == [2, 3, 4]
    assert ends["draw_pile_exhausted"] >= 3, ends


def test_fronts_filled_evenly_empty_the_pile_with_no_discards_to_rebuild_it() -> None:
    """Six fronts filled evenly: the pile runs out with no discard, hands stay short (and an
    empty hand may be discarded), and a pile is rebuilt when a card is needed."""
    style = Style(illegal=0.1, greedy=0.0, discard=0.0, spread=True)
    short = rebuilt = 0
    for seed, split in ((400, "3+3"), (401, "2+2+2"), (402, "2+2+2"), (403, "3+3")):
        game = play(header_for(6, split, seed % 2 == 1, seed, fixed=True, turn_cap=None), seed, style)
        add(game.ref.tally)
        short += game.ref.tally.short_refills
        rebuilt += game.ref.tally.late_rebuilds
    assert short >= 2 and rebuilt >= 2, (short, rebuilt)


def test_goals_met_together_go_to_the_first_in_turn_order_from_the_active_player() -> None:
    """Every team has one goal and everyone waits to complete two fronts with one move."""
    ties = 0
    for k, (n, split) in enumerate(CONFIGS * 2):
        seed = 500 + k
        style = Style(illegal=0.05, greedy=0.8, tie=True)
        game = play(header_for(n, split, k % 2 == 1, seed, fixed=True, same_goals=True), seed, style)
        add(game.ref.tally)
        ties += game.ref.tally.ties
    assert ties >= 5, ties


def test_the_random_games_reached_every_rule() -> None:
    """The games above met every rule the referee checks (run after them)."""
    if TOTAL.inputs == 0:
        pytest.skip("run with the random games")
    assert TOTAL.ends["victory"] >= 3 and TOTAL.ends["turn_cap"] >= 1, TOTAL.ends
    assert TOTAL.ends["draw_pile_exhausted"] >= 2, TOTAL.ends
    assert TOTAL.cheers_choices and TOTAL.limit_discards and TOTAL.limit_queues, TOTAL
    assert TOTAL.reshuffles and TOTAL.late_rebuilds and TOTAL.short_refills, TOTAL
    assert TOTAL.victories_off_turn and TOTAL.ties and TOTAL.hidden_draws, TOTAL
    assert TOTAL.four_card_refills, TOTAL
    for error in ("NotYourTurn", "NotThisStep", "CardNotInHand", "CardNotInFront", "EmptyFront",
                  "PushToSelf", "NoSuchSeat", "NotAClinkingCard", "CheersToTarget", "CheersToSamePlayer",
                  "CheersWithoutEnemy", "UnknownAction", "BadAction", "GameIsOver"):
        assert TOTAL.refused[error], (error, TOTAL.refused)
    assert set(TOTAL.moves) == {"play", "push", "discard_hand", "cheers", "limit_discard"}
    assert TOTAL.inputs >= 4000, TOTAL.inputs


# -- the golden replays through the referee -------------------------------------------------

def follow_file(path: Path) -> Referee:
    header, inputs = replay.load(path.read_text(encoding="utf-8").splitlines(), path.name)
    box, ref = start(header)
    for inp in inputs:
        assert inp.kind == "do"
        since = len(box.events)
        box.session.feed(inp, record=False)
        ref.follow(box.seen(inp.action, since))
    return ref


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay_follows_the_rules_page(path: Path) -> None:
    ref = follow_file(path)
    ref.finish()
    assert ref.tally.inputs == len(path.read_text(encoding="utf-8").splitlines()) - 1


def test_there_are_golden_replays_to_follow() -> None:
    assert len(GOLDEN) >= 10


# -- the referee catches a box that breaks a rule ------------------------------------------

def tampered(name: str, change: Any) -> None:
    """Follow a golden game, with ``change`` applied to what the box shows after each input."""
    path = HERE / f"{name}.jsonl"
    header, inputs = replay.load(path.read_text(encoding="utf-8").splitlines(), path.name)
    box, ref = start(header)
    for inp in inputs:
        since = len(box.events)
        box.session.feed(inp, record=False)
        seen = box.seen(inp.action, since)
        change(seen)
        ref.follow(seen)


def give_to_a_teammate(seen: Seen) -> None:
    for e in seen.events:
        if e["event"] == "cheers":
            e["given"] = {"1": e["played"], "3": e["clinked"]}


def skip_the_limit(seen: Seen) -> None:
    seen.events[:] = [e for e in seen.events if not (e["event"] == "awaiting"
                                                     and e["decision"] == "limit_discard")]


def show_a_hand(seen: Seen) -> None:
    for e in seen.events:
        if e["event"] == "drew":
            e["cards"] = ["C01"]


def offer_a_push_to_self(seen: Seen) -> None:
    if seen.menu and seen.menu[0]["type"] in ("play", "push"):
        seen.menu.append({"type": "push", "seat": seen.menu[0]["seat"], "card": "C01",
                          "to": seen.menu[0]["seat"]})


def refuse_everything(seen: Seen) -> None:
    if seen.events and seen.events[0]["event"] != "illegal":
        seen.events[:] = [{"t": 0.0, "event": "illegal", "seat": 1, "error": "NotYourTurn",
                           "reason": "no", "do": seen.do}]


@pytest.mark.parametrize("name, change", [
    ("enemy_requirement_six", give_to_a_teammate),
    ("limit_after_cheers", skip_the_limit),
    ("actions_and_cheers", show_a_hand),
    ("actions_and_cheers", offer_a_push_to_self),
    ("simultaneous_victory", refuse_everything),
])
def test_the_referee_catches_a_box_that_breaks_a_rule(name: str, change: Any) -> None:
    with pytest.raises(AssertionError):
        tampered(name, change)
