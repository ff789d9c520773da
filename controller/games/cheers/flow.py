"""Cheers (干杯) on the box: seating, secret goals, private turns and cheers, the table.

The engine (``models.cheers``) holds every rule; this flow turns inputs into
engine actions and engine happenings into events, LEDs, sounds and scenes.
Phases: ``seating`` (OK to go on) -> ``reveal`` (each seat's goal, behind its
own buzzer; Next skips) -> ``table`` (the deciding seat holds its buzzer to open
its private menus; any other seat may hold its buzzer to look at its own hand
and goal; Back opens the game menu, where the game can be abandoned) -> ``over``.
A ``do`` input plays an engine action directly (replays, disputes); an illegal
one is emitted as ``illegal`` with its reason and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

from controller.announce import Announcer, Pace
from controller.clock import TimerHandle
from controller.flow import Question
from controller.games.cheers import scenes
from controller.games.cheers.header import (
    header_from_answers,
    parse_header,
    public_teams,
    setup_questions,
)
from controller.games.cheers.menus import CLOSE, ActionPicker
from controller.menu import MenuState, menu
from controller.privacy import PrivateGate
from controller.turns import TurnBasedFlow, bots_from_header
from hardware.display.widgets import Scene, chip
from models.base import Happening, IllegalAction
from models.cheers.actions import Action, action_from_dict
from models.cheers.bots import Bot
from models.cheers.cards import Ingredient
from models.cheers.engine import State, new_game
from models.cheers.view import view

BOT_DELAY_S = 1.0


class CheersFlow(TurnBasedFlow):
    """The Cheers game flow (``game = "cheers"``)."""

    game_type = State.game_type  # game, title and player counts come from it
    own_back = True  # Back on the table opens the game menu

    @classmethod
    def setup_questions(cls, settings: dict[str, Any]) -> list[Question]:
        return setup_questions(settings)

    @classmethod
    def header_from_answers(cls, answers: dict[str, Any], seed: int,
                            settings: dict[str, Any]) -> dict[str, Any]:
        return header_from_answers(answers, seed, settings)

    def __init__(self, ctx: Any, header: dict[str, Any]) -> None:
        super().__init__(ctx, header)
        self.setup, self.view_timeout_s = parse_header(header, ctx.rng)
        self.state, self._opening = new_game(self.setup, ctx.rng)
        self.phase = "seating"
        self.gate: PrivateGate | None = None
        self.gate_kind = ""  # "goal", "decide" or "peek"
        self.picker: ActionPicker | None = None
        self.reveal_queue: list[int] = []
        self.game_menu: MenuState[Any] | None = None
        # the box plays the seat a player at each empty station would have been given, so
        # nobody is ever asked to move to the box's place
        self.bots = frozenset(self.setup.seat_of_station.get(s, s)
                              for s in bots_from_header(header, "cheers", self.setup.players))
        self.bot = Bot(random.Random(f"cheers-bots-{header.get('seed', 0)}"))
        self._bot_timer: TimerHandle | None = None
        self.news = Announcer(ctx)
        self.pace = Pace()

    # -- contract ------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.state.over

    def start(self) -> None:
        s = self.setup
        self.ctx.emit("setup", players=s.players, split=s.split, masquerade=s.masquerade,
                      teams=public_teams(s), first=s.first,
                      hand_sizes={str(k): v for k, v in sorted(s.hand_sizes.items())}, turn_cap=s.turn_cap)
        self._emit_all(self._opening)
        self._leds()

    def scene(self) -> Scene:
        pub = view(self.state, None)
        if self.gate is not None and self.gate.is_open:
            own = view(self.state, self.gate.seat)
            if self.gate_kind == "decide" and self.picker is not None:
                return scenes.private_scene(own, self.picker.menu, scenes.status_line(own))
            heading = "Your secret goal" if self.gate_kind == "goal" else "Your hand and goal"
            return scenes.private_scene(own, None, heading)
        if self.phase == "seating":
            return scenes.seating_scene(pub, self.setup.seat_of_station, self.bots)
        if self.phase == "reveal" and self.reveal_queue:
            if self.reveal_queue[0] in self.ctx.phones:  # its goal is on its phone: no looking away
                return scenes.table_scene(pub, footer=f"Seat {self.reveal_queue[0]}: your goal is on "
                                                      "your phone · Next: the next seat", bots=self.bots)
            return scenes.reveal_waiting_scene(self.reveal_queue[0])
        if self.phase == "over":
            return scenes.end_scene(pub, self.pace.bars(list(self.setup.seats)))
        if self.phase == "menu" and self.game_menu is not None:
            return scenes.menu_scene(pub, self.game_menu)
        seat = self.state.current_player
        if seat is None:  # the game is over
            return scenes.end_scene(pub, self.pace.bars(list(self.setup.seats)))
        if seat in self.bots:
            next_up = f"{chip(seat)}: the box is thinking"
        elif seat in self.ctx.phones:
            next_up = f"{chip(seat)}: decide on your phone"
        else:
            next_up = f"{chip(seat)}: hold your buzzer to decide · everyone else, look away"
        return scenes.table_scene(pub, footer="Back: game menu · any other seat: hold your buzzer for your hand",
                                  news=self.news.banner(next_up), moves=self.news.moves_line(),
                                  next_up=next_up, bots=self.bots)

    # -- inputs --------------------------------------------------------------------------
    def _do(self, raw: dict[str, Any] | None) -> None:
        played = self.state.cheers.played if self.state.cheers is not None else None
        try:
            action = action_from_dict(raw or {}, played=played)
        except IllegalAction as exc:
            self._illegal(raw, exc)
            return
        self._submit(action, raw)

    def _submit(self, action: Action, raw: dict[str, Any] | None = None) -> bool:
        try:
            happenings = self.state.apply(action)
        except IllegalAction as exc:
            self._illegal(raw if raw is not None else action.to_dict(), exc)
            return False
        self._emit_all(happenings)
        self._after_change()
        return True

    def _press(self, station: int) -> None:
        if self.gate is not None and self.gate.state == "waiting" and self.gate.press(station):
            return
        if self.phase == "table" and (self.gate is None or not self.gate.is_open) \
                and station in self.setup.teams and station != self.state.current_player:
            self._open_gate(station, "peek", opened=True)

    def _nav(self, button: str) -> None:
        if self.phase == "seating":
            if button == "ok":
                self._start_reveal()
            return
        if self.phase == "reveal":
            if button == "next" and self.reveal_queue:
                self.ctx.emit("goal_skipped", seat=self.reveal_queue[0])
                self._close_gate("skipped")
                self._next_reveal()
            elif button == "ok" and self.gate is not None:
                self.gate.ok()
            return
        if self.phase == "menu":
            self._menu_nav(button)
            return
        if self.phase != "table":
            return
        if self.gate is not None and self.gate.is_open:
            if self.gate_kind == "decide" and self.picker is not None:
                chosen = self.picker.nav(button)
                if chosen is CLOSE:
                    self._close_gate("done")
                elif chosen is not None:
                    self._submit(chosen)  # type: ignore[arg-type]
            elif button == "back":
                self._close_gate("done")
            return
        if button == "back":
            self.phase = "menu"
            self.game_menu = menu("Game menu", [("Back to the table", "resume"),
                                                ("Abandon this game", "abandon")])

    def _menu_nav(self, button: str) -> None:
        assert self.game_menu is not None
        self.game_menu, chosen = self.game_menu.nav(button)
        if chosen is None:
            return
        if chosen == "abandon":  # asked twice: a game ends only when the host means it
            self.game_menu = menu("Abandon this game? Nobody wins it", [("No, back to the table", "resume"),
                                                                         ("Yes, abandon it", "abandoned")])
            return
        self.game_menu = None
        if chosen == "abandoned":
            self._abandon()
        else:
            self.phase = "table"

    # -- phases --------------------------------------------------------------------------
    def _start_reveal(self) -> None:
        self.phase = "reveal"
        self.reveal_queue = [s for s in self.setup.seats if s not in self.bots]  # the box knows its goal
        if not self.reveal_queue:
            self._to_table()
            return
        self._wait_for(self.reveal_queue[0], "goal")

    def _next_reveal(self) -> None:
        if self.reveal_queue:
            self.reveal_queue.pop(0)
        if self.reveal_queue:
            self._wait_for(self.reveal_queue[0], "goal")
        else:
            self._to_table()

    def _to_table(self) -> None:
        self.phase = "table"
        self.reveal_queue = []
        seat = self.state.current_player
        if seat is not None:
            self.pace.waits_on(seat, self.ctx.clock.now())
        if seat in self.bots:
            self._close_gate("done")
            if self._bot_timer is None:
                self._bot_timer = self.ctx.clock.call_at(self.ctx.clock.now() + BOT_DELAY_S, self._bot_move)
        elif seat is not None:
            self._wait_for(seat, "decide")

    def _bot_move(self) -> None:
        self._bot_timer = None
        seat = self.state.current_player
        if self.state.over or seat not in self.bots or self.phase not in ("table", "menu"):
            return
        if self.phase == "menu":  # the host's game menu is a pause: the box's player waits for it
            self._bot_timer = self.ctx.clock.call_at(self.ctx.clock.now() + BOT_DELAY_S, self._bot_move)
            return
        self._submit(self.bot.choose(self.state))
        self._leds()

    def _after_change(self) -> None:
        if self.state.over:
            self._close_gate("done")
            self.phase = "over"
            return
        seat = self.state.current_player
        assert seat is not None
        if self.gate is not None and self.gate.is_open and self.gate_kind == "decide" \
                and self.gate.seat == seat:
            self.picker = ActionPicker(self.state, seat)  # the same seat decides again
            self.pace.waits_on(seat, self.ctx.clock.now())
            return
        self._close_gate("done")
        if self.phase in ("seating", "reveal", "menu"):
            self.game_menu = None
        self._to_table()

    def _abandon(self) -> None:
        self._close_gate("done")
        self.ctx.emit("abandoned", turn=self.state.turn)
        self.ctx.emit("game_over", winner=None, reason="abandoned")
        self.phase = "over"
        self.state.abandon()

    # -- private views --------------------------------------------------------------------
    def _wait_for(self, seat: int, kind: str) -> None:
        self._close_gate("done")
        self._open_gate(seat, kind, opened=False)

    def _open_gate(self, seat: int, kind: str, opened: bool) -> None:
        holder: list[PrivateGate] = []
        gate = PrivateGate(self.ctx.clock, seat, f"Seat {seat}", timeout_s=self.view_timeout_s,
                           on_open=lambda: self._on_open(holder[0], kind),
                           on_close=lambda reason: self._on_close(holder[0], kind, reason))
        holder.append(gate)
        self.gate, self.gate_kind = gate, kind
        if opened:
            gate.press(seat)

    def _on_open(self, gate: PrivateGate, kind: str) -> None:
        if kind == "decide":
            self.picker = ActionPicker(self.state, gate.seat)
        self.ctx.emit("view_opened", seat=gate.seat, view=kind)

    def _on_close(self, gate: PrivateGate, kind: str, reason: str) -> None:
        """The owner let go, or the view timed out: back to the table (or the next goal)."""
        if self.gate is gate:
            self.gate, self.picker = None, None
        if reason not in ("released", "timeout"):
            return
        self.ctx.emit("view_closed", seat=gate.seat, reason=reason)
        if kind == "goal":
            self._next_reveal()
        elif self.phase == "table":
            self._to_table()

    def _close_gate(self, reason: str) -> None:
        gate, self.gate, self.picker = self.gate, None, None
        if gate is not None and gate.state != "closed":
            if gate.is_open:
                self.ctx.emit("view_closed", seat=gate.seat, reason=reason)
            gate.close(reason)

    # -- outputs --------------------------------------------------------------------------
    def _emit_all(self, happenings: list[Happening]) -> None:
        for h in happenings:
            self.ctx.emit(h.event, **h.fields)
            self._announce(h.event, h.fields)

    def _announce(self, event: str, f: dict[str, Any]) -> None:
        """Every public move said on the table, with the seat's chip, a sound and a flash."""
        now = self.ctx.clock.now()
        seat = f.get("seat")
        who = chip(seat) if isinstance(seat, int) else ""
        if event in ("played", "pushed", "discarded_hand", "limit_discard") and isinstance(seat, int):
            self.pace.moved(seat, now)
        if event == "played":
            onto = "their own front" if f["to"] == seat else f"{chip(f['to'])}'s front"
            card = f"{Ingredient(f['big']).label} (clinks with {Ingredient(f['small']).label})"
            self.news.announce("play", f"{who} played {card} on {onto}", seat,
                               move=f"{who} played on {chip(f['to'])}")
        elif event == "pushed":
            self.news.announce("move", f"{who} pushed a card to {chip(f['to'])}", seat,
                               move=f"{who} pushed to {chip(f['to'])}")
        elif event == "discarded_hand":
            self.news.announce("move", f"{who} discarded their hand", seat, move=f"{who} discarded")
        elif event == "cheers_called":
            self.news.announce("cheers", f"Cheers! {chip(f['target'])}'s front clinks", f["target"],
                               "its owner chooses the clinking card and gives both away",
                               move=f"{who} called Cheers on {chip(f['target'])}")
        elif event == "cheers":
            given = " and ".join(chip(int(s)) for s in f["given"])
            self.pace.moved(f["target"], now)
            self.news.announce("cheers", f"Clink! {chip(f['target'])} gave the two cards to {given}", f["target"],
                               move=f"{chip(f['target'])} clinked")
        elif event == "limit_discard":
            self.news.announce("penalty", f"{who} had more than 6 cards in front: one discarded", seat,
                               move=f"{who} over the limit")
        elif event == "victory":
            self.news.announce("win", f"Team {f['team']} wins!", f.get("player"))
        elif event == "reshuffled":
            self.news.announce("move", "The discards are shuffled into a new draw pile", None, sound=False)

    def _leds(self) -> None:
        seat = None if self.state.over else self.state.current_player
        for s in self.setup.seats:
            if s in self.bots:
                self.ctx.leds.set(s, "off")  # nobody sits there to press
            elif self.gate is not None and s == self.gate.seat:
                self.ctx.leds.set(s, "on" if self.gate.is_open else "blink")
            else:
                self.ctx.leds.set(s, "blink" if s == seat and self.phase == "table" else "off")
