"""Tchin Tchin on the box: buzzers and toasts in, the referee's decisions out.

The flow cleans the buzzer inputs (unknown, disabled, held, bouncing), gathers
presses of the same instant into one :class:`~models.tchin_tchin.Buzz` (exact
ties go to the lower station), hands toasts to the referee with their own
start and end, and keeps one timer on the referee's next deadline. Every rule
lives in :mod:`models.tchin_tchin`; this module only turns its happenings into
events, LEDs, sound cues and scenes.
"""

from __future__ import annotations

import math
from typing import Any

from controller.announce import Announcer
from controller.clock import TimerHandle
from controller.config import Config
from controller.flow import FlowContext, GameFlow, Input, Question
from controller.games.tchin_tchin import scenes
from controller.games.tchin_tchin.buttons import Buttons
from controller.games.tchin_tchin.header import read_header
from controller.games.tchin_tchin.setup import header_from_answers, setup_questions
from hardware.display.widgets import Scene, chip
from models.base import Happening, IllegalAction
from models.tchin_tchin import Buzz, NotSeated, Phase, Referee, Tick, Toast, action_from_dict, view
from models.tchin_tchin.actions import Action
from models.tchin_tchin.cards import player_name
from models.toasts import toast_id

CUES = {"reveal": "reveal"}  # the other events' cues come with their announcement
MISTAKES = {"wrong word": "the wrong toast", "no toast": "no toast heard in time",
            "vetoed": "vetoed by the table"}
UNWON = {"timeout": "time ran out", "nobody invited": "nobody was invited",
         "all invited mistaken": "every invited player made a mistake"}
NEWS_S = 5.0  # how long an event's banner stays over an open card
INTRO_NEXT_S = 2.0  # after the presenter's toast is heard, the next player is introduced


