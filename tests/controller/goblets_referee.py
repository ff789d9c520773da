"""A small Raise Your Goblets referee written from docs/rules/goblets.md (not from the engine).

It replays a scripted game's header and inputs beside the box's public events, keeping its
own goblets, screens, targets, whose move it is and the score, and asserts at every step
that the box agrees with the rules page: which actions are legal (the box refuses exactly
those the rules forbid, and a refusal changes nothing), the turn and toast-phase order, the
reveal, the survival rule, the scoring table, the variants, the tie-break, and that no
public event carries a hidden token or a victory point before the end.

Every deal must be fixed by the header (targets, goblets, loyalty, characters and the
tie-break goblets), so that the only chance left is the Gambler's pick, which the referee
reads from the public ``gambled`` event.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

HOUSES = ["De Miceti", "McToadery", "Aconitiers", "Wespendorf", "Van Visser", "Arañeros"]
W, P, A, U, OGRE = "wine", "poison", "antidote", "unicorn", "ogre"
ABILITY_ACTIONS = {"juggle": "Juggler", "scheme": "Schemer", "spy": "Spy",
                   "transmute": "Alchemist"}
ONCE = {"Juggler", "Schemer", "Spy", "Alchemist", "Bartender"}
#: the rules page's 21 characters, in their numbered order (a header may name one by number)
CHARACTERS = ["Sommelier", "Juggler", "Ogre Cook", "Unicorn Keeper", "Toastmaster", "Schemer",
              "Glutton", "Martyr", "Taster", "Alchemist", "Hoarder", "Impatient", "Plotter",
              "Pacifist", "Avenger", "Spy", "Butler", "Hypochondriac", "Bartender", "Gambler",
              "Chaperone"]

#: what each public event may say: never a goblet's or a screen's tokens, never a VP
#: before the end (the reveal, the tie goblets and Russian Goblette's wins are public)
PUBLIC_FIELDS = {
    "start": {"game", "seed", "players"},
    "setup": {"players", "mode", "variants", "characters", "host", "bots"},
    "characters": {"characters"},
    "character_dealt": {"seat"},
    "course": {"course", "host", "units", "targets"},
    "turn": {"seat", "actions_left", "step", "phase"},
    "poured": {"seat", "goblet", "count"},
    "peeked": {"seat"},
    "rotated": {"seat", "direction", "steps"},
    "swapped": {"seat", "goblets"},
    "juggled": {"seat", "goblets"},
    "schemed": {"seat"},
    "spied": {"seat", "target"},
    "transmuted": {"seat"},
    "plotted": {"seat", "with", "targets"},
    "passed": {"seat", "step"},
    "toast": {"caller", "course"},
    "tasted": {"seat"},
    "gambled": {"seat", "goblets"},
    "drank": {"seat", "goblet", "tokens", "coaster", "survived", "poisoned", "wine"},
    "scored": {"seat"},
    "course_won": {"seats", "course"},
    "new_character": {"seat", "character"},
    "course_over": {"course", "caller"},
    "tie_break": {"seats", "goblets"},
    "tie_goblet": {"seat", "goblet", "token", "survived"},
    "game_over": {"ranking", "vp", "winners", "shared", "tie_break"},
    "illegal": {"seat", "error", "reason", "do"},
}


def survives(goblet: Counter[str], hypochondriac: bool = False) -> bool:
    """The rules page: the Unicorn saves; the Ogre Poison kills; else each Antidote removes
    one Poison (two for the Hypochondriac) and any Poison left kills."""
    if goblet[U]:
        return True
    if goblet[OGRE]:
        return False
    return goblet[P] <= goblet[A] * (2 if hypochondriac else 1)


def names(c: Counter[str]) -> dict[str, int]:
    return {t: c[t] for t in (W, P, A, U, OGRE) if c[t] > 0}


def house_of(name: Any) -> str:
    key = str(name).strip().lower()
    for i, h in enumerate(HOUSES, start=1):
        if key in (h.lower(), str(i)) or (key == "araneros" and i == 6):
            return h
    colours = ["brown", "green", "purple", "yellow", "blue", "red"]
    return HOUSES[colours.index(key)]


def character_of(name: Any) -> str:
    """A header's card, by name or number 1-21 (rules page, replay format)."""
    key = str(name).strip().lower()
    for i, title in enumerate(CHARACTERS, start=1):
        if key in (title.lower(), str(i)):
            return title
    raise AssertionError(f"no character {name!r}")


