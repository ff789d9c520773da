"""A small Cheers referee written from the rules pages (not from the engine).

The rules are the device's Cheers rules page (the source of truth, after the seed
rulebook) as completed by docs/rules/cheers.md. The referee follows a game input by input beside the box and keeps
its own table: hands, fronts, the draw pile, the discards, the pile number, whose decision
it is. After every input it predicts the box's public events from the rules alone and
asserts that the box printed exactly those, and that the box's table, its menu of legal
actions and each seat's private screen agree with its own:

* legality: the box refuses exactly what the rules forbid (with one of the errors the
  page names for it) and a refusal changes nothing;
* CHEERS exactly when the played card's SMALL icon is the BIG icon of a card already in
  that front; the target chooses the clinking card and gives the two cards to two
  different OTHER players, at least one an enemy of the target (not under Masquerade);
  moved cards and pushes never cheer;
* discarding the whole hand; the active player's refill to 3 (4 on a team smaller than
  the largest at 3 and 5 players); the front limit, counted only once a move (a cheers
  included) has moved its cards, over-limit owners discarding in turn order from the
  active player; victory after the move fully resolved, on anyone's front, the first
  holder in turn order from the active player; the draw pile rebuilt from the discards,
  the fourth pile's end and the turn cap ending the game with no winner;
* hidden information: no hand, goal or face-down discard in a public event or on the
  public table; each seat's screen shows its own hand and goal (and, except under
  Masquerade, its teammates).

Where the deal comes from. Whatever the header fixes (teams, goals, the top of the deck,
the first player) is taken from the header. What it leaves to chance is read from what
the box shows the players, and checked for shape: the first player from the ``setup``
event, a team and a goal from each seat's own screen (checked against the split, between
teammates and against ``goals_revealed``), the order of cards the header did not list and
of every rebuilt draw pile from the screen of the seat that drew them (the referee knows
those cards only as a set, and asserts each drawn card came from it).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

INGREDIENTS = ("grenadine", "mint", "lemon", "cassis", "curacao")
CARD_IDS = tuple(f"C{n:02d}" for n in range(1, 51))
SPLITS = {3: ("2+1",), 4: ("2+2",), 5: ("3+2", "2+2+1"), 6: ("3+3", "2+2+2")}
SEAT_ORDERS = {"2+1": "ABA", "2+2": "ABAB", "3+2": "ABABA", "2+2+1": "ABCAB",
               "3+3": "ABABAB", "2+2+2": "ABCABC"}
DEALT = 3
FRONT_LIMIT = 6
PILES = 4  # the original deck and three rebuilds
TYPES = ("play", "push", "discard_hand", "cheers", "limit_discard")
STEP_OF = {"play": "turn", "push": "turn", "discard_hand": "turn", "cheers": "cheers",
           "limit_discard": "limit_discard"}

#: what each public event may say (docs/rules/cheers.md, "Events")
PUBLIC_FIELDS = {
    "start": {"game", "seed", "players"},
    "setup": {"players", "split", "masquerade", "teams", "first", "hand_sizes", "turn_cap"},
    "dealt": {"seat", "count"},
    "turn": {"seat", "turn"},
    "played": {"seat", "card", "big", "small", "to"},
    "cheers_called": {"seat", "target", "played", "matches"},
    "awaiting": {"seat", "decision"},
    "cheers": {"target", "played", "clinked", "given"},
    "pushed": {"seat", "card", "to"},
    "discarded_hand": {"seat", "count"},
    "limit_discard": {"seat"},
    "drew": {"seat", "count"},
    "reshuffled": {"cards", "pile"},
    "victory": {"team", "player"},
    "game_over": {"winner", "reason"},
    "goals_revealed": {"goals", "teams"},
    "illegal": {"seat", "error", "reason", "do"},
}
CARD_RE = re.compile(r"\bC[0-5][0-9]\b")
EXAMPLE_RE = re.compile(r"like 'C[0-5][0-9]'")


def icons(cid: str) -> tuple[str, str]:
    """(BIG, SMALL) of a card id: C01..C50 by big icon, then small icon, then copy."""
    n = int(cid[1:]) - 1
    return INGREDIENTS[n // 10], INGREDIENTS[(n % 10) // 2]


def holds(front: list[str], goal: list[str]) -> bool:
    """At least the goal's count of each goal ingredient and no card outside the goal."""
    have = Counter(icons(c)[0] for c in front)
    need = Counter(goal)
    return all(i in need for i in have) and all(have[i] >= k for i, k in need.items())


