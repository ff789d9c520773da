"""An independent Tchin Tchin referee, written from the rules page alone, to check replays.

It shares no code with ``models.tchin_tchin``: the card table, the characters, the
invitations and the timings are re-read from the rules (docs/rules/tchin-tchin.md).
:func:`referee` replays a script's inputs and returns the decisions the rules call
for, as compact tuples; :func:`decisions` projects a printed replay onto the same
tuples, so a test can compare the two. :func:`conservation` checks from the printed
events alone that no card is created or lost (piles, pot and discards together).

Scope: presses are button edges (a press line is a press), exact ties go to the lower
station and presses of one instant are taken in station order (the page's house rule: a
player not invited on a lower station than the claimant is penalized, one on a higher
station meets the claimant's lock), and a press on the stroke of a deadline comes after it.
The header option ``"speech": false`` is the page's house rule (no speech): a claim's toast
is taken as said at the press and the players not invited alone judge it with their veto
(the combination kept is the first by toast name). Toasts are named as the page names them,
without regard to capitals, accents, hyphens or punctuation ("Kanpaï", "¡Salúd!",
"Chin-chin!"). Bounce, disabled buzzers, toasts reported late (``at``) and referee ``do``
actions are out of scope.
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# --- the rules page's tables -----------------------------------------------------------
# nation: (word, drink, location)
NATIONS = {
    "DE": ("prost", "beer", "Brandenburg Gate"),
    "EN": ("cheers", "tea", "Big Ben"),
    "FR": ("tchin tchin", "champagne", "Eiffel Tower"),
    "JP": ("kanpai", "sake", "Himeji Castle"),
    "MX": ("salud", "tequila", "Mayan pyramid"),
    "RU": ("na zdorovie", "vodka", "Red Square"),
}
TOURIST_PLACES = {
    "TM": ("Eiffel Tower", "Big Ben", "Brandenburg Gate"),
    "TW": ("Himeji Castle", "Mayan pyramid", "Red Square"),
}
_NAT = {"German": "DE", "English": "EN", "French": "FR", "Japanese": "JP", "Mexican": "MX",
        "Russian": "RU"}
_CARDS = """
W1 German beer Big Ben|W2 German tea Brandenburg Gate|W3 German tea Big Ben
W4 English beer Brandenburg Gate|W5 English beer Big Ben|W6 English tea Brandenburg Gate
D01 German champagne Himeji Castle|D02 German champagne Mayan pyramid
D03 English tequila Himeji Castle|D04 English vodka Eiffel Tower|D05 French beer Red Square
D06 French sake Brandenburg Gate|D07 French tequila Brandenburg Gate
D08 French tequila Red Square|D09 French vodka Mayan pyramid|D10 Japanese tea Mayan pyramid
D11 Japanese champagne Mayan pyramid|D12 Japanese tequila Red Square
D13 Japanese vodka Big Ben|D14 Japanese vodka Eiffel Tower|D15 Mexican tea Himeji Castle
D16 Mexican champagne Red Square|D17 Mexican sake Eiffel Tower|D18 Mexican sake Red Square
D19 Mexican vodka Himeji Castle|D20 Russian beer Eiffel Tower|D21 Russian champagne Himeji Castle
D22 Russian sake Eiffel Tower|D23 Russian sake Mayan pyramid|D24 Russian tequila Big Ben
"""
DRINK_CARDS: dict[str, tuple[str, str, str]] = {}
for _row in _CARDS.replace("\n", "|").split("|"):
    if _row.strip():
        _id, _nation, _drink, _place = _row.split(" ", 3)
        DRINK_CARDS[_id] = (_NAT[_nation], _drink, _place)
EVENTS = {"R1": "my_round", "R2": "my_round", "S1": "same_again", "S2": "same_again",
          "M1": "middleman", "M2": "middleman"}
TOASTS = {"prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie"}
_DRINK_OF_WORD = {w: d for w, d, _ in NATIONS.values()}
_ALIASES = {"tchintchin": "tchin tchin", "chin chin": "tchin tchin", "kampai": "kanpai",
            "nazdorovie": "na zdorovie"}
EPS = 1e-9


def nations_of(code: str) -> list[str]:
    """A character its own nation; a tourist the nations of its three places."""
    if code in NATIONS:
        return [code]
    return [n for n, (_, _, place) in NATIONS.items() if place in TOURIST_PLACES[code]]


def combos_of(code: str) -> set[tuple[str, str]]:
    return {(NATIONS[n][0], NATIONS[n][1]) for n in nations_of(code)}


def invited(card: str, chars: dict[int, str], revealer: int,
            last: tuple[str, str] | None) -> dict[int, set[tuple[str, str]]] | None:
    """Who is invited and which (word, drink) each may perform; None: nothing to repeat."""
    seats = sorted(chars)
    if card in DRINK_CARDS:
        nation, drink, place = DRINK_CARDS[card]
        want = {(NATIONS[nation][0], drink)}
        out = {}
        for s in seats:
            c = chars[s]
            if c in TOURIST_PLACES:
                hit = place in TOURIST_PLACES[c]
            else:
                hit = c == nation or NATIONS[c][1] == drink or NATIONS[c][2] == place
            if hit:
                out[s] = want
        return out
    kind = EVENTS[card]
    if kind == "my_round":
        return {s: combos_of(chars[revealer]) for s in seats if s != revealer}
    if kind == "same_again":
        return None if last is None else {s: {last} for s in seats if s != revealer}
    i = seats.index(revealer)
    left, right = seats[i - 1], seats[(i + 1) % len(seats)]
    return {left: combos_of(chars[right]), right: combos_of(chars[left])}


# --- the referee ------------------------------------------------------------------------
@dataclass
class Toast:
    start: float
    end: float
    word: str
    used: bool = False


@dataclass
class Card:
    id: str
    revealed: float
    inv: dict[int, set[tuple[str, str]]]
    mistaken: set[int] = field(default_factory=set)
    claimant: int | None = None
    press: float = 0.0
    veto_closes: float | None = None
    voters: set[int] = field(default_factory=set)
    votes: set[int] = field(default_factory=set)
    combo: tuple[str, str] | None = None


def _r(t: float) -> float:
    return round(t, 6)


class Checker:
    def __init__(self, header: dict[str, Any], chars: dict[int, str], deck: list[str],
                 first: int) -> None:
        o = header.get("options", {})
        self.pre = float(o.get("pre_s", 1.0))
        self.window = float(o.get("window_s", 2.5))
        self.veto_s = float(o.get("veto_s", 3.0))
        self.timeout = float(o.get("card_timeout_s", 20.0))
        auto = o.get("auto_reveal_s")
        self.auto = float(auto) if auto else None
        self.speech = o.get("speech", True) is not False
        self.chars = chars
        self.deck = list(deck)
        self.revealer = first
        self.piles: dict[int, list[str]] = {s: [] for s in chars}
        self.pot: list[str] = []
        self.last: tuple[str, str] | None = None
        self.card: Card | None = None
        self.between_since = 0.0
        self.over = False
        self.toasts: list[Toast] = []
        self.out: list[tuple[Any, ...]] = []

    # time
    def deadline(self) -> float | None:
        c = self.card
        if self.over:
            return None
        if c is None:
            return None if self.auto is None else self.between_since + self.auto
        if c.veto_closes is not None:
            return c.veto_closes
        if c.claimant is not None:
            t = self.deciding_toast()
            end = c.press + self.window
            return end if t is None else min(end, max(t.end, c.press))
        return c.revealed + self.timeout

    def deciding_toast(self) -> Toast | None:
        c = self.card
        assert c is not None
        ok = [x for x in self.toasts if not x.used and x.start >= c.press - self.pre - EPS
              and x.end <= c.press + self.window + EPS]
        return min(ok, key=lambda x: (max(x.end, c.press), x.end, x.start)) if ok else None

    def run_to(self, t: float) -> None:
        while (d := self.deadline()) is not None and d <= t + EPS:
            self.fire(d)

    def fire(self, now: float) -> None:
        c = self.card
        if c is None:
            self.reveal(now)
        elif c.veto_closes is not None:
            self.win(now)
        elif c.claimant is not None:
            x = self.deciding_toast()
            if x is not None and max(x.end, c.press) <= now + EPS:
                x.used = True
                self.out.append((_r(now), "heard", c.claimant, x.word))
                hits = sorted(cb for cb in c.inv[c.claimant] if cb[0] == x.word)
                if not hits:
                    self.mistake(now, "wrong word")
                    return
                self.correct(now, hits[0])
            else:
                self.mistake(now, "no toast")
        else:
            self.unwon(now, "timeout")

    # decisions
    def correct(self, now: float, combo: tuple[str, str]) -> None:
        """The claim's word is right (or, without speech, taken as said): the veto, if any."""
        c = self.card
        assert c is not None and c.claimant is not None
        c.combo = combo
        self.out.append((_r(now), "correct", c.claimant))
        c.voters = set(self.chars) - set(c.inv)
        if not c.voters:
            self.win(now)
            return
        c.veto_closes = now + self.veto_s
        self.out.append((_r(now), "veto_window", c.claimant, sorted(c.voters),
                         math.ceil(len(c.voters) / 2)))

    def reveal(self, now: float) -> None:
        while self.deck:
            cid = self.deck.pop(0)
            inv = invited(cid, self.chars, self.revealer, self.last)
            if inv is None:  # "The same again!" with nothing to repeat
                if self.deck and not all(EVENTS.get(c) == "same_again" for c in self.deck):
                    self.deck.append(cid)
                    self.out.append((_r(now), "requeued", cid))
                else:
                    self.out.append((_r(now), "discarded", cid))
                continue
            self.card = Card(cid, now, inv)
            words = sorted({w for combos in inv.values() for w, _ in combos})
            self.out.append((_r(now), "reveal", cid, self.revealer, sorted(inv), words))
            if not inv:
                self.unwon(now, "nobody invited")
            return
        self.game_over(now)

    def mistake(self, now: float, reason: str) -> None:
        c = self.card
        assert c is not None and c.claimant is not None
        self.out.append((_r(now), "mistake", c.claimant, reason))
        c.mistaken.add(c.claimant)
        c.claimant, c.veto_closes, c.votes = None, None, set()
        if set(c.inv) <= c.mistaken:
            self.unwon(now, "all invited mistaken")
        elif now >= c.revealed + self.timeout - EPS:
            self.unwon(now, "timeout")

    def win(self, now: float) -> None:
        c = self.card
        assert c is not None and c.claimant is not None and c.combo is not None
        s = c.claimant
        pot, self.pot = self.pot, []
        self.piles[s] += pot + [c.id]
        self.out.append((_r(now), "win", s, c.id, pot, round((c.press - c.revealed) * 1000)))
        self.last = c.combo
        self.revealer = s
        self.end_card(now)

    def unwon(self, now: float, reason: str) -> None:
        c = self.card
        assert c is not None
        self.out.append((_r(now), "unwon", c.id, reason))
        self.last = None
        self.end_card(now)

    def end_card(self, now: float) -> None:
        self.card = None
        self.between_since = now
        if not self.deck:
            self.game_over(now)

    def game_over(self, now: float) -> None:
        self.over = True
        scores = {s: len(p) for s, p in self.piles.items()}
        top = max(scores.values())
        self.out.append((_r(now), "game_over", {str(s): n for s, n in sorted(scores.items())},
                         [s for s in sorted(scores) if scores[s] == top], list(self.pot)))

    # inputs
    def presses(self, t: float, stations: list[int]) -> None:
        self.run_to(t)
        c = self.card
        if self.over:
            return
        if c is None:
            if self.revealer in stations:
                self.reveal(t)
            return
        if c.veto_closes is not None:
            for s in stations:
                if s in c.voters and s not in c.votes:
                    c.votes.add(s)
            if len(c.votes) >= math.ceil(len(c.voters) / 2):
                self.out.append((_r(t), "vetoed", c.claimant))
                self.mistake(t, "vetoed")
            return
        if c.claimant is not None:
            return  # locked
        claimants = [s for s in stations if s in c.inv and s not in c.mistaken]
        for s in stations:  # taken in station order: once one claims, the rest meet its lock
            if c.claimant is not None:
                break
            if s not in c.inv:
                pile = self.piles[s]
                given = pile.pop() if pile else None
                if given:
                    self.pot.append(given)
                self.out.append((_r(t), "penalty", s, given))
            elif claimants and s == claimants[0]:
                c.claimant, c.press = s, t
                self.out.append((_r(t), "claim", s, claimants[1:]))
                if not self.speech:  # no speech: the toast is taken as said, the veto decides
                    self.correct(t, min(c.inv[s]))


