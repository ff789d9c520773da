"""Writes the scripted Cheers games of this folder (their inputs, not their expected events).

    .venv/bin/python tests/replays/cheers/make_scenarios.py tests/replays/cheers
    for f in tests/replays/cheers/*.jsonl; do case "$f" in *.expected.jsonl) continue;; esac
        .venv/bin/clinkbox replay "$f" > "${f%.jsonl}.expected.jsonl"; done

Each expected file was read against docs/rules/cheers.md before it was kept;
tests/controller/test_cheers_golden_replays.py asserts the rules on them.
Cards are named by their icons: ``c("ML")`` is the first Mint/lemon card (C15).
"""

import json
import sys
from pathlib import Path

ING = ["G", "M", "L", "P", "B"]  # grenadine mint lemon cassis(purple) curacao(blue)
NAMES = {"G": "grenadine", "M": "mint", "L": "lemon", "P": "cassis", "B": "curacao"}


def c(code, copy=0):
    big, small = code[0], code[1]
    return f"C{ING.index(big) * 10 + ING.index(small) * 2 + copy + 1:02d}"


def goal(s):
    return [NAMES[x] for x in s]


class Script:
    def __init__(self, players, teams=None, goals=None, hands=None, draws=(), first=1, seed=7, **opts):
        self.header = {"game": "cheers", "seed": seed, "players": players}
        self.header["options"] = opts
        if teams:
            self.header["teams"] = teams
        if goals:
            self.header["goals"] = {k: goal(v) for k, v in goals.items()}
        if hands is not None:
            deck = [x for seat in sorted(hands) for x in hands[seat]] + list(draws)
            self.header["deck"] = deck
        if first is not None:
            self.header["first"] = first
        self.lines = []
        self.t = 0

    def do(self, **a):
        self.t += 1
        self.lines.append({"t": self.t, "do": a})
        return self

    def play(self, seat, card, to):
        return self.do(type="play", seat=seat, card=card, to=to)

    def push(self, seat, card, to):
        return self.do(type="push", seat=seat, card=card, to=to)

    def discard(self, seat):
        return self.do(type="discard_hand", seat=seat)

    def cheers(self, seat, give, clink=None):
        a = {"type": "cheers", "seat": seat}
        if clink:
            a["clink"] = clink
        a["give"] = give
        return self.do(**a)

    def limit(self, seat, card):
        return self.do(type="limit_discard", seat=seat, card=card)

    def write(self, path):
        with open(path, "w") as f:
            f.write(json.dumps(self.header, ensure_ascii=False) + "\n")
            f.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)


def plan(players, turns, hand_sizes=None, filler=None):
    """turns: list of (seat, kind, card-or-None) in order. Returns (hands, draws): each seat holds
    the card of its next turn's play (drawn at the end of its previous turn) plus filler cards."""
    hs = hand_sizes or {s: 3 for s in range(1, players + 1)}
    used = {card for (_, kind, card) in turns if card}
    pool = list(filler or []) + [
        f"C{n:02d}" for n in range(50, 0, -1) if f"C{n:02d}" not in used and f"C{n:02d}" not in (filler or [])
    ]

    def next_play(seat, after):
        for seat2, kind, card in turns[after:]:
            if seat2 == seat:
                return card if kind == "play" else None
        return None

    held = {}
    for s in sorted(hs):
        x = next_play(s, 0)
        held[s] = [x] if x else []
        held[s] += [pool.pop(0) for _ in range(3 - len(held[s]))]  # every hand is dealt 3
    hands = {s: list(h) for s, h in held.items()}
    draws = []
    for i, (seat, kind, card) in enumerate(turns):
        if kind == "play":
            held[seat].remove(card)
        elif kind == "discard":
            held[seat] = []
        x = next_play(seat, i + 1)
        while len(held[seat]) < hs[seat]:
            if x and x not in held[seat]:
                draws.append(x)
                held[seat].append(x)
            else:
                y = pool.pop(0)
                draws.append(y)
                held[seat].append(y)
    return hands, draws


