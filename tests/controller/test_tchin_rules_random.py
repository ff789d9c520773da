"""Random scripted Tchin Tchin games, each replayed by the box and by the rules-page referee.

A fixed seed makes each game: a header that fixes the characters, the deck and the first
revealer (what ``tchin_rules_checker.referee`` needs), then press, release and say lines
chosen one at a time while the checker follows the game, so that the timing can aim at
the rules' deadlines: toasts ending exactly at press + ``window_s`` or starting exactly
``pre_s`` before a press (and a hundredth either side), votes exactly at ``veto_s`` after
the decision, presses exactly at ``card_timeout_s`` after the reveal or at the auto reveal,
presses of one instant by several stations, overlapping toasts, wrong words and other
speech, penalties with and without a won card, the pot, "The same again!" with and without
something to repeat, Middleman duels with tourists, and the last card. Times are written
as the table writes them (two decimals, such as 15.26). Every player count from 4 to 8
is played (tourists at 7 and 8), event cards on and off, speech on and off.

Each script goes through the box's real replay path (``controller.replay.run``); its
printed decisions must be the checker's, and no card may be created or lost.

    TCHIN_RANDOM_GAMES=3000 .venv/bin/python -m pytest -q \\
        tests/controller/test_tchin_rules_random.py -k many

plays more games than the committed ones (the ``many`` test runs only when asked).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tchin_rules_checker as rules  # noqa: E402

from controller import replay  # noqa: E402

Line = dict[str, Any]
Decision = tuple[Any, ...]

COMMITTED_GAMES = 1500  # 300 at each player count, about 20 s
MAX_STEPS = 90
CHARACTERS = ["DE", "EN", "FR", "JP", "MX", "RU"]
FOUR = ["FR", "JP", "MX", "RU"]
WALKING = [f"W{i}" for i in range(1, 7)]
DRINKS = [f"D{i:02}" for i in range(1, 25)]
EVENT_CARDS = ["R1", "R2", "S1", "S2", "M1", "M2"]
# how the table says each toast (capitals, accents, hyphens and punctuation do not hide it)
SAID = {
    "prost": ["prost", "Prost!"],
    "cheers": ["cheers", "Cheers!"],
    "tchin tchin": ["tchin tchin", "Tchin Tchin!", "tchin-tchin", "Chin-chin!"],
    "kanpai": ["kanpai", "Kanpai!", "Kanpaï"],
    "salud": ["salud", "Salud!", "¡Salúd!"],
    "na zdorovie": ["na zdorovie", "Na Zdorovie!"],
}
OTHER_SPEECH = ["hello", "cheese", "santé", "skol"]


# -- the header: every deal fixed --------------------------------------------------------

@dataclass(frozen=True)
class Spec:
    """One random game: its seed, its table and its options."""

    seed: int
    players: int
    events: bool
    speech: bool
    options: dict[str, Any]


def spec_for(index: int) -> Spec:
    """Game ``index``: the player counts in turn, options mixed by the seed."""
    rng = random.Random(f"tchin-spec-{index}")
    players = 4 + index % 5
    options: dict[str, Any] = {
        "pre_s": rng.choice([1.0, 1.0, 0.5, 0.75]),
        "window_s": rng.choice([2.5, 2.5, 2.0, 1.7]),
        "veto_s": rng.choice([3.0, 3.0, 2.2]),
        "card_timeout_s": rng.choice([20.0, 10.0, 7.3]),
        "auto_reveal_s": rng.choice([None, None, 2.0, 1.3]),
        "bounce_s": 0.02,
    }
    return Spec(index, players, events=rng.random() < 0.6, speech=rng.random() < 0.8,
                options=options)


def table_for(rng: random.Random, players: int) -> dict[str, str]:
    """Characters for stations 1..players: the player count's own, in random seats."""
    if players == 4:
        codes = list(FOUR)
    elif players == 5:
        codes = rng.sample(CHARACTERS, 5)
    else:
        codes = list(CHARACTERS)
        codes += {6: [], 7: [rng.choice(["TM", "TW"])], 8: ["TM", "TW"]}[players]
    rng.shuffle(codes)
    return {str(i + 1): c for i, c in enumerate(codes)}


