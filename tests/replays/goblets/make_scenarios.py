"""Writes the scripted Raise Your Goblets games of this folder (inputs, not expected events).

    .venv/bin/python tests/replays/goblets/make_scenarios.py tests/replays/goblets
    for f in tests/replays/goblets/*.jsonl; do case "$f" in *.expected.jsonl) continue;; esac
        .venv/bin/clinkbox replay "$f" > "${f%.jsonl}.expected.jsonl"; done

Each expected file was read against docs/rules/goblets.md before it was kept;
tests/controller/test_goblets_golden_replays.py replays them and checks them with a small
referee written from the rules page. Every deal is fixed in the header so the referee can
follow every goblet's contents from the inputs alone.
"""

import json
import sys
from pathlib import Path

HOUSES = ["De Miceti", "McToadery", "Aconitiers", "Wespendorf", "Van Visser", "Arañeros"]


class Script:
    def __init__(self, players, host=1, seed=7, variants=(), characters=None, **fixed):
        self.header = {"game": "goblets", "seed": seed, "players": players, "host": host,
                       "options": {"variants": list(variants),
                                   "characters": characters is not None}}
        if characters:
            self.header["characters"] = {str(k): v for k, v in characters.items()}
        for key, value in fixed.items():
            self.header[key] = value
        self.lines = []
        self.t = 0

    def do(self, typ, seat, **kw):
        self.t += 1
        self.lines.append({"t": self.t, "do": {"type": typ, "seat": seat, **kw}})
        return self

    def pour(self, seat, token, goblet):
        return self.do("pour", seat, token=token, goblet=goblet)

    def passes(self, *seats):
        for seat in seats:
            self.do("pass", seat)
        return self

    def drain(self, order, wine_to, second=None):
        """Two rounds in which every unit pours its 3 Wine (into ``wine_to[seat]``); the
        second round's other action is ``second[seat]`` (a ``(type, kw)``) or a Pass."""
        for seat in order:
            self.pour(seat, "wine", wine_to[seat]).pour(seat, "wine", wine_to[seat])
        for seat in order:
            self.pour(seat, "wine", wine_to[seat])
            typ, kw = (second or {}).get(seat, ("pass", {}))
            self.do(typ, seat, **kw)
        return self

    def write(self, folder, name):
        with open(Path(folder) / f"{name}.jsonl", "w", encoding="utf-8") as f:
            f.write(json.dumps(self.header, ensure_ascii=False) + "\n")
            for line in self.lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")


def per_course(*deals):
    return {str(i): d for i, d in enumerate(deals, start=1)}


def left_order(first, n):
    return [(first - 1 + k) % n + 1 for k in range(n)]


# -- the base game, 4 players, no characters ------------------------------------------------