S = {}
T4 = {"A": [1, 3], "B": [2, 4]}
GOALS = {"A": "GGMML", "B": "PPBBL"}

# 1: the three actions, cheers with a choice of clink, moved cards and pushes never cheer
s = Script(
    4,
    T4,
    GOALS,
    hands={
        1: [c("GG"), c("LG"), c("BM")],
        2: [c("MG"), c("GM"), c("PP")],
        3: [c("GG", 1), c("LL"), c("MB")],
        4: [c("PM"), c("BB"), c("GP")],
    },
    draws=[c("LM"), c("MM"), c("LP"), c("BL"), c("PL"), c("ML"), c("PB"), c("GL")],
    turn_cap=8,
)
s.play(1, c("GG"), 1)  # own front, empty: no cheers
s.play(2, c("GM"), 1)  # played BIG G = front SMALL G: reverse, no cheers
s.play(3, c("GG", 1), 1)  # small G: clinks C01 and C03, seat 1 chooses
s.cheers(1, [2, 4])  # no clink with two matches
s.cheers(3, [2, 4], c("GM"))  # not the target
s.cheers(1, [2, 4], c("LG"))  # a card in hand, not in front
s.cheers(1, [1, 2], c("GM"))  # to themself
s.cheers(1, [2, 2], c("GM"))  # both to one player
s.cheers(1, [3, 5], c("GM"))  # no seat 5
s.play(1, c("LG"), 2)  # the target may not play now
s.cheers(1, [3, 2], c("GM"))  # C02 -> 3 (teammate), C03 -> 2 (enemy)
s.push(4, c("GP"), 1)  # empty front
s.play(4, c("BB"), 2)  # no match
s.play(1, c("LG"), 3)  # small G clinks C02 on seat 3 (only match)
s.cheers(3, {"2": c("LG"), "4": c("GG", 1)})  # C21 lands on seat 2 next to G/M: never cheers again
s.push(2, c("GM"), 2)  # push to self
s.push(2, c("MG"), 4)  # card is in hand, not in front
s.push(2, c("LG"), 4)  # L/G onto seat 4's G/G: a push never cheers
s.discard(3)
s.play(4, c("GG"), 1)  # not in hand
s.limit(4, c("BB"))  # not this step
s.do(type="play", seat=4, to=1)  # no card
s.do(type="drink", seat=4)  # unknown action
s.play(4, c("PM"), 4)
S["actions_and_cheers"] = s


def scripted(players, steps, teams=None, goals=None, first=1, hand_sizes=None, seed=7, cap=True, **opts):
    """steps: ("play", seat, card, to) / ("push", seat, card, to) / ("discard", seat) are turns;
    ("cheers", seat, give, clink) / ("limit", seat, card) / ("raw", {...}) are other inputs."""
    turns = []
    for st in steps:
        if st[0] in ("play", "push", "discard") and not (len(st) > 4 and st[4] == "illegal"):
            turns.append((st[1], st[0], st[2] if st[0] == "play" else None))
    hands, draws = plan(players, turns, hand_sizes)
    if cap and "turn_cap" not in opts:
        opts["turn_cap"] = len(turns)  # the game ends (goals revealed) after the last scripted turn
    s = Script(players, teams, goals, hands=hands, draws=draws, first=first, seed=seed, **opts)
    for st in steps:
        k = st[0]
        if k == "play":
            s.play(st[1], st[2], st[3])
        elif k == "push":
            s.push(st[1], st[2], st[3])
        elif k == "discard":
            s.discard(st[1])
        elif k == "cheers":
            s.cheers(st[1], st[2], st[3] if len(st) > 3 else None)
        elif k == "limit":
            s.limit(st[1], st[2])
        elif k == "raw":
            s.do(**st[1])
    return s