def deck_for(rng: random.Random, players: int, events: bool) -> list[str]:
    """A short deck from the player count's cards (event cards often near the top)."""
    drink = DRINKS + ([] if players == 4 else WALKING)
    deck = rng.sample(drink, rng.randint(2, 7))
    if events:
        deck += rng.sample(EVENT_CARDS, rng.randint(1, 6))
    rng.shuffle(deck)
    return deck


def header_for(spec: Spec, rng: random.Random) -> Line:
    options = {"events": spec.events, **spec.options}
    if not spec.speech:
        options["speech"] = False
    return {"game": "tchin-tchin", "seed": spec.seed, "players": spec.players, "options": options,
            "characters": table_for(rng, spec.players),
            "deck": deck_for(rng, spec.players, spec.events),
            "first": rng.randint(1, spec.players)}


# -- the inputs, chosen while the checker follows the game ------------------------------

def at(t: float) -> float:
    """A time as the table writes it: two decimals."""
    return round(t + 1e-9, 2)


@dataclass
class Builder:
    """The script so far and a checker following it (``model``), to aim at its deadlines."""

    rng: random.Random
    header: Line
    lines: list[Line] = field(default_factory=list)
    now: float = 0.0
    last_edge: dict[int, float] = field(default_factory=dict)
    releases: list[tuple[float, int]] = field(default_factory=list)
    hits: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        chars = {int(k): v for k, v in self.header["characters"].items()}
        self.model = rules.Checker(self.header, chars, self.header["deck"], self.header["first"])
        self.stations = sorted(chars)

    # writing lines ---------------------------------------------------------------------
    def _flush_releases(self, t: float) -> None:
        due = sorted(r for r in self.releases if r[0] <= t)
        self.releases = [r for r in self.releases if r[0] > t]
        for rt, s in due:
            self.lines.append({"t": rt, "release": s})

    def free(self, s: int, t: float) -> bool:
        """A press of ``s`` at ``t`` would not be contact bounce (0.05 s after its last edge)."""
        return t >= self.last_edge.get(s, -1.0) + 0.05

    def press(self, t: float, stations: list[int], why: str = "") -> None:
        t = at(max(t, self.now))
        group = sorted({s for s in stations if self.free(s, t)})
        if not group:
            return
        self._flush_releases(t)
        order = list(group)
        self.rng.shuffle(order)  # the file may list an instant's presses in any order
        for s in order:
            self.lines.append({"t": t, "press": s})
            self.last_edge[s] = t + 0.01
            self.releases.append((at(t + 0.01), s))
        if why:
            self.hits[why] += 1
        if len(group) > 1:
            self.hits["same instant presses"] += 1
        self.now = t
        self.model.presses(t, [s for s in group if s in self.model.chars])

    def say(self, t: float, said: str, end: float, why: str = "") -> None:
        t = at(max(t, self.now))
        end = at(max(end, t))
        self._flush_releases(t)
        self.lines.append({"t": t, "say": said, "end": end})
        if why:
            self.hits[why] += 1
        self.now = t
        self.model.run_to(t - 2 * rules.EPS)
        word = rules._word(said)
        if word and not self.model.over:
            self.model.toasts.append(rules.Toast(t, end, word))

    def script(self) -> list[Line]:
        self._flush_releases(math.inf)
        return [self.header, *self.lines]

    # choosing --------------------------------------------------------------------------
    def said(self, word: str) -> str:
        return self.rng.choice(SAID[word])

    def some_word(self, right: set[str]) -> tuple[str, str]:
        """(what is said, why): the right word, a wrong one, or other speech."""
        r = self.rng.random()
        if right and r < 0.6:
            return self.said(self.rng.choice(sorted(right))), "right word"
        if r < 0.9:
            wrong = sorted(set(SAID) - right) or sorted(SAID)
            return self.said(self.rng.choice(wrong)), "wrong word"
        return self.rng.choice(OTHER_SPEECH), "other speech"

    def step(self) -> None:
        m = self.model
        m.run_to(self.now)
        c = m.card
        if c is None:
            self.between()
        elif c.veto_closes is not None:
            self.veto(c)
        elif c.claimant is not None:
            self.listening(c)
        else:
            self.open_card(c)

    def between(self) -> None:
        m, rng = self.model, self.rng
        if m.auto is not None and rng.random() < 0.35:
            due = at(m.between_since + m.auto)
            who = rng.choice(self.stations)
            self.press(due + rng.choice([0.0, 0.0, -0.01, 0.01]), [who], "press at the auto reveal")
            return
        others = [s for s in self.stations if s != m.revealer]
        if rng.random() < 0.15:
            self.press(self.now + rng.choice([0.1, 0.3]), rng.sample(others, 1), "press between cards")
            return
        group = [m.revealer] + (rng.sample(others, rng.randint(1, 2)) if rng.random() < 0.2 else [])
        if rng.random() < 0.2 and at(m.between_since) >= self.now:  # at the instant the last card ended
            self.press(m.between_since, group, "reveal at the instant the last card ended")
            return
        self.press(self.now + rng.choice([0.1, 0.25, 0.5, 1.26]), group)

    def open_card(self, c: rules.Card) -> None:
        m, rng = self.model, self.rng
        free = [s for s in c.inv if s not in c.mistaken]
        uninvited = [s for s in self.stations if s not in c.inv]
        timeout = at(c.revealed + m.timeout)
        r = rng.random()
        if r < 0.08:  # someone presses exactly at the card's timeout (too late), or a hair before
            who = rng.sample(self.stations, rng.randint(1, 2))
            self.press(timeout + rng.choice([0.0, 0.0, -0.01]), who, "press at the card timeout")
            return
        if r < 0.2 and uninvited:  # a player not invited presses: a penalty
            s = rng.choice(uninvited)
            self.hits["penalty with a won card" if m.piles[s] else "penalty without a card"] += 1
            self.press(self.now + rng.choice([0.05, 0.2, 0.4]), [s])
            return
        if r < 0.25:  # a toast with nobody claiming
            said, _ = self.some_word(set())
            t = self.now + rng.choice([0.1, 0.3])
            self.say(t, said, t + 0.4, "toast with no claim")
            return
        if r < 0.28 and c.mistaken:  # a mistaken player presses again (ignored)
            self.press(self.now + 0.2, [rng.choice(sorted(c.mistaken))], "mistaken press again")
            return
        if not free:
            self.press(self.now + 0.3, [rng.choice(self.stations)])
            return
        press = at(self.now + rng.choice([0.2, 0.5, 1.0, 1.26, 2.37]))
        if rng.random() < 0.12:  # a claim whose window or veto runs past the card's timeout
            late = at(timeout - rng.choice([0.01, 0.3, m.window, m.window + 0.5]))
            if late >= self.now:
                press = late
                self.hits["claim shortly before the card timeout"] += 1
        group = [rng.choice(free)]
        if rng.random() < 0.3:  # presses of the same instant
            group += rng.sample(self.stations, rng.randint(1, min(3, len(self.stations))))
        if rng.random() < 0.3:  # a toast before the press, on the pre_s boundary or near it
            right = {w for w, _ in c.inv[min(s for s in group if s in free)]}
            said, why = self.some_word(right)
            edge = rng.choice([0.0, 0.0, 0.01, -0.01, -0.3])
            start = at(press - m.pre - edge)
            if start >= self.now:
                end = at(start + rng.choice([0.3, 0.5, 0.9]))
                self.say(start, said, end, f"toast before the press ({why})")
                if edge == 0.0:
                    self.hits["toast starting exactly pre_s before the press"] += 1
        self.press(press, group, "claim")

    def listening(self, c: rules.Card) -> None:
        m, rng = self.model, self.rng
        assert c.claimant is not None
        window_end = at(c.press + m.window)
        right = {w for w, _ in c.inv[c.claimant]}
        r = rng.random()
        if r < 0.12:  # silence: the window runs out (someone may press on the stroke)
            who = rng.sample(self.stations, 1)
            self.press(window_end + rng.choice([0.0, 0.01]), who, "press at the window end")
            return
        if r < 0.25:  # a press during the lock
            self.press(self.now + rng.choice([0.05, 0.3]), [rng.choice(self.stations)], "press during a lock")
            return
        said, why = self.some_word(right)
        kind = rng.random()
        if kind < 0.35:  # ending exactly at the window's end, or a hundredth after
            edge = rng.choice([0.0, 0.0, 0.01])
            end = at(window_end + edge)
            start = at(max(self.now, end - rng.choice([0.0, 0.3, 0.6])))
            self.say(start, said, end, f"toast at the window end +{edge} ({why})")
        elif kind < 0.55:  # two toasts that overlap: the one ending first decides
            s1 = at(self.now + 0.05)
            self.say(s1, said, at(s1 + 1.0), "overlapping toasts")
            other, _ = self.some_word(right)
            self.say(at(s1 + 0.1), other, at(s1 + 0.5))
        else:
            start = at(self.now + rng.choice([0.0, 0.1, 0.4]))
            end = at(start + rng.choice([0.2, 0.45, 1.1]))
            self.say(start, said, end, why)
            voters = [s for s in self.stations if s not in c.inv]
            if voters and rng.random() < 0.3:  # a voter presses at the decision, or a hair before
                decided = max(end, c.press)
                self.press(decided + rng.choice([0.0, -0.01]), rng.sample(voters, 1),
                           "voter press at the decision")

    def veto(self, c: rules.Card) -> None:
        rng = self.rng
        assert c.veto_closes is not None
        closes = at(c.veto_closes)
        r = rng.random()
        voters = sorted(c.voters)
        if r < 0.25:  # a vote on the stroke of veto_s (too late) or a hair before
            self.press(closes + rng.choice([0.0, 0.0, -0.01]), rng.sample(voters, 1), "vote at veto_s")
        elif r < 0.55:  # enough votes at once (or nearly)
            n = math.ceil(len(voters) / 2) + rng.choice([-1, 0, 0, 1])
            n = max(1, min(n, len(voters)))
            self.press(self.now + rng.choice([0.1, 0.5]), rng.sample(voters, n), "votes")
        elif r < 0.7:  # an invited player presses during the veto (ignored)
            self.press(self.now + 0.2, [rng.choice(sorted(c.inv))], "invited press during the veto")
        elif r < 0.8 and c.votes:  # a voter presses again (counts once)
            self.press(self.now + 0.2, [rng.choice(sorted(c.votes))], "repeated vote")
        else:  # the window runs out
            self.press(closes + 0.3, [rng.choice(self.stations)])


