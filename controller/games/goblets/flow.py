"""Raise Your Goblets on the box: private turns behind each player's own buzzer.

The engine (``models.goblets``) holds every rule; this flow turns inputs into engine
actions and the engine's happenings into public events, LEDs, sounds and scenes.

- ``do``: an engine action in its ``to_dict`` format; an illegal one is emitted as
  ``illegal`` with its reason and changes nothing.
- ``press``/``release``: the deciding seat's buzzer opens (and on release closes) its
  private view with its action menus; any other seat's buzzer opens a look at its own
  screen, character and VP. Seats 9-12 confirm with OK instead.
- ``nav``: moves through the open private menu; OK chooses, Back climbs or closes.
Seats listed in the header's ``bots`` are played by the box's simple player.
"""

from __future__ import annotations

import random
from typing import Any

from controller.announce import Announcer, Pace
from controller.clock import TimerHandle
from controller.flow import FlowContext, HeaderError, Question
from controller.games.goblets import scenes
from controller.games.goblets.header import game_from_header, header_from_answers, setup_questions
from controller.games.goblets.menus import CLOSE, ActionPicker
from controller.privacy import BUZZER_SEATS, PrivateGate
from controller.turns import TurnBasedFlow, bots_from_header
from hardware.display.widgets import Scene, chip
from models.base import Happening, IllegalAction
from models.goblets import Game, SetupError, parse_action, to_dict
from models.goblets.actions import Action
from models.goblets.bots import choose_action

SOUNDS = {"drank": "drink", "tie_goblet": "reveal"}  # the others come with their announcement
DIRECTIONS = {"cw": "clockwise", "ccw": "widdershins"}
#: events said in a few words in the last moves line (the seat's chip goes first)
MOVES = {"peeked": "peeked", "schemed": "swapped coasters", "transmuted": "transmuted",
         "tasted": "tasted", "spied": "spied", "passed": "passed"}
#: what a move lets its seat see: its view stays open on it until the buzzer is let go
SEEING = {"peeked", "spied", "tasted"}
BOT_DELAY_S = 1.0
OTHERS_LOOK = "Others: hold your buzzer to see your screen"  # one line beside the hold-Back ring
REVEAL_READ_S = 10.0  # the Toast's reveal stays this long before the box moves first in the next course
VIEW_TIMEOUT_S = 45.0