def base_four(folder):
    # course 1 deal: seat 1 holds its own house and swaps with seat 2 (Host 2 goes first)
    s = Script(4, host=2, targets=per_course(
        {"1": "De Miceti", "2": "Aconitiers", "3": "Wespendorf", "4": "McToadery"},
        {"1": "McToadery", "2": "De Miceti", "3": "Aconitiers", "4": "Wespendorf"},
        {"1": "Wespendorf", "2": "Aconitiers", "3": "McToadery", "4": "De Miceti"}),
        goblets=per_course(["wine", "poison", "antidote", "poison"],
                           ["poison", "antidote", "wine", "poison"],
                           ["antidote", "poison", "poison", "wine"]),
        tie_break=["poison", "wine"])
    # course 1: turns from the Host's left: 3, 4, 1, 2
    s.do("toast", 3)                                    # Wine behind the screen: refused
    s.pour(3, "wine", 3).pour(3, "wine", 3)             # the same action twice
    s.do("peek", 4).do("rotate", 4, direction="cw")
    s.pour(1, "poison", 3).do("swap", 1, goblet=2)
    s.do("pass", 2)                                     # a Pass ends the turn
    s.pour(2, "wine", 1)                                # no action left: refused
    s.pour(3, "wine", 3).pour(3, "antidote", 3)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.pour(1, "wine", 2).pour(1, "wine", 2)
    s.pour(2, "wine", 1).pour(2, "wine", 1)
    s.do("peek", 3).do("toast", 3)                      # not the first action: refused
    s.do("pass", 3)
    s.pour(4, "wine", 4).do("pass", 4)
    s.pour(1, "wine", 2).do("pass", 1)
    s.pour(1, "wine", 2)                                # out of turn: refused
    s.pour(2, "wine", 1).pour(2, "poison", 4)
    s.pour(3, "ogre", 1)                                # not behind the screen: refused
    s.do("toast", 3)
    s.do("pass", 4).do("rotate", 1, direction="ccw").do("pass", 2)
    s.do("toast", 3)                                    # a final action is never a Toast
    s.do("rotate", 3, direction="cw", steps=2)          # only the Butler rotates two
    s.do("pass", 3)
    # course 2: Host 3, turns 4, 1, 2, 3
    s.drain([4, 1, 2, 3], {4: 4, 1: 4, 2: 2, 3: 3},
            second={4: ("pour", {"token": "poison", "goblet": 2}),
                    1: ("swap", {"goblet": 3}),
                    2: ("pour", {"token": "antidote", "goblet": 2})})
    s.do("toast", 4)
    s.do("pour", 1, token="poison", goblet=3).do("peek", 2).do("pass", 3)
    s.do("rotate", 4, direction="ccw")
    # course 3: Host 4, turns 1, 2, 3, 4
    for seat, goblet in ((1, 1), (2, 1), (3, 3), (4, 4)):
        s.pour(seat, "wine", goblet).pour(seat, "wine", goblet)
    s.pour(1, "wine", 4).pour(1, "poison", 4)
    s.pour(2, "wine", 1).do("pass", 2)
    s.pour(3, "wine", 3).pour(3, "poison", 2)
    s.pour(4, "wine", 4).do("pass", 4)
    s.do("toast", 1)
    s.passes(2, 3, 4, 1)
    # 5 Wine in goblets 1 and 4: no bonus; seats 1 and 4 tie on 6 VP. The tie-break: from
    # the last caller (1) clockwise; the last tied player takes the last goblet
    s.do("choose", 1, goblet=1)
    s.do("choose", 4, goblet=2)                         # the game is over: refused
    s.write(folder, "base_four")


def quick(s, order, wine_to=None, finals=None, second=None, last=None, twice=None):
    """A short course: every unit pours its Wine, the first of ``order`` toasts, the final
    actions pass unless ``finals`` says otherwise (``last``: a Chaperone; ``twice``: a
    Toastmaster)."""
    s.drain(order, wine_to or {x: x for x in order}, second=second)
    s.do("toast", order[0])
    final = [x for x in order[1:] + order[:1] if x != last] + ([last] if last else [])
    for seat in final:
        typ, kw = (finals or {}).get(seat, ("pass", {}))
        s.do(typ, seat, **kw)
        if seat == twice:
            s.do("pass", seat)


def characters_a(folder):
    """Sommelier, Juggler, Ogre Cook, Unicorn Keeper, Toastmaster (5 players, Host 1)."""
    s = Script(5, host=1, characters={1: "Sommelier", 2: "Juggler", 3: "Ogre Cook",
                                      4: "Unicorn Keeper", 5: "Toastmaster"},
               targets=per_course({"1": "Aconitiers", "2": "Wespendorf", "3": "Van Visser",
                                   "4": "De Miceti", "5": "McToadery"},
                                  {"1": "McToadery", "2": "Aconitiers", "3": "Wespendorf",
                                   "4": "Van Visser", "5": "De Miceti"},
                                  {"1": "Van Visser", "2": "De Miceti", "3": "McToadery",
                                   "4": "Aconitiers", "5": "Wespendorf"}),
               goblets=per_course(["wine", "wine", "poison", "antidote", "poison"],
                                  ["poison", "wine", "antidote", "wine", "poison"],
                                  ["antidote", "poison", "wine", "poison", "wine"]))
    s.do("juggle", 2, goblets=[1, 5]).do("juggle", 2, goblets=[2, 3])  # once per course
    s.pour(2, "wine", 2)
    s.pour(3, "ogre", 5).pour(3, "wine", 3)
    s.pour(4, "unicorn", 4).pour(4, "poison", 4)
    s.pour(5, "antidote", 5).pour(5, "wine", 5)   # the Ogre Poison ignores the Antidote
    s.do("peek", 1, goblet=3).pour(1, "wine", 1)  # the Sommelier peeks anywhere
    s.do("peek", 2, goblet=3)                     # not a Sommelier: refused
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.pour(5, "wine", 5).pour(5, "wine", 5)
    s.pour(1, "wine", 1).pour(1, "wine", 1)
    s.do("toast", 2)
    s.do("peek", 3).do("pass", 4)
    s.pour(5, "poison", 1).do("peek", 5)          # the Toastmaster's two final actions
    s.do("peek", 1, goblet=3)                     # no ability in the toast phase: refused
    s.do("peek", 1)
    s.do("juggle", 2, goblets=[1, 2])             # refused
    s.do("pass", 2)
    # course 2 (Host 2): the Juggler's ability is back; the Ogre Cook pours into the
    # Unicorn Keeper's goblet, where the Unicorn Antidote saves
    s.pour(3, "ogre", 4).pour(3, "wine", 3)
    s.pour(4, "unicorn", 4).pour(4, "wine", 4)
    s.pour(5, "wine", 5).pour(5, "wine", 5)
    s.pour(1, "wine", 1).pour(1, "wine", 1)
    s.do("juggle", 2, goblets=[1, 3]).pour(2, "wine", 2)
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.pour(5, "wine", 5).do("pass", 5)
    s.pour(1, "wine", 1).do("pass", 1)
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.do("toast", 3)
    s.passes(4, 5, 5, 1, 2, 3)
    # course 3 (Host 3)
    quick(s, [4, 5, 1, 2, 3], finals={5: ("rotate", {"direction": "cw"})}, twice=5)
    s.write(folder, "characters_a")