def is_drawn_goal(goal: list[str]) -> bool:
    """The seed's draw: 5 ingredients, at most 2 of one kind, one kind never appears."""
    counts = Counter(goal)
    return len(goal) == 5 and set(counts) <= set(INGREDIENTS) and max(counts.values()) <= 2 \
        and len(counts) <= 4


def clockwise(first: int, n: int) -> list[int]:
    return [(first - 1 + k) % n + 1 for k in range(n)]


def option(header: dict[str, Any], key: str) -> Any:
    options = header.get("options") or {}
    return options[key] if key in options else header.get(key)


def teams_of(raw: dict[str, Any]) -> dict[int, str]:
    """``{"A": [1, 3]}`` or ``{"1": "A"}`` -> seat -> team."""
    if all(str(k).isdigit() for k in raw):
        return {int(s): str(t) for s, t in raw.items()}
    return {int(s): str(t) for t, seats in raw.items() for s in seats}


def by_team(teams: dict[int, str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for seat in sorted(teams):
        out.setdefault(teams[seat], []).append(seat)
    return dict(sorted(out.items()))


@dataclass
class Screen:
    """What the box shows one seat privately: its hand, goal, team and teammates."""

    hand: list[str]
    goal: list[str]
    team: str
    mates: list[int]


@dataclass
class Seen:
    """What the box showed after one input (``do`` None: the deal)."""

    do: dict[str, Any] | None
    events: list[dict[str, Any]]
    table: dict[str, Any]  # the public table: fronts, hand_sizes, draw_pile, ...
    screens: dict[int, Screen]
    menu: list[dict[str, Any]] | None = None  # what the box offers the deciding seat


@dataclass
class Pending:
    target: int
    played: str
    matches: list[str]


@dataclass
class Tally:
    """What the referee saw happen, for coverage asserts."""

    inputs: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    moves: Counter[str] = field(default_factory=Counter)
    cheers_choices: int = 0  # cheers where the target had more than one card to choose from
    limit_discards: int = 0
    limit_queues: int = 0  # moves that left two fronts over the limit at once
    reshuffles: int = 0
    hidden_draws: int = 0  # cards drawn from a pile whose order the referee cannot know
    ends: Counter[str] = field(default_factory=Counter)
    victories_off_turn: int = 0  # won on a front that is not the active player's
    ties: int = 0  # several fronts held their goal after the same move
    four_card_refills: int = 0
    short_refills: int = 0  # the pile was empty and there was nothing to rebuild it from
    late_rebuilds: int = 0  # a pile rebuilt when a card was needed, not when it ran out
    empty_hand_discards: int = 0


class Referee:
    """Follows one game; :meth:`start` then :meth:`follow` after every input."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header
        self.n: int = header["players"]
        self.masquerade = bool(option(header, "masquerade"))
        self.turn_cap = option(header, "turn_cap")
        fixed_teams = option(header, "teams")
        self.teams: dict[int, str] = teams_of(fixed_teams) if fixed_teams else {}
        self.split: str = option(header, "split") or self._split_of_teams()
        assert self.split in SPLITS[self.n], self.split
        self.goals: dict[str, list[str]] = {t: sorted(g) for t, g in (option(header, "goals") or {}).items()}
        self.fixed_goals = set(self.goals)
        deck = [str(c).upper() for c in option(header, "deck") or []]
        self.known: list[str] = deck  # the top of the draw pile, in order
        self.pool: set[str] = set(CARD_IDS) - set(deck)  # below it, order unknown
        self.discard: list[str] = []
        self.pile = 1
        self.hands: dict[int, list[str]] = {s: [] for s in self.seats}
        self.unseen: Counter[int] = Counter()  # cards drawn from ``pool``, seen on the screen
        self.fronts: dict[int, list[str]] = {s: [] for s in self.seats}
        self.active = 0
        self.turn = 0
        self.pending: Pending | None = None
        self.limit_queue: list[int] = []
        self.over = False
        self.winner: str | None = None
        self.tally = Tally()

    # -- the table ----------------------------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return list(range(1, self.n + 1))

    def _split_of_teams(self) -> str:
        if not self.teams:
            return SPLITS[self.n][0]
        sizes = sorted(Counter(self.teams.values()).values())
        return next(s for s in SPLITS[self.n] if sorted(int(k) for k in s.split("+")) == sizes)

    def hand_size(self, seat: int) -> int:
        """3; at 3 and 5 players a team smaller than the largest refills to 4."""
        sizes = Counter(self.teams.values())
        smaller = sizes[self.teams[seat]] < max(sizes.values())
        return 4 if self.n % 2 == 1 and smaller else 3

    def enemies(self, a: int, b: int) -> bool:
        return self.teams[a] != self.teams[b]

    def deciding(self) -> int | None:
        if self.over:
            return None
        if self.pending is not None:
            return self.pending.target
        if self.limit_queue:
            return self.limit_queue[0]
        return self.active

    def step_name(self) -> str:
        if self.over:
            return "over"
        if self.pending is not None:
            return "cheers"
        return "limit_discard" if self.limit_queue else "turn"

    # -- legality, from the rules page ----------------------------------------------------
    def legal(self) -> list[dict[str, Any]]:
        """Every action the rules allow now, in the replay's ``do`` form."""
        seat = self.deciding()
        if seat is None:
            return []
        if self.pending is not None:
            p = self.pending
            others = [s for s in self.seats if s != seat]
            return [{"type": "cheers", "seat": seat, "clink": c, "give": [a, b]}
                    for c in p.matches for a in others for b in others
                    if a != b and (self.masquerade or self.enemies(seat, a) or self.enemies(seat, b))]
        if self.limit_queue:
            return [{"type": "limit_discard", "seat": seat, "card": c} for c in self.fronts[seat]]
        out = [{"type": "play", "seat": seat, "card": c, "to": to}
               for c in self.hands[seat] for to in self.seats]
        out += [{"type": "push", "seat": seat, "card": c, "to": to}
                for c in self.fronts[seat] for to in self.seats if to != seat]
        out.append({"type": "discard_hand", "seat": seat})  # house rule: even an empty hand
        return out

    def verdict(self, do: Any) -> set[str]:
        """The errors the page names for why ``do`` is refused now (empty: it is legal)."""
        if self.over:
            return {"GameIsOver"}
        if not isinstance(do, dict) or do.get("type") not in TYPES:
            return {"UnknownAction"} if isinstance(do, dict) else {"BadAction"}
        parsed = self._parse(do)
        if isinstance(parsed, str):
            return {parsed}
        seat = parsed["seat"]
        if seat not in self.seats:
            return {"NoSuchSeat"}
        wrong: set[str] = set()
        if seat != self.deciding():
            wrong.add("NotYourTurn")
        if STEP_OF[parsed["type"]] != self.step_name():
            wrong.add("NotThisStep")
        if wrong:
            return wrong
        return self._why_not(parsed)

    def _parse(self, do: dict[str, Any]) -> dict[str, Any] | str:
        """The action with seats as numbers and cheers' ``give`` as [played's, clink's]; or
        the error for a malformed one."""
        out = dict(do)
        keys = ["seat"] + (["to"] if do["type"] in ("play", "push") else [])
        for key in keys:
            v = do.get(key)
            if isinstance(v, str) and v.strip().isdigit():
                v = int(v)
            if not isinstance(v, int) or isinstance(v, bool):
                return "BadAction"
            out[key] = v
        if do["type"] in ("play", "push", "limit_discard"):
            if not isinstance(do.get("card"), str) or do["card"].strip().upper() not in CARD_IDS:
                return "BadAction"
            out["card"] = do["card"].strip().upper()
        if do["type"] == "cheers":
            return self._parse_cheers(do, out)
        return out

    def _parse_cheers(self, do: dict[str, Any], out: dict[str, Any]) -> dict[str, Any] | str:
        clink = do.get("clink", do.get("keep_clink"))
        if clink is not None and (not isinstance(clink, str) or clink.upper() not in CARD_IDS):
            return "BadAction"
        clink = clink.upper() if clink else None
        give = do.get("give")
        if isinstance(give, dict):
            cards: dict[str, int] = {}
            for k, v in give.items():
                card, seat = (v, k) if str(k).isdigit() else (k, v)
                if not isinstance(card, str) or card.upper() not in CARD_IDS:
                    return "BadAction"
                cards[card.upper()] = int(seat)
            if len(cards) != 2:
                return "BadAction"
            played = self.pending.played if self.pending else None
            if played is None:  # no cheers waits: refused for that, whatever the map says
                out.update(clink=clink or list(cards)[-1], give=list(cards.values()))
                return out
            if played not in cards:
                return "BadAction"
            other = next(c for c in cards if c != played)
            if clink is not None and clink != other:
                return "BadAction"
            out.update(clink=other, give=[cards[played], cards[other]])
            return out
        if not isinstance(give, list) or len(give) != 2 or \
                not all(isinstance(s, int) and not isinstance(s, bool) for s in give):
            return "BadAction"
        out.update(clink=clink, give=list(give))
        return out

    def _why_not(self, a: dict[str, Any]) -> set[str]:
        """Every rule ``a`` breaks (the page does not say which is named first)."""
        seat, kind = a["seat"], a["type"]
        wrong: set[str] = set()
        if kind == "play":
            if a["to"] not in self.seats:
                wrong.add("NoSuchSeat")
            if a["card"] not in self.hands[seat]:
                wrong.add("CardNotInHand")
        elif kind == "push":
            if a["to"] not in self.seats:
                wrong.add("NoSuchSeat")
            if not self.fronts[seat]:
                wrong.add("EmptyFront")
            elif a["card"] not in self.fronts[seat]:
                wrong.add("CardNotInFront")
            if a["to"] == seat:
                wrong.add("PushToSelf")
        elif kind == "limit_discard":
            if a["card"] not in self.fronts[seat]:
                wrong.add("CardNotInFront")
        elif kind == "cheers":
            wrong = self._why_not_cheers(a)
        return wrong

    def _clink(self, a: dict[str, Any]) -> str | None:
        """The card the target chose; left out, the only match (if only one matches)."""
        p = self.pending
        assert p is not None
        if a["clink"] is None and len(p.matches) == 1:
            return p.matches[0]
        return a["clink"]

    def _why_not_cheers(self, a: dict[str, Any]) -> set[str]:
        p = self.pending
        assert p is not None
        seat, clink, (x, y) = a["seat"], self._clink(a), a["give"]
        wrong: set[str] = set()
        if clink is None or clink == p.played:
            wrong.add("NotAClinkingCard")  # the target must choose; the played card never clinks
        elif clink not in p.matches:
            wrong.add("CardNotInFront" if clink not in self.fronts[seat] else "NotAClinkingCard")
        if x not in self.seats or y not in self.seats:
            return wrong | {"NoSuchSeat"}
        if seat in (x, y):
            wrong.add("CheersToTarget")
        if x == y:
            wrong.add("CheersToSamePlayer")
        if seat not in (x, y) and x != y and not self.masquerade \
                and not (self.enemies(seat, x) or self.enemies(seat, y)):
            wrong.add("CheersWithoutEnemy")
        return wrong

    # -- the deal -----------------------------------------------------------------------
    def start(self, seen: Seen) -> None:
        events = [e for e in seen.events if e["event"] != "start"]
        self._check_fields(events)
        self._learn_teams_and_goals(seen, events[0])
        setup = events[0]
        first = option(self.header, "first")
        assert "first_station" not in self.header, "the referee follows seats, not stations"
        if first is None:
            first = setup["first"]
            assert first in self.seats, setup
        expect = {"event": "setup", "players": self.n, "split": self.split, "masquerade": self.masquerade,
                  "teams": None if self.masquerade else by_team(self.teams), "first": first,
                  "hand_sizes": {str(s): self.hand_size(s) for s in self.seats}, "turn_cap": self.turn_cap}
        predicted: list[dict[str, Any]] = [expect]
        for seat in self.seats:  # seat 1 draws its whole hand, then seat 2, ...
            for _ in range(DEALT):
                self._take(seat)
            predicted.append({"event": "dealt", "seat": seat, "count": DEALT})
        self.active, self.turn = first, 1
        predicted.append({"event": "turn", "seat": first, "turn": 1})
        self._same_events(events, predicted)
        self._resolve_unseen(seen.screens)
        self._compare(seen)

    def _learn_teams_and_goals(self, seen: Seen, setup: dict[str, Any]) -> None:
        """Take from the header what it fixes; else from the setup event (open teams) or
        each seat's own screen (Masquerade's secret teams, a drawn goal), checked for shape."""
        if not self.teams:
            if self.masquerade:
                self.teams = {s: seen.screens[s].team for s in self.seats}
                assert sorted(self.teams.values()) == sorted(SEAT_ORDERS[self.split]), self.teams
            else:
                order = SEAT_ORDERS[self.split]
                self.teams = {s: order[s - 1] for s in self.seats}  # the seed's seat order
        for seat in self.seats:
            screen = seen.screens[seat]
            team = self.teams[seat]
            assert screen.team == team, (seat, screen.team, team)
            goal = sorted(screen.goal)
            if team in self.goals:
                assert goal == self.goals[team], f"seat {seat} is shown another goal than its team's"
            else:
                assert is_drawn_goal(goal), f"team {team}'s goal is not the seed's draw: {goal}"
                self.goals[team] = goal
            mates = [] if self.masquerade else [s for s in self.seats if self.teams[s] == team and s != seat]
            assert sorted(screen.mates) == mates, (seat, screen.mates, mates)

    # -- following an input -------------------------------------------------------------
    def follow(self, seen: Seen) -> None:
        """One input and what the box did with it."""
        self.tally.inputs += 1
        do = seen.do
        events = seen.events
        self._check_fields(events)
        self._check_no_secret(events, do)
        why = self.verdict(do)
        refused = [e for e in events if e["event"] == "illegal"]
        if refused:
            assert len(events) == 1, f"a refusal changed something: {events}"
            assert why, f"the box refused a legal action {do}: {refused[0]}"
            err = refused[0]["error"]
            assert err in why, f"{do}: the box says {err}, the rules page {sorted(why)}"
            assert refused[0]["reason"] and refused[0]["do"] == do, refused[0]
            self.tally.refused[err] += 1
            self._compare(seen)
            return
        assert not why, f"the box took {do}, which the rules forbid ({sorted(why)}): {events}"
        parsed = self._parse(do)  # type: ignore[arg-type]
        assert isinstance(parsed, dict)
        predicted = self._apply(parsed)
        self._same_events(events, predicted)
        self._resolve_unseen(seen.screens)
        self._compare(seen)

    def _apply(self, a: dict[str, Any]) -> list[dict[str, Any]]:
        kind, seat = a["type"], a["seat"]
        self.tally.moves[kind] += 1
        if kind == "play":
            self.hands[seat].remove(a["card"])
            front = self.fronts[a["to"]]
            matches = [c for c in front if icons(c)[0] == icons(a["card"])[1]]  # SMALL = BIG
            front.append(a["card"])
            big, small = icons(a["card"])
            out = [{"event": "played", "seat": seat, "card": a["card"], "big": big, "small": small,
                    "to": a["to"]}]
            if matches:
                self.pending = Pending(a["to"], a["card"], matches)
                self.tally.cheers_choices += len(matches) > 1
                return out + [{"event": "cheers_called", "seat": seat, "target": a["to"],
                               "played": a["card"], "matches": matches},
                              {"event": "awaiting", "seat": a["to"], "decision": "cheers"}]
            return out + self._after_move()
        if kind == "push":  # never a cheers
            self.fronts[seat].remove(a["card"])
            self.fronts[a["to"]].append(a["card"])
            return [{"event": "pushed", "seat": seat, "card": a["card"], "to": a["to"]}] + self._after_move()
        if kind == "discard_hand":
            count = len(self.hands[seat])
            self.tally.empty_hand_discards += count == 0
            self.discard += self.hands[seat]
            self.hands[seat] = []
            return [{"event": "discarded_hand", "seat": seat, "count": count}] + self._after_move()
        if kind == "cheers":
            p = self.pending
            assert p is not None
            a["clink"] = self._clink(a)
            to_played, to_clink = a["give"]
            self.fronts[seat].remove(p.played)
            self.fronts[seat].remove(a["clink"])
            self.fronts[to_played].append(p.played)  # moved by a cheers: never a cheers again
            self.fronts[to_clink].append(a["clink"])
            self.pending = None
            return [{"event": "cheers", "target": seat, "played": p.played, "clinked": a["clink"],
                     "given": {str(to_played): p.played, str(to_clink): a["clink"]}}] + self._after_move()
        # a limit discard: face down, from the owner's front
        self.fronts[seat].remove(a["card"])
        self.discard.append(a["card"])
        self.tally.limit_discards += 1
        out = [{"event": "limit_discard", "seat": seat}]
        if len(self.fronts[seat]) <= FRONT_LIMIT:
            self.limit_queue.pop(0)
        if self.limit_queue:
            return out + [{"event": "awaiting", "seat": self.limit_queue[0], "decision": "limit_discard"}]
        return out + self._end_of_move()

    def _after_move(self) -> list[dict[str, Any]]:
        """The cards have moved: fronts over 6 discard, in turn order from the active player."""
        self.limit_queue = [s for s in clockwise(self.active, self.n) if len(self.fronts[s]) > FRONT_LIMIT]
        self.tally.limit_queues += len(self.limit_queue) > 1
        if self.limit_queue:
            return [{"event": "awaiting", "seat": self.limit_queue[0], "decision": "limit_discard"}]
        return self._end_of_move()

    def _end_of_move(self) -> list[dict[str, Any]]:
        """Fully resolved: victory on anyone's front, else the refill and the next turn."""
        holders = [s for s in clockwise(self.active, self.n) if holds(self.fronts[s], self.goals[self.teams[s]])]
        if holders:
            self.tally.ties += len(holders) > 1
            self.tally.victories_off_turn += holders[0] != self.active
            self.winner = self.teams[holders[0]]
            return [{"event": "victory", "team": self.winner, "player": holders[0]}] + self._game_over("victory")
        out = self._refill(self.active)
        if self.over:
            return out
        if self.turn_cap is not None and self.turn >= self.turn_cap:
            return out + self._game_over("turn_cap")
        self.turn += 1
        self.active = self.active % self.n + 1  # clockwise
        return out + [{"event": "turn", "seat": self.active, "turn": self.turn}]

    def _game_over(self, reason: str) -> list[dict[str, Any]]:
        self.over = True
        self.tally.ends[reason] += 1
        return [{"event": "game_over", "winner": self.winner, "reason": reason},
                {"event": "goals_revealed", "goals": dict(self.goals),
                 "teams": {str(s): t for s, t in self.teams.items()}}]

    # -- the draw pile ----------------------------------------------------------------------
    def _pile_size(self) -> int:
        return len(self.known) + len(self.pool) - sum(self.unseen.values())

    def _take(self, seat: int) -> None:
        """The top card to ``seat``'s hand: known when the header or an earlier draw fixed
        it; else one of ``pool``, learnt from the seat's screen after the input."""
        if self.known:
            self.hands[seat].append(self.known.pop(0))
            return
        self.unseen[seat] += 1
        self.tally.hidden_draws += 1
        if self._pile_size() == 0:  # the pile ran out: its every card went to this hand
            assert set(self.unseen) == {seat}, self.unseen
            self.hands[seat] += sorted(self.pool)
            self.pool, self.unseen = set(), Counter()

    def _rebuild(self) -> dict[str, Any]:
        self.pool, self.known, self.discard = set(self.discard), [], []
        self.pile += 1
        self.tally.reshuffles += 1
        return {"event": "reshuffled", "cards": len(self.pool), "pile": self.pile}

    def _refill(self, seat: int) -> list[dict[str, Any]]:
        """House rules: an empty pile is rebuilt from the discards at once (or as soon as a
        card is needed and there are discards); when the 4th pile runs out the game ends."""
        out: list[dict[str, Any]] = []
        drawn = 0
        size = self.hand_size(seat)
        self.tally.four_card_refills += size == 4

        def flush() -> None:
            nonlocal drawn
            if drawn:
                out.append({"event": "drew", "seat": seat, "count": drawn})
                drawn = 0

        while len(self.hands[seat]) + self.unseen[seat] < size:
            if self._pile_size() == 0:
                if not self.discard:
                    self.tally.short_refills += 1
                    break  # nothing to rebuild from: the hand stays short
                self.tally.late_rebuilds += 1
                out.append(self._rebuild())
            self._take(seat)
            drawn += 1
            if self._pile_size() == 0:
                flush()
                if self.pile == PILES:
                    return out + self._game_over("draw_pile_exhausted")
                if self.discard:
                    out.append(self._rebuild())
        flush()
        return out

    def _resolve_unseen(self, screens: dict[int, Screen]) -> None:
        """Cards drawn from a pile of unknown order: the seat's screen says which."""
        for seat in self.seats:
            extra = Counter(screens[seat].hand) - Counter(self.hands[seat])
            assert sum(extra.values()) == self.unseen[seat], \
                f"seat {seat}'s hand {screens[seat].hand}, the referee's {self.hands[seat]} " \
                f"and {self.unseen[seat]} drawn unseen"
            assert set(extra) <= self.pool, f"seat {seat} drew {sorted(extra)}, not all from the pile"
            self.hands[seat] += list(extra)
            self.pool -= set(extra)
        self.unseen = Counter()

    # -- comparing with the box -----------------------------------------------------------
    def _same_events(self, got: list[dict[str, Any]], predicted: list[dict[str, Any]]) -> None:
        def norm(e: dict[str, Any]) -> Any:
            e = {k: v for k, v in e.items() if k != "t"}
            if e["event"] == "cheers_called":
                e["matches"] = sorted(e["matches"])
            if e["event"] == "goals_revealed":
                e["goals"] = {t: sorted(g) for t, g in e["goals"].items()}
            return json.loads(json.dumps(e, sort_keys=True))

        assert [norm(e) for e in got] == [norm(e) for e in predicted], \
            "the box's events and the rules page's differ:\n box:   " + \
            "\n        ".join(json.dumps(norm(e)) for e in got) + "\n rules: " + \
            "\n        ".join(json.dumps(norm(e)) for e in predicted)

    def _compare(self, seen: Seen) -> None:
        """The box's public table and private screens are the referee's table."""
        if seen.menu is not None:
            self._check_menu(seen.menu)
        t = seen.table
        assert {s: sorted(f) for s, f in t["fronts"].items()} == \
            {s: sorted(f) for s, f in self.fronts.items()}, (t["fronts"], self.fronts)
        assert t["hand_sizes"] == {s: len(h) for s, h in self.hands.items()}, t["hand_sizes"]
        assert (t["draw_pile"], t["discard_pile"], t["pile"]) == \
            (self._pile_size(), len(self.discard), self.pile), t
        assert (t["current"], t["step"], t["over"]) == (self.deciding(), self.step_name(), self.over), t
        pending = None if self.pending is None else \
            (self.pending.target, self.pending.played, sorted(self.pending.matches))
        assert t["cheers"] == pending, (t["cheers"], pending)
        if not self.over:
            assert t["limit_seats"] == self.limit_queue, t
        for seat in self.seats:
            assert sorted(seen.screens[seat].hand) == sorted(self.hands[seat]), seat
            assert sorted(seen.screens[seat].goal) == self.goals[self.teams[seat]], seat
        # the public table holds no hand, no goal before the end, no secret team
        assert t["hand"] is None and t["goal"] is None, t
        if not self.over:
            assert t["goals"] is None, t
            assert t["teams"] == (None if self.masquerade else self.teams), t
        else:
            assert {k: sorted(v) for k, v in t["goals"].items()} == self.goals

    def _check_menu(self, menu: list[dict[str, Any]]) -> None:
        """The box offers exactly the actions the rules allow."""
        def key(a: dict[str, Any]) -> str:
            return json.dumps(a, sort_keys=True)

        got, want = sorted(map(key, menu)), sorted(map(key, self.legal()))
        assert got == want, f"the box offers {set(got) - set(want)} beyond the rules and lacks " \
                            f"{set(want) - set(got)}"

    def _check_fields(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            assert e["event"] in PUBLIC_FIELDS, f"an event the page does not name: {e}"
            extra = set(e) - {"t", "event"} - PUBLIC_FIELDS[e["event"]]
            assert not extra, f"secret or unknown fields {extra} in {e}"

    def _check_no_secret(self, events: list[dict[str, Any]], do: Any) -> None:
        """Before the end, no public event names a card in a hand or in the face-down
        discards (but the ones the input it answers names); under Masquerade no event tells
        a team."""
        hidden = {c for h in self.hands.values() for c in h} | set(self.discard)
        hidden -= set(CARD_RE.findall(json.dumps(do)))
        for e in events:
            if e["event"] == "goals_revealed":
                return
            text = json.dumps({k: v for k, v in e.items() if k != "do"})
            text = EXAMPLE_RE.sub("", text)  # "a card id like 'C17'" names no card
            if e["event"] == "played":
                hidden.discard(e["card"])
            leaked = set(CARD_RE.findall(text)) & hidden
            assert not leaked, f"{e} names {leaked}, which are hidden"
            if self.masquerade and e["event"] not in ("victory", "game_over"):
                assert "team" not in text.lower(), f"a secret team told under Masquerade: {e}"

    def finish(self) -> None:
        """The game is over, and every goal the box drew was a seed's draw."""
        assert self.over, "the game did not end"
        assert all(is_drawn_goal(g) for g in self.goals.values())