class GobletsFlow(TurnBasedFlow):
    """The Raise Your Goblets game flow (``game = "goblets"``), 2 to 12 players."""

    game_type = Game.game_type  # game, title and player counts come from it

    @classmethod
    def setup_questions(cls, settings: dict[str, Any]) -> list[Question]:
        return setup_questions(settings)

    @classmethod
    def header_from_answers(cls, answers: dict[str, Any], seed: int,
                            settings: dict[str, Any]) -> dict[str, Any]:
        return header_from_answers(answers, seed, settings)

    def __init__(self, ctx: FlowContext, header: dict[str, Any]) -> None:
        super().__init__(ctx, header)
        try:
            self.engine = game_from_header(header, ctx.rng)
        except SetupError as exc:
            raise HeaderError(f"goblets: {exc}") from None
        self.bots = bots_from_header(header, "goblets", self.engine.state.options.players)
        self.bot_rng = random.Random(f"goblets-bots-{header.get('seed', 0)}")
        self.gate: PrivateGate | None = None
        self.gate_kind = ""  # "decide" or "look"
        self.picker: ActionPicker | None = None
        self.reveal: list[dict[str, Any]] = []
        self.reveal_course = 0
        self.final: dict[str, Any] | None = None
        self._bot_timer: TimerHandle | None = None
        self.news = Announcer(ctx)
        self.pace = Pace()
        self._saw: int | None = None  # a seat whose last move showed it something

    # -- contract --------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.engine.is_over

    def start(self) -> None:
        opts = self.engine.state.options
        self.ctx.emit("setup", players=opts.players, mode=opts.mode, variants=opts.variants,
                      characters=opts.with_characters, host=self.engine.state.host,
                      bots=sorted(self.bots))
        self._emit_all(self.engine.start())
        self._after_change()

    def scene(self) -> Scene:
        pub = self.engine.view(None)
        if self.final is not None:
            return scenes.end_scene(pub, self.final, self.pace.bars(list(self.final["ranking"])),
                                    self.reveal, self.reveal_course)
        if self.gate is not None and self.gate.is_open:
            own = self.engine.view(self.gate.seat)
            if self.gate_kind == "decide" and self.picker is not None:
                return scenes.private_scene(own, self.picker.menu, scenes.status_line(pub))
            heading = "What you saw" if self.gate_kind == "seen" else "Your screen"
            return scenes.private_scene(own, None, heading)
        waiting = self.gate.seat if self.gate is not None and self.gate.state == "waiting" \
            else None
        phone = waiting is not None and waiting in self.ctx.phones  # no looking away: it plays on its phone
        if self.reveal:
            thinking = self.engine.current_player if self.engine.current_player in self.bots else None
            return scenes.reveal_scene(pub, self.reveal, self.reveal_course, waiting, phone, thinking)
        if phone:
            return scenes.table_scene(pub, footer=OTHERS_LOOK,
                                      news=self.news.banner(scenes.next_up(pub, waiting, phone)),
                                      moves=self.news.moves_line(), phone_for=waiting)
        up = scenes.next_up(pub, waiting)
        current = self.engine.current_player
        if current in self.bots:
            up = ("The Toast! " if pub.get("phase") == "toast" else "") + f"{chip(current)}: the box is thinking"
        return scenes.table_scene(pub, waiting_for=waiting,
                                  footer=OTHERS_LOOK,
                                  news=self.news.banner(up), moves=self.news.moves_line(), bots=self.bots)

    # -- inputs ----------------------------------------------------------------------------
    def _do(self, raw: dict[str, Any] | None) -> None:
        try:
            action = parse_action(raw)
        except IllegalAction as exc:
            self._illegal(raw, exc)
            return
        self._submit(action, raw)

    def _submit(self, action: Action, raw: dict[str, Any] | None = None) -> bool:
        try:
            happenings = self.engine.apply(action)
        except IllegalAction as exc:
            self._illegal(raw if raw is not None else to_dict(action), exc)
            return False
        self.reveal = [] if self.engine.state.phase != "tiebreak" else self.reveal
        self._emit_all(happenings)
        self._after_change()
        return True

    def _press(self, station: int) -> None:
        if self.gate is not None and self.gate.press(station):
            return
        if (self.gate is None or not self.gate.is_open) and station in self.engine.state.seats \
                and station != self.engine.current_player:
            self._open_look(station)

    def _nav(self, button: str) -> None:
        gate = self.gate
        if gate is None:
            return
        if gate.state == "waiting":
            if button == "ok" and not gate.ok():
                self.reveal = []  # OK puts the Toast's reveal away: the table is shown
            return
        if not gate.is_open:
            return
        if self.gate_kind in ("look", "seen"):
            if button in ("back", "ok"):
                gate.close("released")
            return
        assert self.picker is not None
        chosen = self.picker.nav(button)
        if chosen is CLOSE:
            gate.close("done")
            self._wait_for_current()
        elif chosen is not None:
            self._submit(chosen)

    # -- gates and bots --------------------------------------------------------------------
    def _after_change(self) -> None:
        """After every change: keep the deciding seat's view, or ask the next seat in."""
        seat = self.engine.current_player
        if self.gate is not None and self.gate.is_open and self.gate.seat == seat \
                and self.gate_kind == "decide":
            self._new_picker()
            return
        if self.gate is not None and self.gate.is_open and self.gate_kind == "decide" \
                and self._saw == self.gate.seat:
            # the turn ended on a look: it stays on the screen until the buzzer is let go
            self.gate_kind, self.picker = "seen", None
            return
        if self.gate is not None:
            self.gate.close("done")
            self.gate = None
        if seat is None:
            return
        if seat in self.bots:
            if self._bot_timer is None:  # its move would put the reveal away: the table reads it first
                wait = REVEAL_READ_S if self.reveal else BOT_DELAY_S
                self._bot_timer = self.ctx.clock.call_at(self.ctx.clock.now() + wait, self._bot_move)
            return
        self._wait_for_current()

    def _wait_for_current(self) -> None:
        seat = self.engine.current_player
        if seat is None or seat in self.bots:
            return
        self.gate = PrivateGate(self.ctx.clock, seat, f"Seat {seat}", VIEW_TIMEOUT_S,
                                on_open=self._decide_opened, on_close=self._gate_closed)
        self.gate_kind = "decide"
        self.picker = None

    def _open_look(self, seat: int) -> None:
        self.gate = PrivateGate(self.ctx.clock, seat, f"Seat {seat}", VIEW_TIMEOUT_S,
                                on_close=self._look_closed)
        self.gate_kind = "look"
        if seat <= BUZZER_SEATS:
            self.gate.press(seat)
        else:
            self.gate.ok()
        self.ctx.emit("private_view", seat=seat)

    def _look_closed(self, reason: str) -> None:
        self.gate = None
        self._after_change()

    def _decide_opened(self) -> None:
        if self.gate is not None:
            self.ctx.emit("private_view", seat=self.gate.seat)
        self._new_picker()

    def _new_picker(self) -> None:
        seat = self.engine.current_player
        if seat is None:
            return
        pub = self.engine.view(None)
        sits = {g["place"]: scenes.who_sits(pub, g["place"]) for g in pub["goblets"]}
        # untitled at its top: the private view's heading already says whose step it is
        self.picker = ActionPicker("", self.engine.legal_actions(), sits)

    def _gate_closed(self, reason: str) -> None:
        if reason in ("released", "timeout") and self.engine.current_player is not None:
            self.gate = None
            self._after_change()

    def _bot_move(self) -> None:
        self._bot_timer = None
        seat = self.engine.current_player
        if seat is None or seat not in self.bots or self.finished:
            return
        self._submit(choose_action(self.engine, self.bot_rng))
        self._leds()

    # -- outputs ---------------------------------------------------------------------------
    def _emit_all(self, happenings: list[Happening]) -> None:
        drank: list[dict[str, Any]] = []
        self._saw = None
        for h in happenings:
            if h.event in ("screen", "winetaster_card"):
                continue  # private only: each seat sees it in its own view
            self.ctx.emit(h.event, **h.fields)
            self._announce(h.event, h.fields)
            if h.event in SOUNDS:
                self.ctx.sound.play(SOUNDS[h.event])
            if h.event == "drank":
                drank.append(h.fields)
            if h.event == "game_over":
                self.final = h.fields
        if drank:
            self.reveal = drank
            self.reveal_course = self.engine.state.course - (0 if self.finished else 1) \
                if self.engine.state.phase not in ("tiebreak", "russian_drink") \
                else self.engine.state.course

    def _announce(self, event: str, f: dict[str, Any]) -> None:
        """The table is told every public move, with the seat's chip, a sound and a flash."""
        now = self.ctx.clock.now()
        seat = f.get("seat")
        who = chip(seat) if isinstance(seat, int) else ""
        if event == "turn":
            if isinstance(seat, int):
                self.pace.waits_on(seat, now)
            return
        if isinstance(seat, int) and event not in ("drank", "scored", "character_dealt", "tie_goblet"):
            self.pace.moved(seat, now)
        if event in SEEING:
            self._saw = seat
        if event == "poured":
            n = f.get("count", 1)
            self.news.announce("pour", f"{who} poured {n} token{'s' if n != 1 else ''} into goblet {f['goblet']}",
                               seat, move=f"{who} poured into {f['goblet']}")
        elif event == "rotated":
            steps = f.get("steps", 1)
            way = f"{DIRECTIONS.get(f['direction'], f['direction'])}" + (f", {steps} places" if steps != 1 else "")
            self.news.announce("move", f"{who} rotated the goblets {way}", seat, move=f"{who} rotated")
        elif event in ("swapped", "juggled", "gambled"):
            a, b = f["goblets"] if f.get("goblets") else ("?", "?")
            verb = {"swapped": "swapped", "juggled": "juggled", "gambled": "gambled on"}[event]
            self.news.announce("move", f"{who} {verb} goblets {a} and {b}", seat, move=f"{who} {verb} {a}+{b}")
        elif event == "plotted":
            self.news.announce("move", f"{who} plotted with {chip(f['with'])}: their targets are swapped",
                               seat, move=f"{who} plotted")
        elif event == "new_character":
            # with Winetasters the new card may be face down: only its owner learns it
            title = f.get("character")
            self.news.announce("move", f"{who} is now the {title}" if title else
                               f"{who} draws a new character", seat)
        elif event == "spied":  # whose screen was looked at is public; what was seen is not
            self.news.announce("move", f"{who} spied on {chip(f['target'])}'s screen", seat,
                               move=f"{who} spied on {chip(f['target'])}")
        elif event in MOVES:
            self.news.announce("move", f"{who} {MOVES[event]}", seat, move=f"{who} {MOVES[event]}")
        elif event == "toast":
            caller = f["caller"]
            self.news.announce("toast", f"{chip(caller)} calls the Toast!", caller,
                               "the others take their final actions, then everyone drinks",
                               move=f"{chip(caller)} called the Toast")
        elif event == "course":
            self.news.announce("course", f"Course {f['course']} begins", None)
            self.news.moves = []
        elif event == "course_won":
            seats = " ".join(chip(s) for s in f["seats"])
            self.news.announce("win", f"Course {f['course']} won by {seats}", f["seats"][0] if f["seats"] else None)
        elif event == "game_over":
            self.news.announce("over", "Game over", None)

    def _leds(self) -> None:
        seat = self.engine.current_player
        for station in self.ctx.stations:
            if station in self.ctx.disabled:
                continue
            self.ctx.leds.set(station, "blink" if station == seat and seat not in self.bots else "off")