def characters_b(folder):
    """Schemer, Glutton, Martyr, Taster, Alchemist, Hoarder (6 players, Host 6)."""
    s = Script(6, host=6, characters={1: "Schemer", 2: "Glutton", 3: "Martyr", 4: "Taster",
                                      5: "Alchemist", 6: "Hoarder"},
               targets=per_course({"1": "McToadery", "2": "Aconitiers", "3": "Wespendorf",
                                   "4": "Van Visser", "5": "Arañeros", "6": "De Miceti"},
                                  {"1": "Arañeros", "2": "De Miceti", "3": "McToadery",
                                   "4": "Aconitiers", "5": "Wespendorf", "6": "Van Visser"},
                                  {"1": "Aconitiers", "2": "Wespendorf", "3": "Van Visser",
                                   "4": "Arañeros", "5": "De Miceti", "6": "McToadery"}),
               goblets=per_course(["poison", "wine", "wine", "antidote", "poison", "wine"],
                                  ["wine", "antidote", "poison", "wine", "wine", "poison"],
                                  ["wine", "poison", "antidote", "poison", "wine", "wine"]))
    s.do("scheme", 1, goblets=[1, 2]).pour(1, "wine", 1)
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.pour(3, "poison", 4).pour(3, "wine", 3)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.do("transmute", 5, into="antidote")          # free: two actions still to come
    s.do("transmute", 5, into="poison")            # once per course: refused
    s.pour(5, "wine", 5).pour(5, "wine", 5)
    s.pour(6, "wine", 6).pour(6, "wine", 6)
    s.do("scheme", 1, goblets=[3, 4])              # refused
    s.pour(1, "wine", 1).pour(1, "wine", 1)
    s.pour(2, "wine", 2).do("pass", 2)
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "wine", 4).do("pass", 4)
    s.pour(5, "wine", 5).pour(5, "poison", 3)
    s.pour(6, "wine", 6)
    s.pour(6, "wine", 6)                           # the Hoarder found no Wine in the pool
    s.pour(6, "poison", 4)                         # (six players): nothing left, refused
    s.do("toast", 1)
    s.passes(2, 3, 4)
    s.do("transmute", 5, into="poison")            # not in the toast phase: refused
    s.passes(5, 6, 1)
    s.do("taste", 4, token="unicorn")              # not in the goblet: refused
    s.do("taste", 4, token="wine")
    # course 2 (Host 1)
    quick(s, [2, 3, 4, 5, 6, 1], second={3: ("pour", {"token": "poison", "goblet": 3})})
    s.do("pass", 4)                                # the Taster declines
    quick(s, [3, 4, 5, 6, 1, 2], second={2: ("pour", {"token": "poison", "goblet": 6})})
    s.do("taste", 4, token="poison")
    s.write(folder, "characters_b")