def generate(spec: Spec) -> tuple[list[Line], Counter[str]]:
    """The script of game ``spec`` and which boundaries its inputs aimed at."""
    rng = random.Random(f"tchin-game-{spec.seed}")
    b = Builder(rng, header_for(spec, rng))
    for _ in range(MAX_STEPS):
        if b.model.over:
            break
        b.step()
    return b.script(), b.hits


# -- the box, and the comparison --------------------------------------------------------

def replay_box(script: list[Line]) -> list[dict[str, Any]]:
    """Every event the box prints for ``script``, parsed back."""
    h, inputs = replay.load([json.dumps(x) for x in script], "random.jsonl")
    out: list[dict[str, Any]] = []
    replay.run(h, inputs, lambda ev: out.append(json.loads(replay.dumps(ev))))
    return out


def both(script: list[Line]) -> tuple[list[Decision], list[Decision], list[dict[str, Any]]]:
    """(the box's decisions, the checker's, the box's events)."""
    events = replay_box(script)
    dealt = next(e for e in events if e["event"] == "dealt")
    reveals = [e["card"] for e in events if e["event"] == "reveal"]
    return rules.decisions(events), rules.referee(script, dealt, reveals), events


def first_difference(box: list[Decision], ref: list[Decision]) -> int | None:
    """The index of the first decision where two lists part, or None when they agree."""
    for i, (a, b) in enumerate(zip(box, ref)):
        if a != b:
            return i
    return None if len(box) == len(ref) else min(len(box), len(ref))