def _word(said: str) -> str | None:
    """The toast said, without regard to capitals, accents, hyphens or punctuation (the rules
    page's "Kanpaï", "¡Salúd!", "Chin-chin!"); None for other speech."""
    folded = unicodedata.normalize("NFKD", said.lower())
    folded = "".join(" " if ch == "-" else ch for ch in folded if not unicodedata.combining(ch))
    key = " ".join("".join(ch for ch in folded if "a" <= ch <= "z" or ch == " ").split())
    key = _ALIASES.get(key, key)
    return key if key in TOASTS else None


def referee(script: list[dict[str, Any]], dealt: dict[str, Any],
            reveals: list[str]) -> list[tuple[Any, ...]]:
    """The decisions the rules call for. ``dealt`` and ``reveals`` supply what the seed dealt
    when the header leaves it out (characters and first from the ``dealt`` event, the deck
    as the printed reveal order)."""
    header, inputs = script[0], script[1:]
    chars = {int(k): v for k, v in (header.get("characters") or dealt["characters"]).items()}
    deck = header.get("deck")
    if deck is None:
        deck = list(dict.fromkeys(reveals))
    first = header.get("first", dealt["first"])
    ck = Checker(header, chars, deck, first)
    i = 0
    while i < len(inputs):
        line = inputs[i]
        t = float(line["t"])
        if "press" in line:
            group = [line["press"]]
            while i + 1 < len(inputs) and inputs[i + 1]["t"] == line["t"] and (
                    "press" in inputs[i + 1] or "release" in inputs[i + 1]
                    or "say" in inputs[i + 1]):
                nxt = inputs[i + 1]
                if "press" in nxt:
                    group.append(nxt["press"])
                elif "say" in nxt and _word(nxt["say"]):
                    ck.toasts.append(Toast(float(nxt["t"]), float(nxt.get("end", nxt["t"])),
                                           _word(nxt["say"])))
                i += 1
            ck.presses(t, sorted(set(group) & set(chars)))  # nobody plays at other stations
        elif "say" in line:
            ck.run_to(t - 2 * EPS)  # a toast heard at a deadline's instant is in time for it
            w = _word(line["say"])
            if w and not ck.over:
                ck.toasts.append(Toast(t, float(line.get("end", t)), w))
        i += 1
    ck.run_to(math.inf)  # the clock runs on through every pending timer
    return ck.out