def characters_c(folder):
    """Impatient, Plotter, Pacifist, Avenger, Spy, Butler (6 players, Host 3)."""
    s = Script(6, host=3, characters={1: "Impatient", 2: "Plotter", 3: "Pacifist",
                                      4: "Avenger", 5: "Spy", 6: "Butler"},
               targets=per_course({"1": "McToadery", "2": "Aconitiers", "3": "Wespendorf",
                                   "4": "Van Visser", "5": "Arañeros", "6": "De Miceti"},
                                  {"1": "Arañeros", "2": "De Miceti", "3": "McToadery",
                                   "4": "Aconitiers", "5": "Wespendorf", "6": "Van Visser"},
                                  {"1": "Aconitiers", "2": "Wespendorf", "3": "Van Visser",
                                   "4": "Arañeros", "5": "De Miceti", "6": "McToadery"}),
               goblets=per_course(["wine", "poison", "antidote", "wine", "poison", "wine"],
                                  ["wine", "antidote", "poison", "wine", "wine", "poison"],
                                  ["poison", "wine", "antidote", "poison", "wine", "wine"]))
    s.do("pour", 2, token="wine", goblet=2)        # the Plotter's choice comes first
    s.do("plot", 2, target=1)                      # would take their own house: refused
    s.do("plot", 2, target=5)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.do("spy", 5, target=6).do("spy", 5, target=1)  # once per course: refused
    s.pour(5, "wine", 5)
    s.do("rotate", 6, direction="cw", steps=2).pour(6, "wine", 6)
    s.pour(1, "wine", 1).pour(1, "wine", 1)
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "poison", 4).pour(4, "poison", 5)
    s.pour(5, "wine", 5).pour(5, "wine", 5)
    s.pour(6, "wine", 6).pour(6, "poison", 3)
    s.do("toast", 1)                               # the Impatient, with 1 Wine left
    s.passes(2, 3, 4, 5)
    s.do("rotate", 6, direction="ccw", steps=2)    # not in the toast phase: refused
    s.passes(6, 1)
    # course 2 (Host 1): the Plotter declines; the Impatient may not Toast with 2 Wine
    s.do("pass", 2)
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.pour(3, "wine", 3).pour(3, "poison", 4)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.pour(5, "wine", 5).pour(5, "wine", 5)
    s.pour(6, "wine", 6).pour(6, "wine", 6)
    s.pour(1, "wine", 1)
    s.do("pass", 1)
    s.do("toast", 2)                               # 1 Wine left and not Impatient: refused
    s.pour(2, "wine", 2).do("pass", 2)
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "wine", 4).pour(4, "poison", 3)
    s.pour(5, "wine", 5).pour(5, "poison", 6)
    s.pour(6, "wine", 6).do("pass", 6)
    s.do("toast", 1)                               # 2 Wine left: refused even for the Impatient
    s.pour(1, "wine", 1).do("pass", 1)
    s.do("toast", 2)
    s.passes(3, 4, 5, 6, 1, 2)
    # course 3 (Host 2)
    s.do("plot", 2, target=3)
    quick(s, [3, 4, 5, 6, 1, 2], second={4: ("pour", {"token": "poison", "goblet": 4})})
    s.write(folder, "characters_c")