def by_course(raw: Any, course: int) -> Any:
    if not raw:
        return None
    if isinstance(raw, dict) and all(isinstance(v, (dict, list)) for v in raw.values()):
        return raw.get(str(course))
    return raw if course == 1 else None


@dataclass
class Unit:
    index: int
    house: str
    noble: int
    winetaster: int | None
    screen: Counter[str] = field(default_factory=Counter)
    target: str | None = None
    loyalty: str | None = None
    used: set[str] = field(default_factory=set)

    @property
    def place(self) -> int:
        return self.index + 1

    @property
    def seats(self) -> tuple[int, ...]:
        return (self.noble,) if self.winetaster is None else (self.winetaster, self.noble)


@dataclass
class Step:
    kind: str
    seat: int
    unit: int
    actions: int = 1
    acted: bool = False


class Referee:
    """Follows one scripted game; ``check()`` asserts the rules page all along."""

    def __init__(self, header: dict[str, Any], inputs: list[Any], events: list[dict[str, Any]],
                 truth: Any = None) -> None:
        self.header, self.inputs, self.events = header, inputs, events
        self.truth = truth  # the engine's state after the game, for the private VP per course
        self.n = header["players"]
        variants = (header.get("options") or {}).get("variants", [])
        self.memory, self.legacy = "memory" in variants, "legacy" in variants
        self.mode = "russian" if self.n <= 3 else "banquet" if self.n <= 6 else "winetasters"
        with_chars = (header.get("options") or {}).get("characters", True) \
            and self.mode != "russian"
        self.characters: dict[int, str] = {}
        if with_chars:
            self.characters = {int(s): character_of(c)
                               for s, c in (header.get("characters") or {}).items()}
            assert len(self.characters) == self.n, "the referee needs every character fixed"
        self.host = int(header.get("host", 1))
        self.course = 0
        self.vp = {s: 0 for s in range(1, self.n + 1)}
        self.course_vp: list[dict[int, int]] = []
        self.queue: list[Step] = []
        self.phase = "setup"
        self.caller: int | None = None
        self.last_caller: int | None = None
        self.over = False
        self.refused: list[tuple[dict[str, Any], str]] = []  # (do, error) the box refused
        self.log: list[str] = []  # what the referee saw happen, in words, for scenario asserts

    # -- helpers ------------------------------------------------------------------------
    def char(self, unit: Unit) -> str | None:
        return self.characters.get(unit.noble)

    def unit_of(self, seat: int) -> Unit:
        return next(u for u in self.units if seat in u.seats)

    def from_left_of(self, seat: int) -> list[Unit]:
        start = self.unit_of(seat).index
        k = len(self.units)
        return [self.units[(start + 1 + i) % k] for i in range(k)]

    # -- the course set-up --------------------------------------------------------------
    def seating(self) -> list[tuple[int, int | None]]:
        n, c = self.n, self.course
        if self.mode != "winetasters":
            return [(s, None) for s in range(1, n + 1)]
        # the Noble sits left of their Winetaster; each course every Noble becomes the
        # Winetaster of the player to their left; the extra player moves one seat left too
        pairs = []
        for i in range(n // 2):
            taster = (c - 1 + 2 * i) % n + 1
            pairs.append((taster % n + 1, taster))
        if n % 2:
            pairs.append(((n - 1 + c - 1) % n + 1, None))
        return pairs

    def first_seating(self) -> list[tuple[int, int | None]]:
        course, self.course = self.course, 1
        try:
            return self.seating()
        finally:
            self.course = course

    def begin_course(self, ev: dict[str, Any]) -> None:
        self.course += 1
        assert ev["course"] == self.course and ev["host"] == self.host, ev
        seats = self.seating()
        # houses stay at fixed table positions (course 1's units): a pair plays the house of
        # its Winetaster's seat's position, the extra player the one left over
        first = {s: k for k, (noble, taster) in enumerate(self.first_seating())
                 for s in (noble, taster) if s is not None}
        held = [first[taster] if taster is not None else None for _, taster in seats]
        free = [k for k in range(len(seats)) if k not in held]
        house_index = [k if k is not None else free.pop(0) for k in held]
        self.units = [Unit(i, HOUSES[house_index[i]], noble, taster)
                      for i, (noble, taster) in enumerate(seats)]
        assert [(u["house"], u["seats"], u["place"]) for u in ev["units"]] == \
            [(u.house, list(u.seats), u.place) for u in self.units], ev
        goblets = 6 if self.mode == "russian" else len(self.units)
        deal = by_course(self.header.get("goblets"), self.course)
        assert deal is not None, f"course {self.course}: the referee needs the goblets fixed"
        assert len(deal) == goblets
        # 1 Antidote + 2 Poison + Wine up to one token per goblet
        assert Counter(deal) == Counter({A: 1, P: 2, W: goblets - 3}), deal
        coasters = not (self.mode == "russian" or self.memory)
        self.places = [{"tokens": Counter({t: 1}), "coaster": self.units[i].house if coasters else None,
                        "drunk_by": None} for i, t in enumerate(deal)]
        pool_wine = 21 - 3 * len(self.units) - (goblets - 3)
        for unit in self.units:
            unit.screen = Counter({W: 3, P: 2, A: 2})
        if self.mode != "russian":
            given = by_course(self.header.get("targets"), self.course)
            assert given is not None, f"course {self.course}: the referee needs the targets"
            for unit in self.units:
                unit.target = house_of(given.get(str(unit.noble)) or next(
                    given[str(s)] for s in unit.seats if str(s) in given))
            # from the Host clockwise, own house: swap with the player to the left
            start = self.unit_of(self.host).index
            for k in range(len(self.units)):
                unit = self.units[(start + k) % len(self.units)]
                if unit.target == unit.house:
                    left = self.units[(unit.index + 1) % len(self.units)]
                    unit.target, left.target = left.target, unit.target
            assert all(u.target != u.house for u in self.units)
            assert {int(s): h for s, h in ev["targets"].items()} == \
                {u.noble: u.target for u in self.units}, ev
        if self.mode == "winetasters":
            cards = by_course(self.header.get("loyalty"), self.course) or {}
            for unit in self.units:
                if unit.winetaster is not None:
                    unit.loyalty = cards[str(unit.winetaster)]
            dealt = Counter(u.loyalty for u in self.units if u.winetaster is not None)
            assert dealt["traitor"] <= 1 and dealt["loyal"] <= 5
        # [Course] abilities from the Host clockwise
        self.queue = []
        start = self.unit_of(self.host).index
        for k in range(len(self.units)):
            unit = self.units[(start + k) % len(self.units)]
            ch = self.char(unit)
            if ch == "Ogre Cook":
                unit.screen[OGRE] += 1
            elif ch == "Unicorn Keeper":
                unit.screen[U] += 1
            elif ch == "Hoarder" and pool_wine > 0:
                unit.screen[W] += 1
                pool_wine -= 1
            elif ch == "Plotter":
                self.queue.append(Step("plot", unit.noble, unit.index))
        self.phase = "course"
        self.caller = None
        if not self.queue:
            self.start_turns()

    def start_turns(self) -> None:
        self.phase = "turns"
        self.turn_unit = (self.unit_of(self.host).index + 1) % len(self.units)
        self.begin_turn()

    def allowance(self, unit: Unit) -> int:
        return 1 if self.char(unit) == "Impatient" else 0

    def begin_turn(self) -> None:
        unit = self.units[self.turn_unit]
        self.wine_at_start = unit.screen[W]
        if unit.winetaster is None:
            self.queue = [Step("turn", unit.noble, unit.index,
                               1 if self.mode == "russian" else 2)]
        else:
            self.queue = [Step("turn", unit.winetaster, unit.index),
                          Step("turn", unit.noble, unit.index)]
            if self.wine_at_start <= self.allowance(unit):
                self.queue.insert(0, Step("noble_first", unit.noble, unit.index))

    def end_step(self) -> None:
        self.queue.pop(0)
        if self.queue:
            return
        if self.phase == "course":
            self.start_turns()
        elif self.phase == "turns":
            self.turn_unit = (self.turn_unit + 1) % len(self.units)
            self.begin_turn()
        elif self.phase == "toast":
            self.after_finals()
        elif self.phase == "drink":
            self.phase = "reveal"

    # -- legality, from the rules page ---------------------------------------------------
    def verdict(self, do: dict[str, Any]) -> str | None:
        """Why the rules forbid ``do`` now, or None when it is legal."""
        if self.over:
            return "the game is over"
        if not self.queue:
            return "nobody is asked"
        step = self.queue[0]
        seat, typ = do.get("seat"), do.get("type")
        if seat != step.seat:
            return "not this seat's move"
        unit = self.units[step.unit]
        ch = self.char(unit)
        russian = self.mode == "russian"
        if typ == "pass":
            return "a goblet must be chosen" if step.kind in ("drink", "choose") else None
        if step.kind == "noble_first":
            return None if typ == "toast" else "only a Toast or a Pass"
        if typ == "toast":
            if step.kind not in ("turn",):
                return "no Toast now"
            if seat == unit.winetaster:
                return "a Winetaster cannot Toast"
            if step.acted or (unit.winetaster is not None):
                return "the Toast is the first and only action"
            if self.wine_at_start > self.allowance(unit):
                return "Wine behind the screen at the start of the turn"
            return None
        if step.kind == "free_peek":
            return None if typ == "peek" and do.get("goblet") in (None, unit.place) else "peek"
        if step.kind == "plot":
            if typ != "plot":
                return "plot or pass"
            other = self.unit_of(do["target"]) if do["target"] in range(1, self.n + 1) else None
            if other is None or other is unit or other.target == unit.house \
                    or unit.target == other.house:
                return "no own house"
            return None
        if step.kind == "taste":
            return None if typ == "taste" and self.places[unit.index]["tokens"][do["token"]] \
                else "not in the goblet"
        if step.kind == "gamble":
            return None if typ == "gamble" else "gamble or pass"
        if step.kind == "drink":
            g = do.get("goblet")
            return None if typ == "drink" and 1 <= g <= 6 and \
                self.places[g - 1]["drunk_by"] is None else "not a goblet to drink"
        if step.kind == "choose":
            g = do.get("goblet")
            return None if typ == "choose" and 1 <= g <= len(self.tie_goblets) and \
                g not in self.tie_taken.values() else "not a tie goblet"
        # turn or final: the actions
        in_turn = step.kind == "turn"
        places = range(1, len(self.places) + 1)
        noble_of_pair = unit.winetaster is not None and seat == unit.noble
        if typ == "pour":
            tokens = do.get("tokens") or [do.get("token")]
            if do.get("goblet") not in places:
                return "no such goblet"
            if len(tokens) == 2 and not (ch == "Bartender" and in_turn
                                         and "Bartender" not in unit.used):
                return "two tokens: the Bartender, once, in a turn"
            if any(unit.screen[t] < n for t, n in Counter(tokens).items()):
                return "not behind the screen"
            return None
        if typ == "peek":
            if noble_of_pair:
                return "a Noble cannot Peek"
            g = do.get("goblet")
            if russian:
                return None if g in places else "name a goblet"
            if g in (None, unit.place):
                return None
            return None if ch == "Sommelier" and in_turn and g in places else "own goblet only"
        if typ == "rotate":
            if russian:
                return "no Rotate in Russian Goblette"
            steps = do.get("steps", 1)
            return None if steps == 1 or (steps == 2 and ch == "Butler" and in_turn) \
                else "one place (two: the Butler)"
        if typ == "swap":
            if russian:
                a, b = do.get("goblets") or (0, 0)
                return None if a in places and b in places and a != b else "two goblets"
            g = self.swap_partner(unit, do)
            return None if g in places and g != unit.place else "another player's goblet"
        if typ in ABILITY_ACTIONS:
            owner = ABILITY_ACTIONS[typ]
            if ch != owner or not in_turn or owner in unit.used:
                return f"the {owner}, once per course, in a turn"
            if typ in ("juggle", "scheme"):
                a, b = do["goblets"]
                if a not in places or b not in places or a == b:
                    return "two goblets"
                if typ == "scheme" and self.places[0]["coaster"] is None:
                    return "no coasters"
            if typ == "spy" and (do["target"] not in range(1, self.n + 1)
                                 or do["target"] in unit.seats):
                return "another player"
            if typ == "transmute":
                if do.get("into") not in (A, P):
                    return "a Poison into an Antidote, or back"
                src = P if do["into"] == A else A
                if unit.screen[src] < 1:
                    return "nothing to turn"
            return None
        return "not an action now"

    @staticmethod
    def swap_partner(unit: Unit, do: dict[str, Any]) -> int | None:
        """The other place of a Swap: ``goblet``, or the one of ``goblets: [a, b]`` that is
        not the swapper's own (the same move spelt as Russian Goblette's); None if neither
        of the two is the swapper's."""
        pair = do.get("goblets")
        if pair is None:
            return do.get("goblet")
        a, b = pair
        return b if a == unit.place else a if b == unit.place else None

    # -- doing -------------------------------------------------------------------------
    def apply(self, do: dict[str, Any], evs: list[dict[str, Any]]) -> None:
        step = self.queue[0]
        unit = self.units[step.unit]
        typ, seat = do["type"], do["seat"]
        kinds = [e["event"] for e in evs]
        if typ == "pass":
            assert kinds[0] == "passed", evs
            self.end_step()
            return
        if typ == "toast":
            assert kinds[0] == "toast" and evs[0]["caller"] == seat, evs
            self.log.append(f"toast {seat}")
            self.caller = self.last_caller = seat
            self.phase = "toast"
            self.final_order()
            return
        g = self.places
        if typ == "pour":
            tokens = do.get("tokens") or [do["token"]]
            assert evs[0] == {"t": evs[0]["t"], "event": "poured", "seat": seat,
                              "goblet": do["goblet"], "count": len(tokens)}, evs
            for t in tokens:
                unit.screen[t] -= 1
                g[do["goblet"] - 1]["tokens"][t] += 1
            if len(tokens) == 2:
                unit.used.add("Bartender")
        elif typ == "rotate":
            # clockwise: each goblet moves to the next seat (the left player)
            k = do.get("steps", 1) * (1 if do["direction"] in ("cw", "clockwise") else -1)
            self.places = [g[(i - k) % len(g)] for i in range(len(g))]
        elif typ in ("swap", "juggle"):
            a, b = do["goblets"] if typ == "juggle" or self.mode == "russian" \
                else (unit.place, self.swap_partner(unit, do))
            g[a - 1], g[b - 1] = g[b - 1], g[a - 1]
            if typ == "juggle":
                unit.used.add("Juggler")
        elif typ == "scheme":
            a, b = do["goblets"]
            g[a - 1]["coaster"], g[b - 1]["coaster"] = g[b - 1]["coaster"], g[a - 1]["coaster"]
            unit.used.add("Schemer")
        elif typ == "spy":
            unit.used.add("Spy")
        elif typ == "transmute":
            src = P if do["into"] == A else A
            unit.screen[src] -= 1
            unit.screen[do["into"]] += 1
            unit.used.add("Alchemist")
            return  # a free action
        elif typ == "plot":
            other = self.unit_of(do["target"])
            unit.target, other.target = other.target, unit.target
            assert evs[0]["targets"] == {str(unit.noble): unit.target,
                                         str(other.noble): other.target} or \
                evs[0]["targets"] == {unit.noble: unit.target, other.noble: other.target}, evs
        elif typ == "taste":
            g[unit.index]["tokens"][do["token"]] -= 1
        elif typ == "gamble":
            gam = next(e for e in evs if e["event"] == "gambled")
            a, b = gam["goblets"]
            assert a == unit.place and b != a and 1 <= b <= len(g), gam
            g[a - 1], g[b - 1] = g[b - 1], g[a - 1]
        elif typ == "drink":
            self.russian_drink(seat, do["goblet"], evs)
            return
        elif typ == "choose":
            self.tie_choose(seat, do["goblet"], evs)
            return
        if step.kind in ("plot", "taste", "gamble", "free_peek"):
            self.end_step()
            return
        step.actions -= 1
        step.acted = True
        if step.actions == 0:
            self.end_step()

    # -- the Toast -----------------------------------------------------------------------
    def final_order(self) -> None:
        caller = self.caller
        assert caller is not None
        order = self.from_left_of(caller)
        chap = [u for u in order if self.char(u) == "Chaperone" and caller not in u.seats]
        order = [u for u in order if u not in chap] + chap
        self.queue = []
        for unit in order:
            if unit.winetaster is not None:
                self.queue.append(Step("free_peek", unit.winetaster, unit.index))
            for _ in range(2 if self.char(unit) == "Toastmaster" else 1):
                self.queue.append(Step("final", unit.noble, unit.index))

    def after_finals(self) -> None:
        if self.mode == "russian":
            self.phase = "russian_drink"
            caller = self.caller or 1
            self.alive = [(caller + k) % self.n + 1 for k in range(self.n)]
            self.drinker = 0
            self.queue = [Step("drink", self.alive[0], self.alive[0] - 1)]
            return
        self.phase = "drink"
        self.queue = []
        for unit in self.from_left_of(self.caller or 1):
            ch = self.char(unit)
            if ch == "Taster":
                self.queue.append(Step("taste", unit.noble, unit.index))
            elif ch == "Gambler":
                self.queue.append(Step("gamble", unit.noble, unit.index))
        if not self.queue:
            self.phase = "reveal"

    def reveal(self, drank: list[dict[str, Any]]) -> dict[int, bool]:
        order = self.from_left_of(self.caller or 1)
        assert [d["seat"] for d in drank] == [u.noble for u in order], drank
        alive: dict[str, bool] = {}
        wine: dict[int, int] = {}
        for unit, d in zip(order, drank):
            goblet = self.places[unit.index]
            ok = survives(goblet["tokens"], self.char(unit) == "Hypochondriac")
            assert d["goblet"] == unit.place and d["tokens"] == names(goblet["tokens"]), \
                (d, names(goblet["tokens"]))
            assert d["survived"] is ok and d["poisoned"] is (not ok), d
            assert d["wine"] == goblet["tokens"][W] and d["coaster"] == goblet["coaster"], d
            alive[unit.house] = ok
            wine[unit.noble] = goblet["tokens"][W]
            self.log.append(f"c{self.course} {unit.noble} {'survived' if ok else 'poisoned'}")
        # the seed's table, the [Score] characters, the single most-Wine bonus
        points: dict[int, int] = {}
        targeted_by = {u.target: u.house for u in self.units}
        for unit in self.units:
            me, tgt = alive[unit.house], not alive[unit.target]  # type: ignore[index]
            ch = self.char(unit)
            base = int(me) + int(tgt) + int(me and tgt)
            if ch == "Pacifist":
                base = 2 if me else 0
            elif ch == "Martyr" and not me and tgt:
                base = 3
            elif ch == "Avenger" and not me:
                base = int(tgt) + int(not alive[targeted_by[unit.house]])
            elif ch == "Glutton" and me and wine[unit.noble] >= 3:
                base += 1
            points[unit.noble] = base
        best = max(wine.values())
        leaders = [s for s, w in wine.items() if w == best]
        if len(leaders) == 1:
            points[leaders[0]] += 1
        for unit in self.units:
            if unit.winetaster is not None:
                points[unit.winetaster] = points[unit.noble] if unit.loyalty == "loyal" \
                    else (0 if alive[unit.house] else 3)
        for s, v in points.items():
            self.vp[s] += v
        self.course_vp.append(points)
        return {u.noble: alive[u.house] for u in self.units}

    # -- Russian Goblette's drinking ------------------------------------------------------
    def russian_drink(self, seat: int, place: int, evs: list[dict[str, Any]]) -> None:
        goblet = self.places[place - 1]
        goblet["drunk_by"] = seat
        ok = survives(goblet["tokens"])
        kept = sum(g["tokens"][W] for g in self.places if g["drunk_by"] == seat) if ok else 0
        d = evs[0]
        assert d["event"] == "drank" and d["seat"] == seat and d["goblet"] == place, evs
        assert d["tokens"] == names(goblet["tokens"]) and d["survived"] is ok, d
        assert d["wine"] == kept, d
        self.log.append(f"c{self.course} {seat} {'survived' if ok else 'poisoned'} g{place}")
        if ok:
            self.drinker += 1
        else:
            self.alive.remove(seat)
        if len(self.alive) <= 1 or all(g["drunk_by"] is not None for g in self.places):
            self.queue = []
            if len(self.alive) == 1:
                winners = list(self.alive)
            else:
                wine = {s: sum(g["tokens"][W] for g in self.places if g["drunk_by"] == s)
                        for s in self.alive}
                winners = sorted(s for s in self.alive if wine[s] == max(wine.values()))
            won = next(e for e in evs if e["event"] == "course_won")
            assert won["seats"] == winners, (won, winners)
            for s in range(1, self.n + 1):
                self.vp[s] += int(s in winners)
            self.course_vp.append({s: int(s in winners) for s in range(1, self.n + 1)})
            scored = {e["seat"]: e for e in evs if e["event"] == "scored"}
            assert all(scored[s]["total"] == self.vp[s] for s in self.vp), scored
            self.end_course(evs, {})
            return
        self.drinker %= len(self.alive)
        self.queue = [Step("drink", self.alive[self.drinker], self.alive[self.drinker] - 1)]

    # -- the course's end and the game's -----------------------------------------------
    def end_course(self, evs: list[dict[str, Any]], survived: dict[int, bool]) -> None:
        if self.legacy and self.characters and self.course < 3:
            drawn = {e["seat"]: e.get("character") for e in evs if e["event"] == "new_character"}
            assert set(drawn) == {s for s, ok in survived.items() if not ok}, drawn
            # with Winetasters the new card may be face down: its name is not public, and a
            # game that needs it to be followed cannot be refereed from the public events
            assert all(c is not None for c in drawn.values()) or self.mode == "winetasters", drawn
            assert not set(drawn.values()) & set(self.characters.values())
            self.characters.update({s: c for s, c in drawn.items() if c is not None})
        else:
            assert not [e for e in evs if e["event"] == "new_character"]
        self.host = self.caller or self.host
        kinds = [e["event"] for e in evs]
        if self.mode == "russian":
            top = max(self.vp.values())
            if top >= 3:
                self.game_over(evs, [s for s in self.vp if self.vp[s] == top])
            else:
                assert "course" in kinds, kinds
            return
        if self.course < 3:
            assert "course" in kinds and "game_over" not in kinds, kinds
            return
        top = max(self.vp.values())
        tied = [s for s in self.vp if self.vp[s] == top]
        if len(tied) == 1:
            self.game_over(evs, tied)
            return
        start = self.last_caller or self.host
        order = [s for s in ((start - 1 + k) % self.n + 1 for k in range(self.n)) if s in tied]
        tb = next(e for e in evs if e["event"] == "tie_break")
        assert tb["seats"] == order and tb["goblets"] == len(tied), tb
        self.tie_goblets = list(self.header["tie_break"])
        assert Counter(self.tie_goblets) == Counter({W: 1, P: len(tied) - 1})
        self.tie_order, self.tie_taken = order, {}
        self.phase = "tiebreak"
        self.queue = [Step("choose", order[0], 0)]

    def tie_choose(self, seat: int, goblet: int, evs: list[dict[str, Any]]) -> None:
        reveals = [e for e in evs if e["event"] == "tie_goblet"]
        assert reveals[0]["seat"] == seat and reveals[0]["goblet"] == goblet, reveals
        winner = None
        for e in reveals:
            self.tie_taken[e["seat"]] = e["goblet"]
            token = self.tie_goblets[e["goblet"] - 1]
            assert e["token"] == token and e["survived"] is (token == W), e
            if token == W:
                winner = e["seat"]
        left = [s for s in self.tie_order if s not in self.tie_taken]
        if winner is None:
            assert len(left) >= 2, (reveals, left)
            self.queue = [Step("choose", left[0], 0)]
            return
        self.queue = []
        self.game_over(evs, [winner])

    def game_over(self, evs: list[dict[str, Any]], winners: list[int]) -> None:
        go = next(e for e in evs if e["event"] == "game_over")
        assert {int(s): v for s, v in go["vp"].items()} == self.vp, (go, self.vp)
        assert go["winners"] == winners and go["shared"] is (len(winners) > 1), go
        self.over = True
        self.phase = "over"

    # -- the run -----------------------------------------------------------------------
    def check(self) -> None:
        for e in self.events:
            allowed = PUBLIC_FIELDS[e["event"]] | (
                {"vp", "total"} if e["event"] == "scored" and self.mode == "russian" else set())
            extra = set(e) - {"t", "event"} - allowed
            assert not extra, f"secret or unknown fields {extra} in {e}"
            if e["event"] == "scored" and self.mode != "russian":
                assert set(e) == {"t", "event", "seat"}, e  # VP private until the end
        by_t: dict[float, list[dict[str, Any]]] = {}
        for e in self.events:
            by_t.setdefault(e["t"], []).append(e)
        self.handle_outcome(by_t.get(0.0, []))
        for inp in self.inputs:
            assert inp.kind == "do", "the referee follows do inputs only"
            evs = [e for e in by_t.get(float(inp.t), []) if e["event"] != "turn"]
            turns = [e for e in by_t.get(float(inp.t), []) if e["event"] == "turn"]
            why = self.verdict(inp.action)
            refused = [e for e in evs if e["event"] == "illegal"]
            if refused:
                assert len(evs) == 1 and not turns, f"a refusal changed something: {evs}"
                assert why is not None, f"the box refused a legal action: {refused[0]}"
                assert refused[0]["reason"], refused
                self.refused.append((inp.action, refused[0]["error"]))
                continue
            assert why is None, f"the box took {inp.action}, which the rules forbid: {why}"
            self.apply(inp.action, evs)
            self.handle_outcome(evs)
            self.check_turn_events(turns)

    def handle_outcome(self, evs: list[dict[str, Any]]) -> None:
        """Course set-ups, reveals, scores and the game's end that follow an action."""
        i = 0
        while i < len(evs):
            e = evs[i]
            if e["event"] == "course":
                self.begin_course(e)
            elif e["event"] == "drank" and self.phase == "reveal":
                drank = [x for x in evs[i:] if x["event"] == "drank"]
                survived = self.reveal(drank)
                assert [x["seat"] for x in evs if x["event"] == "scored"] == \
                    sorted(self.course_vp[-1]), evs
                i += len(drank)
                rest = evs[i:]
                self.end_course(rest, survived)
                continue
            i += 1
        if self.phase == "reveal":
            raise AssertionError(f"the reveal was due but the box did not reveal: {evs}")

    def check_turn_events(self, turns: list[dict[str, Any]]) -> None:
        if self.over:
            assert not turns, turns
            return
        assert turns, "the box did not say whose move it is"
        last = turns[-1]
        step = self.queue[0]
        assert (last["seat"], last["step"]) == (step.seat, step.kind), (last, step)
        if step.kind == "turn":
            assert last["actions_left"] == step.actions, (last, step)

    def check_private_truth(self) -> None:
        """The VP the box scored privately each course are the rules' VP."""
        if self.truth is None or self.mode == "russian":
            return
        got = [{int(s): v for s, v in h["points"].items()} for h in self.truth.history]
        assert got == self.course_vp, (got, self.course_vp)