def decisions(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The printed replay projected onto the checker's tuples."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        t, k = e["t"], e["event"]
        if k == "reveal" and not (e["kind"] == "same_again" and e["word"] is None):
            w = e["word"]
            words = [] if w is None else [w] if isinstance(w, str) else w
            out.append((t, k, e["card"], e["revealer"], e["invited"], words))
        elif k in ("requeued", "discarded"):
            out.append((t, k, e["card"]))
        elif k == "claim":
            out.append((t, k, e["station"], e.get("tied", [])))
        elif k == "heard":
            out.append((t, k, e["station"], e["word"]))
        elif k == "correct":
            out.append((t, k, e["station"]))
        elif k == "veto_window":
            out.append((t, k, e["station"], e["voters"], e["needed"]))
        elif k == "vetoed":
            out.append((t, k, e["station"]))
        elif k == "mistake":
            out.append((t, k, e["station"], e["reason"]))
        elif k == "penalty":
            out.append((t, k, e["station"], e.get("card")))
        elif k == "win":
            out.append((t, k, e["station"], e["card"], e["pot"], e["reaction_ms"]))
        elif k == "unwon":
            out.append((t, k, e["card"], e["reason"]))
        elif k == "game_over":
            out.append((t, k, e["scores"], e["winners"], e["pot"]))
    return out


def conservation(events: list[dict[str, Any]], deck: list[str]) -> dict[str, Any]:
    """From the printed events alone: where every card of the deck went, each exactly once.

    A finished game accounts for the whole deck (piles, pot, discards); an unfinished one
    for no card twice and none from outside the deck. Raises AssertionError otherwise.
    """
    piles: dict[int, list[str]] = {}
    pot: list[str] = []
    gone: list[str] = []
    over = False
    for e in events:
        k = e["event"]
        if k == "dealt":
            piles = {int(s): [] for s in e["characters"]}
            assert e["cards"] == len(deck), f"dealt {e['cards']} cards, deck holds {len(deck)}"
        elif k == "win":
            assert e["pot"] == pot, f"win takes pot {e['pot']} but the pot holds {pot}"
            piles[e["station"]] += pot + [e["card"]]
            pot = []
        elif k == "penalty" and e["to_pot"]:
            assert piles[e["station"]] and piles[e["station"]][-1] == e["card"], e
            pot.append(piles[e["station"]].pop())
            assert e["pot"] == pot
        elif k == "penalty":
            assert not piles[e["station"]], f"{e}: the player had a card to give"
        elif k in ("unwon", "discarded"):
            gone.append(e["card"])
        elif k == "game_over":
            over = True
            assert e["pot"] == pot
            assert e["scores"] == {str(s): len(p) for s, p in piles.items()}, e["scores"]
            top = max(e["scores"].values())
            assert e["winners"] == [int(s) for s, n in e["scores"].items() if n == top]
    every = sorted(pot + gone + [c for p in piles.values() for c in p])
    assert len(every) == len(set(every)), f"a card is in two places: {every}"
    assert set(every) <= set(deck), f"cards from nowhere: {set(every) - set(deck)}"
    if over:
        assert every == sorted(deck), f"cards at the end {every} != dealt {sorted(deck)}"
    return {"piles": piles, "pot": pot, "gone": gone, "over": over}


def load(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A replay script and its expected (printed) events."""
    script = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    exp = path.with_name(path.stem + ".expected.jsonl")
    events = [json.loads(x) for x in exp.read_text(encoding="utf-8").splitlines() if x.strip()]
    return script, events