def characters_d(folder):
    """Hypochondriac, Bartender, Gambler, Chaperone, Hoarder (5 players, Host 5)."""
    s = Script(5, host=5, seed=11, characters={1: "Hypochondriac", 2: "Bartender",
                                               3: "Gambler", 4: "Chaperone", 5: "Hoarder"},
               targets=per_course({"1": "McToadery", "2": "Aconitiers", "3": "Wespendorf",
                                   "4": "Van Visser", "5": "De Miceti"},
                                  {"1": "Van Visser", "2": "De Miceti", "3": "McToadery",
                                   "4": "Aconitiers", "5": "Wespendorf"},
                                  {"1": "Aconitiers", "2": "Van Visser", "3": "De Miceti",
                                   "4": "McToadery", "5": "Wespendorf"}),
               goblets=per_course(["wine", "poison", "wine", "antidote", "poison"],
                                  ["wine", "antidote", "poison", "wine", "poison"],
                                  ["poison", "wine", "antidote", "poison", "wine"]))
    s.pour(1, "antidote", 1).do("pass", 1)
    s.do("pour", 2, tokens=["poison", "poison"], goblet=1)  # the Bartender's double pour
    s.do("pour", 2, tokens=["wine", "wine"], goblet=2)      # once per course: refused
    s.pour(2, "wine", 2)
    s.do("pour", 3, tokens=["wine", "wine"], goblet=3)      # not a Bartender: refused
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.pour(5, "wine", 5).pour(5, "wine", 5)
    s.pour(1, "wine", 1).pour(1, "wine", 1)
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.pour(3, "wine", 3).do("pass", 3)
    s.pour(4, "wine", 4).do("pass", 4)
    s.pour(5, "wine", 5).pour(5, "wine", 5)       # the Hoarder's fourth Wine
    s.pour(1, "wine", 1).do("pass", 1)
    s.do("toast", 2)
    s.pour(3, "poison", 5)
    s.do("peek", 4)                               # the Chaperone acts last: refused
    s.passes(5, 1, 2)
    s.do("peek", 4)
    s.do("gamble", 3)
    # course 2 (Host 2)
    quick(s, [3, 4, 5, 1, 2], second={1: ("pour", {"token": "poison", "goblet": 1})}, last=4)
    s.do("pass", 3)                               # the Gambler keeps their goblet
    quick(s, [4, 5, 1, 2, 3], second={5: ("pour", {"token": "poison", "goblet": 2})}, last=4)
    s.do("gamble", 3)
    s.write(folder, "characters_d")


def russian_three(folder):
    """Russian Goblette for 3: one action, no Rotate, Swap any two, drinking order."""
    gob = ["wine", "poison", "wine", "antidote", "poison", "wine"]
    s = Script(3, host=1, goblets=per_course(gob, gob[::-1], gob, gob[::-1]))
    # course 1 (Host 1): turns 2, 3, 1
    s.do("rotate", 2, direction="cw")             # no Rotate: refused
    s.do("swap", 2, goblet=3)                     # a Swap names two goblets: refused
    s.do("swap", 2, goblets=[1, 2])
    s.pour(2, "wine", 1)                          # one action a turn: refused
    s.do("peek", 3)                               # name a goblet: refused
    s.do("peek", 3, goblet=4)
    s.pour(1, "wine", 1)
    for _ in range(2):
        s.pour(2, "wine", 2).pour(3, "wine", 3).pour(1, "wine", 6)
    s.pour(2, "wine", 2).pour(3, "wine", 3).pour(1, "poison", 3)
    s.do("toast", 2)
    s.passes(3, 1, 2)                             # the final actions (house rule)
    s.do("drink", 3, goblet=2)                    # from the caller's left
    s.do("drink", 1, goblet=2)                    # already drunk: refused
    s.do("drink", 1, goblet=4).do("drink", 2, goblet=3)   # 2 poisoned: out
    s.do("drink", 3, goblet=6).do("drink", 1, goblet=1)   # 1 poisoned: 3 survives alone
    # course 2 (Host 2): turns 3, 1, 2; 2 wins alone
    wine_round(s, [3, 1, 2])
    s.do("toast", 3).passes(1, 2, 3)
    for seat, goblet in ((1, 5), (2, 1), (3, 6), (2, 3), (3, 2)):
        s.do("drink", seat, goblet=goblet)
    # course 3 (Host 3): turns 1, 2, 3; antidotes in the final actions: all three tie
    wine_round(s, [1, 2, 3])
    s.do("toast", 1)
    s.pour(2, "antidote", 5).pour(3, "antidote", 2).do("pass", 1)
    for seat, goblet in ((2, 1), (3, 3), (1, 6), (2, 4), (3, 5), (1, 2)):
        s.do("drink", seat, goblet=goblet)
    # course 4 (Host 1): turns 2, 3, 1; 2 and 3 reach 3 VP together: a shared victory
    wine_round(s, [2, 3, 1])
    s.do("toast", 2)
    s.pour(3, "antidote", 2).do("pass", 1).do("pass", 2)
    for seat, goblet in ((3, 1), (1, 5), (2, 2), (3, 4), (2, 3), (3, 6)):
        s.do("drink", seat, goblet=goblet)
    s.do("drink", 1, goblet=6)                    # the game is over: refused
    s.write(folder, "russian_three")