# 2: the front limit (owner's choice, face down), victory checked after it, a forbidden
#    ingredient blocks victory, extra copies are fine, victory on a non-active front by a cheers
S["limit_and_victory"] = scripted(
    4,
    [
        ("play", 1, c("PG"), 2),
        ("play", 2, c("PM"), 2),
        ("play", 3, c("BL"), 2),
        ("play", 4, c("BG"), 2),
        ("play", 1, c("PL"), 2),
        ("play", 2, c("BM"), 2),  # seat 2: 6 cards, P P P B B B
        ("push", 2, c("PM"), 2, "illegal"),  # (turn 7 is seat 3's) not seat 2's turn
        ("play", 3, c("GM"), 2),  # 7 cards: seat 2 must discard
        ("play", 3, c("LL"), 1, "illegal"),  # the table waits on seat 2
        ("limit", 3, c("GM")),  # not seat 3's front / decision
        ("limit", 2, c("LL")),  # not in seat 2's front
        ("limit", 2, c("BM")),  # keeps the grenadine (poison)
        ("play", 4, c("LL"), 2),  # 7 again: P P P B B G L
        ("limit", 2, c("PG")),  # P P B B G L: goal held but G blocks it
        ("play", 1, c("MG"), 2),  # small G clinks the G/M
        ("cheers", 2, [1, 3]),  # G/M and M/G leave: P P B B L -> B wins
        ("raw", {"type": "discard_hand", "seat": 2}),  # after the end
    ],
    teams=T4,
    goals=GOALS,
    cap=False,
)

# 3: two fronts hold their goal after one move: the first from the active player (seat 3) wins
S["simultaneous_victory"] = scripted(
    4,
    [
        ("play", 1, c("GP"), 1),
        ("play", 2, c("PG"), 4),
        ("play", 3, c("GB"), 1),
        ("play", 4, c("PM"), 4),
        ("play", 1, c("MP"), 1),
        ("play", 2, c("BG"), 4),
        ("play", 3, c("MB"), 1),
        ("play", 4, c("BM"), 4),
        ("discard", 1),
        ("play", 2, c("LL", 1), 2),
        ("play", 3, c("LL"), 2),  # small L clinks seat 2's L/L
        ("cheers", 2, {c("LL"): 1, c("LL", 1): 4}),  # seat 1 (A) and seat 4 (B) both complete
    ],
    teams=T4,
    goals=GOALS,
    cap=False,
)

# 4: six players 3+3: at least one clinking card to an enemy of the target
S["enemy_requirement_six"] = scripted(
    6,
    [
        ("play", 1, c("GG"), 1),
        ("play", 2, c("MG"), 1),
        ("cheers", 1, [3, 5]),  # both teammates of seat 1: refused
        ("cheers", 1, [5, 3]),
        ("cheers", 1, [3, 2]),  # M/G -> 3 (teammate), G/G -> 2 (enemy)
        ("play", 3, c("LM"), 3),  # small M clinks the M/G it was given
        ("cheers", 3, [2, 4]),  # both enemies: fine
    ],
    teams={"A": [1, 3, 5], "B": [2, 4, 6]},
    goals=GOALS,
)

# 5: Masquerade: teams secret, no enemy requirement; a turn cap ends it
S["masquerade_no_enemy"] = scripted(
    6,
    [
        ("play", 1, c("GG"), 1),
        ("play", 2, c("MG"), 1),
        ("cheers", 1, [3, 5]),  # both teammates: allowed under Masquerade
        ("play", 3, c("BB"), 4),
    ],
    teams={"A": [1, 3, 5], "B": [2, 4, 6]},
    goals=GOALS,
    masquerade=True,
    turn_cap=3,
)