class TchinTchinFlow(GameFlow):
    """A game of Tchin Tchin refereed by the box."""

    game_type = Referee.game_type  # game, title and player counts come from it
    settings = {
        "events": ("Tchin Tchin event cards", [("off", False), ("on", True)], False),
        "auto_reveal_s": ("Auto reveal", [("off", 0.0), ("after 5 s", 5.0), ("after 10 s", 10.0)], 0.0),
    }

    @classmethod
    def setup_questions(cls, settings: dict[str, Any]) -> list[Question]:
        return setup_questions(settings)

    @classmethod
    def header_from_answers(cls, answers: dict[str, Any], seed: int,
                            settings: dict[str, Any]) -> dict[str, Any]:
        return header_from_answers(answers, seed, settings)

    @classmethod
    def settings_from_config(cls, cfg: Config) -> dict[str, Any]:
        tt = cfg.tchin_tchin
        return {"pre_s": tt.pre_s, "window_s": tt.window_s, "veto_s": tt.veto_s,
                "card_timeout_s": tt.card_timeout_s, "bounce_s": cfg.buttons.bounce_s,
                "events": tt.events, "auto_reveal_s": tt.auto_reveal_s}

    @classmethod
    def without_speech(cls, header: dict[str, Any]) -> dict[str, Any]:
        return {**header, "options": {**header.get("options", {}), "speech": False}}

    @classmethod
    def hearing_changed(cls, available: bool) -> dict[str, Any] | None:
        return {"type": "hearing", "available": available}

    def __init__(self, ctx: FlowContext, header: dict[str, Any]) -> None:
        super().__init__(ctx, header)
        self.setup = read_header(header, ctx.rng, ctx.stations)
        table = self.setup.table
        seated = frozenset(table.characters)
        self.referee = Referee(table, self.setup.options, start=ctx.clock.now(),
                               disabled=ctx.disabled & seated)
        self.buttons = Buttons(seated, ctx.disabled, self.setup.bounce_s)
        self.news = Announcer(ctx)
        self.last_heard = ""
        self._batch: list[int] = []
        self._batch_t = 0.0
        self._flush_timer: TimerHandle | None = None
        self._deadline: TimerHandle | None = None
        self._intro: list[int] = list(table.seats) if self.setup.intro else []
        self._intro_heard: str | None = None
        self._intro_timer: TimerHandle | None = None

    # -- contract ----------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.referee.phase == Phase.OVER

    def start(self) -> None:
        if self._intro:
            self.ctx.emit("intro", station=self._intro[0],
                          character=self.referee.characters[self._intro[0]])
            self._leds()
            return
        self._begin()

    def handle(self, inp: Input) -> None:
        """One input; anything the game cannot use is emitted as ``ignored``, never raised."""
        if self._batch and inp.t > self._batch_t:
            self._flush()
        try:
            if self._intro:
                self._intro_input(inp)
            elif self.finished:
                self.ctx.emit("ignored", **_who(inp), reason="game over")
            elif inp.kind == "press" and inp.station is not None:
                self._press(inp.station, inp.t)
            elif inp.kind == "release" and inp.station is not None:
                self.buttons.release(inp.station, inp.t)
            elif inp.kind == "say":
                self._say(inp)
            elif inp.kind == "do" and inp.action is not None:
                self._do(action_from_dict(inp.action, inp.t))
            else:
                self.ctx.emit("ignored", kind=inp.kind, reason="nothing to do with it")
        except IllegalAction as exc:
            self.ctx.emit("rejected", input=inp.as_dict(), reason=exc.reason)

    def scene(self) -> Scene:
        now = self.ctx.clock.now()
        if self._intro:
            s = self._intro[0]
            return scenes.intro_scene(s, self.referee.characters[s], self._intro_heard)
        v = view(self.referee)
        phase = self.referee.phase
        if phase == Phase.OVER:
            return scenes.end_scene(v)
        if phase == Phase.OPEN:
            return scenes.open_scene(v, now, self.news.banner(within_s=NEWS_S))
        if phase == Phase.CLAIM:
            return scenes.claim_scene(v, now, self.setup.options.window_s)
        if phase == Phase.VETO:
            return scenes.veto_scene(v, now, self.setup.options.veto_s, self.last_heard)
        return scenes.between_scene(v, self.news.banner())

    # -- buzzers -----------------------------------------------------------------------
    def _press(self, station: int, t: float) -> None:
        if station not in self.ctx.stations and station not in self.buttons.seated:
            self.ctx.emit("ignored", station=station, reason="unknown station")
            return
        why = self.buttons.press(station, t)
        if why is not None:
            self.ctx.emit("ignored", station=station, reason=why)
            return
        self._join_batch(t, (station,))

    def _join_batch(self, t: float, stations: tuple[int, ...]) -> None:
        """Presses stamped at the same instant arrive one by one: decide once all are in."""
        if not self._batch:
            self._batch_t = t
            self._flush_timer = self.ctx.clock.call_at(math.nextafter(t, math.inf), self._flush)
        self._batch.extend(stations)

    def _do(self, action: Action) -> None:
        """A referee action: a buzz joins the presses of its instant, whether they came as press
        lines or as other buzz actions (exact ties go to the lower station); a toast's word is
        named as a said one is ("Na Zdorovie!" is the toast na zdorovie)."""
        if isinstance(action, Buzz):
            seated = self.referee.characters
            unseated = [s for s in action.stations if s not in seated]
            if unseated:
                raise NotSeated(f"station {unseated[0]} has no player (seated: {sorted(seated)})")
            if not self._batch or action.t == self._batch_t:
                self._join_batch(action.t, tuple(action.stations))
                return
        elif isinstance(action, Toast):
            action = Toast(action.t, action.end, toast_id(action.word) or action.word)
        self._apply(action)

    def settle(self) -> None:
        self._flush()

    def _flush(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        if not self._batch:
            return
        stations, self._batch = tuple(sorted(set(self._batch))), []
        self._apply(Buzz(self._batch_t, stations))

    def _say(self, inp: Input) -> None:
        word = toast_id(inp.word or "")
        if word is None:
            self.ctx.emit("ignored", said=inp.word, reason="not a toast")
            return
        self._apply(Toast(inp.t, inp.end if inp.end is not None else inp.t, word))

    # -- the referee -------------------------------------------------------------------
    def _begin(self) -> None:
        self._show(self.referee.start())
        self._reschedule()

    def _apply(self, action: Action) -> None:
        self._show(self.referee.apply(action), action)
        self._reschedule()

    def _on_deadline(self) -> None:
        self._deadline = None
        self._apply(Tick(self.ctx.clock.now()))

    def _reschedule(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        due = self.referee.next_deadline()
        if due is not None:
            if self.referee.phase == Phase.CLAIM:
                # a toast heard at the very instant the window ends still counts (it ends no
                # later than press + window_s): let the inputs of that instant in first
                due = math.nextafter(due, math.inf)
            self._deadline = self.ctx.clock.call_at(due, self._on_deadline)

    def _show(self, happenings: list[Happening], action: object = None) -> None:
        for h in happenings:
            self.ctx.emit(h.event, **h.fields)
            if h.event in CUES:
                self.ctx.sound.play(CUES[h.event])
            self._note(h, action)
        if happenings:
            self._leds()

    def _note(self, h: Happening, action: object) -> None:
        """Remember what the between-cards screen should say, and who is held at a reveal."""
        f = h.fields
        if h.event == "reveal":
            if f.get("invited") is not None and f.get("word") is not None:
                opener = f["revealer"] if isinstance(action, Buzz) and "by" not in f else None
                self.buttons.card_opens(opener)
            self.news.clear()
            pot = len(self.referee.pot)
            if pot:
                self.news.announce("pot", f"Pot: {pot} card{'s go' if pot != 1 else ' goes'} with this one",
                                   sound=False)
            return
        station = f.get("station")
        who = f"{chip(station)} {player_name(self.referee.characters[station])}" if station else ""
        if h.event == "heard":
            self.last_heard = f["word"]
        elif h.event == "claim":
            self.news.announce("claim", f"{who} claims!", station, "Gesture and toast, now!")
        elif h.event == "mistake":
            if f["reason"] != "vetoed":  # the veto has just been announced
                self.news.announce("mistake", f"\u2717 {who}: {MISTAKES.get(f['reason'], f['reason'])}",
                                   station, "may not claim this card again; the others still may")
        elif h.event == "vetoed":
            voters = ", ".join(chip(v) for v in f["voters"])
            self.news.announce("veto", f"\u2717 {who} vetoed", station, f"by {voters}")
        elif h.event == "win":
            extra = f" + {len(f['pot'])} from the pot" if f["pot"] else ""
            self.news.announce("win", f"{who} wins {f['card']}{extra}!", station,
                               f"pressed {f['reaction_ms'] / 1000:.1f} s after the reveal")
        elif h.event == "unwon":
            self.news.announce("move", f"Nobody wins {f['card']}", None,
                               UNWON.get(f["reason"], f["reason"]), sound=False)
        elif h.event == "ignored" and f.get("reason") == "between cards" and station \
                and self.referee.phase == Phase.BETWEEN:  # a press that does nothing says why
            nxt = self.referee.revealer
            self.news.announce("move", f"{who}: wait for the next card", station,
                               f"{chip(nxt)} reveals it" if nxt else "", sound=False)
        elif h.event == "penalty":
            lost = (f"gives {f['card']} to the pot" if f["to_pot"]
                    else "pressed while not invited (no card to give back)")
            self.news.announce("penalty", f"Penalty: {who} {lost}", station)

    def _leds(self) -> None:
        """Invited lit while a card is open, the claimant's alone during a claim or veto,
        the next revealer's blinking between cards, all dark at the end."""
        ref = self.referee
        lit: dict[int, str] = {s: "off" for s in ref.seats}
        card = ref.card
        if self._intro:
            lit[self._intro[0]] = "blink"
        elif ref.phase == Phase.BETWEEN:
            lit[ref.revealer] = "blink"
        elif ref.phase == Phase.OPEN and card is not None:
            for s in card.invited:
                if s not in card.mistaken and s not in self.ctx.disabled:
                    lit[s] = "on"
        elif ref.phase in (Phase.CLAIM, Phase.VETO) and card is not None and card.claim is not None:
            lit[card.claim.station] = "on"
            if ref.phase == Phase.VETO and card.veto is not None:
                for s in card.veto.voters - card.veto.votes:
                    lit[s] = "blink"
        for s, state in lit.items():
            self.ctx.leds.set(s, state)

    # -- introduction (live box only) --------------------------------------------------
    def learning(self) -> tuple[int, str] | None:
        """The presenter and their character's toast, while the introduction is on (a tourist,
        whose toast is any of several, teaches the ear nothing)."""
        if not self._intro:
            return None
        words = _words_of(self.referee.characters[self._intro[0]])
        return (self._intro[0], next(iter(words))) if len(words) == 1 else None

    def listening_for(self) -> frozenset[str] | None:
        """The words that could win the card in play (:meth:`Referee.awaited_words`); None
        during the introduction and between cards."""
        if self._intro or self.finished:
            return None
        return self.referee.awaited_words() or None

    def _intro_input(self, inp: Input) -> None:
        presenter = self._intro[0]
        fresh = False
        if inp.kind == "press" and inp.station is not None:
            fresh = self.buttons.press(inp.station, inp.t) is None
        elif inp.kind == "release" and inp.station is not None:
            self.buttons.release(inp.station, inp.t)
        if inp.kind == "say":
            word = toast_id(inp.word or "")
            self._intro_heard = word or inp.word
            code = self.referee.characters[presenter]
            self.ctx.emit("intro_heard", station=presenter, word=word,
                          right=word is not None and word in _words_of(code))
            if self._intro_timer is None:
                self._intro_timer = self.ctx.clock.call_at(inp.t + INTRO_NEXT_S, self._intro_next)
        elif (fresh and inp.station == presenter) or (inp.kind == "nav" and inp.nav == "ok"):
            self._intro_next()

    def _intro_next(self) -> None:
        if self._intro_timer is not None:
            self._intro_timer.cancel()
            self._intro_timer = None
        if not self._intro:
            return
        self._intro.pop(0)
        self._intro_heard = None
        if self._intro:
            s = self._intro[0]
            self.ctx.emit("intro", station=s, character=self.referee.characters[s])
            self._leds()
            return
        self.ctx.emit("intro_done")
        self.referee = Referee(self.setup.table, self.setup.options, start=self.ctx.clock.now(),
                               disabled=self.referee.disabled)
        self._begin()


def _words_of(code: str) -> set[str]:
    from models.tchin_tchin.cards import combinations_of

    return {c.word for c in combinations_of(code)}


def _who(inp: Input) -> dict[str, Any]:
    return {"station": inp.station} if inp.station is not None else {"kind": inp.kind}