def wine_round(s, order):
    """Russian Goblette: everyone pours their 3 Wine into the goblet of their seat number."""
    for _ in range(3):
        for seat in order:
            s.pour(seat, "wine", seat)


def russian_two(folder):
    """Russian Goblette for 2: wins, then two tied courses: both reach 3 VP, shared."""
    gob = ["wine", "poison", "wine", "antidote", "poison", "wine"]
    s = Script(2, host=2, goblets=per_course(*[gob] * 4))
    for toaster, other in ((1, 2), (2, 1)):       # the toaster survives alone
        for _ in range(3):
            s.pour(toaster, "wine", 1).pour(other, "wine", 3)
        s.do("toast", toaster).passes(other, toaster)
        s.do("drink", other, goblet=2)
    for toaster, other in ((1, 2), (2, 1)):       # both survive with 4 Wine: both win
        s.pour(toaster, "wine", 1).pour(other, "wine", 3)
        s.pour(toaster, "wine", 1).pour(other, "wine", 3)
        s.pour(toaster, "wine", 1).pour(other, "antidote", 3)
        s.do("toast", toaster)
        s.pour(other, "antidote", 2).pour(toaster, "antidote", 5)
        for seat, goblet in ((other, 1), (toaster, 3), (other, 2), (toaster, 6), (other, 4),
                             (toaster, 5)):
            s.do("drink", seat, goblet=goblet)
    s.write(folder, "russian_two")


def winetasters_seven(folder):
    """Winetasters for 7: three pairs and the extra player (Host 1)."""
    s = Script(7, host=1, characters={1: "Sommelier", 2: "Juggler", 3: "Butler", 4: "Spy",
                                      5: "Glutton", 6: "Pacifist", 7: "Impatient"},
               targets=per_course({"2": "McToadery", "4": "Aconitiers", "6": "Wespendorf",
                                   "7": "De Miceti"},
                                  {"3": "Wespendorf", "5": "De Miceti", "7": "McToadery",
                                   "1": "Aconitiers"},
                                  {"4": "De Miceti", "6": "Wespendorf", "1": "McToadery",
                                   "2": "Aconitiers"}),
               goblets=per_course(["wine", "poison", "antidote", "poison"],
                                  ["poison", "antidote", "wine", "poison"],
                                  ["antidote", "poison", "poison", "wine"]),
               loyalty=per_course({"1": "loyal", "3": "traitor", "5": "loyal"},
                                  {"2": "loyal", "4": "loyal", "6": "traitor"},
                                  {"3": "loyal", "5": "traitor", "7": "loyal"}))
    # course 1: pairs (W1, N2) (W3, N4) (W5, N6), extra 7; turns from pair (3, 4)
    s.do("toast", 3)                              # a Winetaster cannot Toast: refused
    s.do("peek", 3)
    s.do("peek", 4)                               # a Noble cannot Peek: refused
    s.pour(4, "wine", 2)
    s.pour(5, "wine", 3).pour(6, "poison", 1)
    s.pour(7, "wine", 4).pour(7, "wine", 4)       # the extra player: two actions
    s.do("juggle", 1, goblets=[1, 3])             # the Winetaster uses the Noble's ability
    s.pour(2, "wine", 1)
    s.pour(3, "wine", 2).pour(4, "wine", 2)       # pair (3, 4): no Wine left
    s.pour(5, "wine", 3).pour(6, "wine", 3)       # pair (5, 6): no Wine left
    s.pour(7, "wine", 4).do("pass", 7)
    s.pour(1, "wine", 1).pour(2, "poison", 2)
    s.do("toast", 3)                              # the Noble may Toast first, not the taster
    s.do("pass", 4)                               # the Noble lets the Winetaster play
    s.do("peek", 3).pour(4, "antidote", 2)
    s.do("pass", 6).do("peek", 5).pour(6, "antidote", 3)
    s.pour(7, "poison", 2).do("pass", 7)
    s.pour(1, "wine", 1).pour(2, "antidote", 1)   # pair (1, 2): no Wine left
    s.do("toast", 4)
    s.do("peek", 5).pour(6, "poison", 4)          # free Peek, then the Noble's final action
    s.do("rotate", 7, direction="cw")             # the extra player: one final action
    s.do("pass", 1).do("pass", 2)
    s.do("peek", 3).do("pass", 4)                 # the caller's pair last
    # course 2: pairs (W2, N3) (W4, N5) (W6, N7), extra 1; Host 4: turns from pair (6, 7)
    s.pour(6, "wine", 3).pour(7, "wine", 3)
    s.pour(1, "wine", 4).pour(1, "wine", 4)
    s.pour(2, "wine", 1).pour(3, "wine", 1)
    s.pour(4, "wine", 2).pour(5, "wine", 2)
    s.do("pass", 7)                               # the Impatient Noble, 1 Wine: may Toast
    s.pour(6, "wine", 3).pour(7, "poison", 1)
    s.pour(1, "wine", 4).pour(1, "poison", 1)
    s.pour(2, "wine", 1).pour(3, "poison", 3)
    s.pour(4, "wine", 2).pour(5, "antidote", 2)
    s.do("toast", 6)                              # the Winetaster, even now: refused
    s.do("toast", 7)                              # pair (6, 7): the Noble toasts first
    s.do("peek", 1)
    s.do("peek", 2).pour(3, "poison", 2)
    s.do("peek", 4).do("pass", 5)
    s.do("pass", 6).do("pass", 7)
    # course 3: pairs (W3, N4) (W5, N6) (W7, N1), extra 2; Host 7: turns from the extra 2
    s.pour(2, "wine", 4).pour(2, "wine", 4)
    s.pour(3, "wine", 1).pour(4, "wine", 1)
    s.pour(5, "wine", 2).pour(6, "wine", 2)
    s.pour(7, "wine", 3).pour(1, "wine", 3)
    s.pour(2, "wine", 4).pour(2, "poison", 1)
    s.pour(3, "wine", 1).pour(4, "poison", 2)
    s.pour(5, "wine", 2).pour(6, "poison", 3)
    s.pour(7, "wine", 3).pour(1, "antidote", 3)
    s.do("toast", 2)
    s.passes(3, 4, 5, 6, 7, 1, 2)
    s.write(folder, "winetasters_seven")