# 6: three players (house rule): seats A B A, the smaller team's player is dealt 3 and refills to 4
S["odd_three"] = scripted(
    3,
    [
        ("play", 3, c("GG"), 3),
        ("play", 1, c("MG"), 3),  # first = 3, then clockwise 1, 2
        ("cheers", 3, [1, 2]),  # 1 teammate, 2 enemy
        ("play", 2, c("LM"), 2),
        ("discard", 3),
        ("discard", 1),
        ("discard", 2),
    ],
    goals=GOALS,
    first=3,
    hand_sizes={1: 3, 2: 4, 3: 3},
)

# 7: five players 2+2+1 (house rule seats A B C A B): team C's single player holds 4
S["odd_five_three_teams"] = scripted(
    5,
    [
        ("play", 5, c("BB"), 3),
        ("play", 1, c("PB"), 3),  # small B clinks seat 3's B/B
        ("cheers", 3, [1, 4]),  # every other seat is an enemy of C
        ("discard", 2),
        ("discard", 3),
        ("play", 4, c("GG"), 5),
        ("discard", 5),
    ],
    goals={"A": "GGMML", "B": "PPBBL", "C": "LLMMP"},
    split="2+2+1",
    first=5,
    hand_sizes={1: 3, 2: 3, 3: 4, 4: 3, 5: 3},
)

# 8: five players 3+2 (house rule seats A B A B A): team B's players hold 4
S["odd_five_two_teams"] = scripted(
    5,
    [
        ("play", 1, c("LL"), 1),
        ("play", 2, c("ML"), 1),
        ("cheers", 1, [3, 5]),  # both teammates: refused
        ("cheers", 1, [3, 4]),
        ("discard", 3),
        ("discard", 4),
    ],
    goals=GOALS,
    split="3+2",
    first=1,
    hand_sizes={1: 3, 2: 4, 3: 3, 4: 4, 5: 3},
)

# 9: six players 2+2+2: seats A B C A B C
S["six_three_teams"] = scripted(
    6,
    [
        ("play", 6, c("MM"), 1),
        ("play", 1, c("GM"), 1),  # own front: small M clinks M/M
        ("cheers", 1, [4, 4]),
        ("cheers", 1, [4, 2]),  # teammate 4 and enemy 2
        ("push", 2, c("MM"), 6),
    ],
    goals={"A": "GGMML", "B": "PPBBL", "C": "LLMMP"},
    split="2+2+2",
    first=6,
)


# 10: the draw pile runs out: rebuilt from the discards (piles 2, 3, 4); pile 4 running out ends
#     the game with no winner
_ex = Script(4, T4, GOALS, first=1, seed=11)
for _i in range(53):
    _ex.discard((_i % 4) + 1)
S["draw_pile_exhausted"] = _ex


# 11: a cheers puts two fronts over the limit: their owners discard in turn order from the active
#     player (seat 2: seat 4 before seat 1); the L/G landing on seat 4's grenadines never cheers
S["limit_after_cheers"] = scripted(
    4,
    [
        ("play", 1, c("PG"), 1),
        ("play", 2, c("PG", 1), 1),
        ("play", 3, c("PM"), 1),
        ("play", 4, c("GP"), 4),
        ("play", 1, c("PM", 1), 1),
        ("play", 2, c("GP", 1), 4),
        ("play", 3, c("GB"), 4),
        ("play", 4, c("GB", 1), 4),
        ("play", 1, c("BL"), 1),
        ("play", 2, c("MP"), 4),
        ("play", 3, c("BL", 1), 1),
        ("play", 4, c("MP", 1), 4),
        ("play", 1, c("LG"), 3),
        ("play", 2, c("ML"), 3),
        ("cheers", 3, [1, 4]),  # M/L -> 1, L/G -> 4: both fronts at 7
        ("limit", 1, c("PG")),  # seat 4 decides first
        ("limit", 4, c("GP")),
        ("limit", 1, c("PG")),
        ("discard", 3),
    ],
    teams=T4,
    goals=GOALS,
)

if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, sc in S.items():
        sc.write(out / f"{name}.jsonl")