def disagreement(script: list[Line]) -> str | None:
    """None when the box and the checker agree and every card is accounted for; else why."""
    box, ref, events = both(script)
    i = first_difference(box, ref)
    if i is not None:
        return f"decision {i}: box {box[i:i + 2]} checker {ref[i:i + 2]}"
    try:
        rules.conservation(events, script[0]["deck"])
    except AssertionError as exc:
        return f"conservation: {exc}"
    return None


def outcomes(events: list[dict[str, Any]], script: list[Line]) -> Counter[str]:
    """What the game came to, read from the box's events (for the coverage counts)."""
    seen: Counter[str] = Counter()
    chars = script[0]["characters"]
    window_ends: float | None = None
    for e in events:
        k = e["event"]
        if k == "claim":
            window_ends = e["window_ends"]
        if k == "heard" and e["t"] == window_ends:
            seen["toast decided exactly at the window end"] += 1
        if k == "win" and script[0]["options"].get("speech") is False:
            seen["won without speech"] += 1
        if k == "win" and e["pot"]:
            seen["win takes the pot"] += 1
        if k == "penalty":
            seen["penalty gives a card" if e["to_pot"] else "penalty with nothing to give"] += 1
        if k == "vetoed":
            seen["vetoed"] += 1
        if k == "claim" and e.get("tied"):
            seen["exact tie"] += 1
        if k in ("requeued", "discarded"):
            seen[f"same again {k}"] += 1
        if k == "reveal" and e["kind"] == "same_again" and e["word"] is not None:
            seen["same again played"] += 1
        if k == "reveal" and e["kind"] == "middleman" and any(
                chars[str(s)] in ("TM", "TW") for s in e["invited"]):
            seen["middleman with a tourist"] += 1
        if k == "reveal" and e["kind"] == "my_round" and chars[str(e["revealer"])] in ("TM", "TW"):
            seen["my round by a tourist"] += 1
        if k == "unwon":
            seen[f"unwon: {e['reason']}"] += 1
        if k == "mistake":
            seen[f"mistake: {e['reason']}"] += 1
        if k == "game_over":
            seen["game over"] += 1
            if e["pot"]:
                seen["pot left at the end"] += 1
    return seen