def memory_legacy(folder):
    """Raise Your Memory and Legacy together (4 players, Host 1)."""
    s = Script(4, host=1, seed=3, variants=["memory", "legacy"], tie_break=["wine", "poison"],
               characters={1: "Schemer", 2: "Spy", 3: "Butler", 4: "Glutton"},
               targets=per_course({"1": "McToadery", "2": "Aconitiers", "3": "Wespendorf",
                                   "4": "De Miceti"},
                                  {"1": "Wespendorf", "2": "De Miceti", "3": "McToadery",
                                   "4": "Aconitiers"},
                                  {"1": "Aconitiers", "2": "Wespendorf", "3": "De Miceti",
                                   "4": "McToadery"}),
               goblets=per_course(["wine", "poison", "poison", "antidote"],
                                  ["poison", "antidote", "wine", "poison"],
                                  ["antidote", "wine", "poison", "poison"]))
    quick(s, [2, 3, 4, 1], second={2: ("pour", {"token": "poison", "goblet": 3})})
    # course 2 (Host 2): seats 2 and 3 were poisoned and drew new characters
    s.pour(3, "wine", 3).pour(3, "wine", 3)
    s.pour(4, "wine", 4).pour(4, "wine", 4)
    s.do("scheme", 1, goblets=[1, 2])             # no coaster rings to swap: refused
    s.pour(1, "wine", 1).pour(1, "wine", 1)
    s.pour(2, "wine", 2).pour(2, "wine", 2)
    s.pour(3, "wine", 3).pour(3, "poison", 4)
    s.pour(4, "wine", 4).pour(4, "poison", 1)
    s.pour(1, "wine", 1).do("pass", 1)
    s.pour(2, "wine", 2).do("pass", 2)
    s.do("toast", 3)
    s.passes(4, 1, 2, 2, 3)                       # seat 2 is now the Toastmaster
    # course 3 (Host 3): the last course; nobody draws after it
    quick(s, [4, 1, 2, 3], twice=2)
    s.do("choose", 1, goblet=2)                   # seats 1 and 2 tie; from the last caller (4)
    s.write(folder, "memory_legacy")


def main(folder):
    Path(folder).mkdir(parents=True, exist_ok=True)
    for make in (base_four, characters_a, characters_b, characters_c, characters_d,
                 russian_three, russian_two, winetasters_seven, memory_legacy):
        make(folder)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).parent))