def play_many(n: int, start: int = 0) -> tuple[list[tuple[int, str]], Counter[str]]:
    """Games ``start`` .. ``start + n - 1``: their disagreements and what they covered."""
    bad: list[tuple[int, str]] = []
    seen: Counter[str] = Counter()
    for i in range(start, start + n):
        spec = spec_for(i)
        script, hits = generate(spec)
        seen.update(hits)
        seen[f"players {spec.players}"] += 1
        seen["inputs"] += len(script) - 1
        why = disagreement(script)
        if why is not None:
            bad.append((i, why))
        else:
            seen.update(outcomes(replay_box(script), script))
    return bad, seen


# -- the tests --------------------------------------------------------------------------

def test_random_games_follow_the_rules_page() -> None:
    bad, seen = play_many(COMMITTED_GAMES)
    assert bad == []
    for what in ("players 4", "players 8", "same instant presses", "exact tie", "vetoed",
                 "win takes the pot", "penalty gives a card", "penalty with nothing to give",
                 "same again played", "same again requeued", "middleman with a tourist",
                 "game over", "vote at veto_s", "press at the card timeout",
                 "toast starting exactly pre_s before the press", "voter press at the decision",
                 "toast decided exactly at the window end", "won without speech",
                 "claim shortly before the card timeout", "same again discarded"):
        assert seen[what] > 0, what


@pytest.mark.skipif("TCHIN_RANDOM_GAMES" not in os.environ, reason="set TCHIN_RANDOM_GAMES=n to play n more games")
def test_many_random_games_follow_the_rules_page() -> None:
    n = int(os.environ["TCHIN_RANDOM_GAMES"])
    bad, seen = play_many(n, start=COMMITTED_GAMES)
    print(json.dumps(dict(sorted(seen.items())), indent=1))
    assert bad == [], bad[:5]


def test_the_scripts_are_the_same_every_time() -> None:
    assert generate(spec_for(7)) == generate(spec_for(7))
    assert generate(spec_for(7))[0] != generate(spec_for(8))[0]


def test_a_wrong_decision_list_is_caught() -> None:
    script = next(sc for sc, _ in map(generate, map(spec_for, range(50)))
                  if any(e["event"] == "win" for e in replay_box(sc)))
    box, ref, _ = both(script)
    assert first_difference(box, ref) is None
    wrong = list(ref)
    k = next(i for i, d in enumerate(wrong) if d[1] == "win")
    wrong[k] = (*wrong[k][:2], wrong[k][2] % 4 + 1, *wrong[k][3:])  # another station wins
    assert first_difference(box, wrong) == k
    assert first_difference(box, ref[:-1]) == len(ref) - 1


def test_a_box_that_breaks_the_veto_rule_is_caught() -> None:
    with mock.patch("models.tchin_tchin.engine.veto_needed", lambda voters: len(voters) + 1):
        bad, _ = play_many(40)
    assert bad, "a box that can never veto went unnoticed"
