"""The box's own menus: main menu, settings, game set-up, resume, shut down.

The shell owns what the menu pad does outside a game and hands buzzers, pad
and toasts to the game in play. It is pure logic: the service feeds it button
events and toasts stamped on the monotonic clock and asks it for a scene; a
test drives it the same way with made-up times and its own ``clock``.

Holding Back for ``long_back_s`` returns to the main menu from anywhere (the
game is kept in the journal as abandoned).
"""

from __future__ import annotations

import json
import logging
import math
import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from controller import party
from controller.flow import Input, Leds, Question, Sound
from controller.games import built_in, flow_for
from controller.journal import Journal
from controller.menu import BACK, MenuState, menu
from controller.session import GameSession, resume
from hardware.buttons import ButtonEvent, Stations
from hardware.display.widgets import Banner, Menu, Scene, Text, Timer

log = logging.getLogger(__name__)

#: the box's own settings the host can change from the pad: key -> (label, choices, default)
BOX_SETTINGS: dict[str, tuple[str, list[tuple[str, Any]], Any]] = {
    "volume": ("Volume", [("off", 0.0), ("low", 0.3), ("medium", 0.6), ("loud", 1.0)], 0.6),
    "speech": ("Speech engine", [("automatic", "auto"), ("toast spotter", "spotter"),
                                 ("PocketSphinx", "pocketsphinx"),
                                 ("Vosk", "vosk"), ("off (veto vote only)", "off")], "auto"),
    "phones": ("Phones as private screens", [("off", False), ("on", True)], False),
    "voices": ("Learn our toasts", [("off", "off"), ("this game", "game"), ("keep", "keep")], "game"),
}
#: the box's settings whose default is the config file's (controller.app.config_defaults): kept
#: in the settings file only once the host has chosen them, so the config still sets them till then
CONFIG_SETTINGS = ("volume", "speech", "phones")
#: asked last: every game's set-up starts from it
PLAYERS_SETTING = ("Usual number of players", [(str(n), n) for n in range(2, 13)], 4)


def all_settings() -> dict[str, tuple[str, list[tuple[str, Any]], Any]]:
    """The Settings menu: the box's own, then each game's (:attr:`GameFlow.settings`), then players."""
    out = dict(BOX_SETTINGS)
    for game in built_in():
        out.update(game.flow.settings)
    out["players"] = PLAYERS_SETTING
    return out


@dataclass
class Shell:
    journal: Journal
    leds: Leds | None = None
    sound: Sound | None = None
    settings_path: Path | None = None
    long_back_s: float = 5.0
    speech_available: bool = True
    """False when the box hears nothing: a game that listens plays on without (``GameFlow.without_speech``)."""
    decision_lag_s: float = 0.0
    """Game timers run this far behind real time: the recogniser's time to report a toast."""
    rng: random.Random = field(default_factory=random.Random)
    clock: Callable[[], float] = time.monotonic
    """The box's monotonic clock in seconds (the one the hardware stamps events on); a test
    or a script gives its own."""
    on_request: Callable[[str], None] | None = None
    on_event: Callable[[dict[str, Any]], None] | None = None
    """Told each decision of a game started here as it is taken (the benchmark times them)."""
    stations: Stations = field(default_factory=Stations)
    """The buzzer stations' state (stuck, disabled): the panel's own record, shared."""
    stuck: list[int] = field(default_factory=list)
    """Stuck at start (added to ``stations``; then the same list)."""
    disabled: set[int] = field(default_factory=set)
    """Disabled (added to ``stations``; then the same set)."""
    notices: list[str] = field(default_factory=list)
    phones: Any = None
    """The phone hub (:class:`controller.phones.hub.PhoneHub`) while phones are on, else None."""
    phone_seats: set[int] = field(default_factory=set)
    """Seats with a phone joined now (kept by the hub; the game's scenes read it)."""
    kept: dict[str, Any] = field(default_factory=dict)
    """Settings the box changed for this run only (phones whose port was taken): the settings
    file keeps the host's own choice until the host chooses again."""

    def __post_init__(self) -> None:
        for station in self.stuck:
            self.stations.mark_stuck(station)
        self.stations.disabled.update(self.disabled)
        self.stuck, self.disabled = self.stations.stuck, self.stations.disabled
        self.available_settings = all_settings()
        self.settings: dict[str, Any] = {k: default for k, (_, _, default) in self.available_settings.items()}
        self._load_settings()
        self.mode = "main"
        self.last = party.recall(self.settings_path)
        self.main = self._main_menu()
        self.sub: MenuState[Any] | None = None
        self.choosing: str | None = None  # the setting whose choices are shown
        self.settings_cursor = 0
        self.back_asks = False
        self.ticked: int | None = None  # the countdown's last second ticked
        self.leaving: MenuState[str] | None = None  # "Leave this game?", over the game
        self.after: MenuState[str] | None = None  # what next, under a game's end screen
        self.ended_at: float | None = None  # the game time the game in play ended at
        self.game_answers: dict[str, Any] | None = None  # the set-up of the game in play
        self.session: GameSession | None = None
        self.t0 = 0.0  # monotonic time of the session's game time 0
        self.setup_game: str | None = None
        self.setup_answers: dict[str, Any] = {}
        self.setup_queue: list[Question] = []
        self.back_down_at: float | None = None
        self.prev_down_at: float | None = None
        self.saved = self.journal.in_progress()
        if self.saved is not None:
            self.mode = "resume"
            game = self.saved.header.get("game")
            title = next((g.title for g in built_in() if g.game == game), str(game))
            self.sub = menu(f"A game of {title} was left in progress", [("Resume it", True), ("Start afresh", False)])
        if self.stuck:
            self.notices.append("Stuck buzzer at start: station " + ", ".join(map(str, self.stuck))
                                + " disabled. Release it and restart, or play on without it.")

    def _main_menu(self) -> MenuState[Any]:
        items: list[tuple[str, Any]] = []
        if self.last is not None:
            try:
                items.append((party.quick_start_label(flow_for(self.last[0]).title, self.last[1]), party.AGAIN))
            except ValueError:
                pass  # a game this box no longer has: no quick start
        items += [(game.title, game.game) for game in built_in()]
        return menu("Main menu", items + [("Settings", "settings"), ("Shut down", "shutdown")])

    # -- settings ------------------------------------------------------------------------
    def _load_settings(self) -> None:
        self.chosen: set[str] = set()  # the settings the host has chosen (saved), not defaults
        self.config_keys: set[str] = set(CONFIG_SETTINGS)  # defaults from the config (the box adds each game's)
        if self.settings_path and self.settings_path.exists():
            try:
                data = json.loads(self.settings_path.read_text())
                self.settings.update({k: v for k, v in data.items() if k in self.available_settings})
                self.chosen = {k for k in data if k in self.available_settings}
            except (ValueError, OSError) as exc:
                log.warning("settings file %s unreadable (%s): defaults used", self.settings_path, exc)

    def _save_settings(self) -> None:
        if self.settings_path:
            try:
                self.settings_path.parent.mkdir(parents=True, exist_ok=True)
                # settings the config sets (volume, speech, phones, each game's) stay the config's
                # until the host chooses them here
                saved = {k: v for k, v in self.settings.items() if k not in self.config_keys or k in self.chosen}
                saved.update({k: v for k, v in self.kept.items() if k in saved})
                self.settings_path.write_text(json.dumps(saved, indent=1))
            except OSError as exc:
                log.warning("settings not saved: %s", exc)

    def apply_settings(self) -> None:
        """Settings that act at once (the others are read when a game is set up)."""
        if self.sound is not None and hasattr(self.sound, "volume"):
            self.sound.volume = float(self.settings.get("volume", 0.6))

    def _settings_menu(self, cursor: int = 0) -> MenuState[Any]:
        items = []
        for key, (label, choices, _) in self.available_settings.items():
            current = next((lab for lab, v in choices if v == self.settings.get(key)), str(self.settings.get(key)))
            items.append((f"{label}: {current}", key))
        items.append(("Back", "back"))
        return menu("", items, cursor)

    # -- input ---------------------------------------------------------------------------
    def game_time(self, t: float) -> float:
        return max(0.0, t - self.t0)

    def button(self, ev: ButtonEvent) -> None:
        if ev.nav == "back":
            self.back_down_at = ev.t if ev.pressed else None
        if ev.nav == "prev":
            self.prev_down_at = ev.t if ev.pressed else None
        if self.phones is not None and self.mode == "game" and self.phones.screen_up and ev.nav is not None:
            if ev.pressed:
                self.phones.screen_nav(ev.nav)  # the host's join screen, over the game
            return
        if self.mode == "game" and self.session is not None:
            if ev.station is not None:
                kind = "press" if ev.pressed else "release"
                self._feed(Input(self.game_time(ev.t), kind, station=ev.station))
            elif ev.pressed and ev.nav is not None:
                if self.session.finished:
                    self._after_game(ev.nav, ev.t)
                elif self.leaving is not None:
                    self._leave_nav(ev.nav)
                else:
                    # Back on the shared table of a game with no use for it: asked on release
                    self.back_asks = ev.nav == "back" and not self.session.flow.own_back \
                        and self.session.scene().private_for is None
                    self._feed(Input(self.game_time(ev.t), "nav", nav=ev.nav))
            elif ev.nav == "back" and self.back_asks and not self.session.finished and self.leaving is None:
                self.back_asks = False
                self.leaving = party.leave_menu()
            return
        if ev.pressed and ev.nav is not None:
            self.nav(ev.nav)

    def _leave_nav(self, button: str) -> None:
        assert self.leaving is not None
        self.leaving, chosen = self.leaving.nav(button)
        if chosen is None:
            return
        self.leaving = None
        if chosen == party.LEAVE:
            self.to_main(abandon=True)
            self.notices.append("The game was left; nobody wins it.")

    END_GUARD_S = 1.5

    def _after_game(self, button: str, t: float) -> None:
        """The end screen's menu: play again with the same players, or the main menu. A key
        pressed in the game's last moment (a double tap on its last move) is not taken as a
        choice: the end screen stays up for at least ``END_GUARD_S``."""
        if self.after is None and self.ended_at is not None and self.game_time(t) - self.ended_at < self.END_GUARD_S:
            return
        self.after = self.after or party.end_menu()
        self.after, chosen = self.after.nav(button)
        if chosen == party.AGAIN and self.session is not None:
            game, header = self.session.header.get("game"), self.session.header
            if self.game_answers is not None and game == self.setup_game:
                self.setup_answers = dict(self.game_answers)
                self.start_game()  # the same answers, dealt afresh
            else:
                self.start_game({**header, "seed": self.rng.randrange(2**31)})
        elif chosen is not None:
            self.to_main()

    def toast(self, word: str | None, start: float, end: float, confidence: float = 1.0,
              typed: bool = False) -> None:
        """A toast heard (or, ``typed``, typed on the simulator's keyboard) from ``start`` to ``end``."""
        if self.mode == "game" and self.session is not None and word:
            self._feed(Input(self.game_time(start), "say", word=word, end=self.game_time(end),
                             confidence=None if typed else confidence, typed=typed))

    def do(self, action: dict[str, Any], now: float) -> str | None:
        """A game action from a phone: journaled and played like a replay's ``do`` line.
        Returns the game's reason when it refused it, None when it was taken."""
        if self.mode != "game" or self.session is None or self.session.finished:
            return "no game is in play"
        before = len(self.session.events)
        self._feed(Input(self.game_time(now), "do", action=action))
        for event in self.session.events[before:]:
            if event.get("event") in ("illegal", "rejected"):
                return str(event.get("reason") or "refused by the game")
        return None

    def _feed(self, inp: Input) -> None:
        assert self.session is not None
        # a button edge is never older than the clock (a late callback keeps its place in
        # order); a toast keeps its own start and end, which the referee judges
        if inp.kind != "say" and inp.t < self.session.clock.now():
            inp = Input(**{**inp.__dict__, "t": self.session.clock.now()})
        # a live input is the last of its instant: a press's lock-out is decided on its way in
        self.session.feed(inp, settle=True)
        # the clock then moves just past the edge (a later callback's press is stamped after
        # it). A press's edge is its own time; a toast's is its end, never later than now: the
        # listener reports toasts in the order they end, so nothing that ended before it is
        # still to come and its verdict need not wait. Other timers run ``decision_lag_s``
        # behind, so that a "no toast" verdict waits for a toast that ended in time but is
        # still being recognised.
        now = self.game_time(self.clock())
        if inp.kind == "say":
            edge = min(math.nextafter(inp.end if inp.end is not None else inp.t, math.inf), now)
        else:
            edge = math.nextafter(inp.t, math.inf)
        self.session.advance(max(edge, now - self.decision_lag_s))
        self._note_end()

    def _note_end(self) -> None:
        assert self.session is not None
        if self.session.finished and self.ended_at is None:
            self.ended_at = self.session.clock.now()

    def learning(self) -> tuple[int, str] | None:
        """The station and toast the game in play is introducing (the ear may learn them)."""
        if self.mode != "game" or self.session is None or self.session.finished:
            return None
        return self.session.flow.learning()

    def listening_for(self) -> frozenset[str] | None:
        """The toasts the game in play waits for now (the ear may listen for them harder)."""
        if self.mode != "game" or self.session is None or self.session.finished:
            return None
        return self.session.flow.listening_for()

    def set_hearing(self, available: bool, now: float) -> None:
        """The microphone was lost or came back: a game in play that listens is told (journaled)."""
        if available == self.speech_available:
            return
        self.speech_available = available
        if self.mode == "game" and self.session is not None and not self.session.finished:
            action = type(self.session.flow).hearing_changed(available)
            if action is not None:
                self._feed(Input(self.game_time(now), "do", action=action))

    def tick(self, now: float) -> None:
        """Let time run: game timers, and the long press of Back."""
        if self.back_down_at is not None and now - self.back_down_at >= self.long_back_s:
            self.back_down_at = None
            if self.mode != "main":
                self.to_main(abandon=True)
                self.notices.append("Back held: returned to the main menu.")
            return
        if self.prev_down_at is not None and self.phones is not None and self.mode == "game" \
                and now - self.prev_down_at >= self.phones.hold_s:
            self.prev_down_at = None
            self.phones.open_screen()
        if self.mode == "game" and self.session is not None:
            self.session.advance(self.game_time(now) - self.decision_lag_s)
            self._note_end()
            self._countdown()

    COUNTDOWN_S = 3

    def _countdown(self) -> None:
        """A tick for each of a game timer's last seconds (a card's time, a veto's, a claim's)."""
        assert self.session is not None
        if self.sound is None or self.session.finished:
            return
        left = min((w.remaining for w in self.session.scene().widgets if isinstance(w, Timer)), default=None)
        second = math.ceil(left) if left is not None and 0 < left <= self.COUNTDOWN_S else None
        if second is not None and second != self.ticked:
            self.sound.play("tick")
        self.ticked = second

    def nav(self, button: str) -> None:
        if self.mode == "main":
            self.main, chosen = self.main.nav(button)
            if chosen is None or chosen is BACK:
                return
            if chosen == party.AGAIN and self.last is not None:
                self.setup_game, self.setup_answers = self.last[0], dict(self.last[1])
                self.start_game()
            elif chosen == "settings":
                self.mode, self.sub, self.choosing = "settings", self._settings_menu(), None
            elif chosen == "shutdown":
                self.mode = "shutdown"
                self.sub = menu("Shut down?", [("Shut down the box", "poweroff"), ("Restart the box", "reboot"),
                                               ("Restart clinkbox", "restart"), ("Cancel", "cancel")], 3)
            else:
                self.begin_setup(chosen)
            return
        assert self.sub is not None
        self.sub, chosen = self.sub.nav(button)
        if chosen is None:
            return
        if self.mode == "resume":
            if chosen is True:
                self.resume_game()
            else:
                if self.saved is not None:
                    self.journal.finish(self.saved.id, "abandoned")
                self.to_main()
        elif self.mode == "settings":
            self._settings_choice(chosen)
        elif self.mode == "shutdown":
            if chosen in ("cancel",) or chosen is BACK:
                self.to_main()
            elif self.on_request is not None:
                self.on_request(chosen)
        elif self.mode == "setup":
            self._setup_choice(chosen)
        elif self.mode == "error":
            self.to_main()

    def _settings_choice(self, chosen: Any) -> None:
        if chosen is BACK and self.choosing is not None:  # back to the list, nothing changed
            self.choosing = None
            self.sub = self._settings_menu(self.settings_cursor)
            return
        if self.choosing is None and (chosen == "back" or chosen is BACK):
            self._save_settings()
            self.to_main()
            return
        assert self.sub is not None
        if self.choosing is None:  # OK on a setting: its choices, the current one under the cursor
            label, choices, _ = self.available_settings[chosen]
            values = [v for _, v in choices]
            cur = self.settings.get(chosen)
            self.choosing, self.settings_cursor = chosen, self.sub.cursor
            self.sub = replace(menu(label, choices, values.index(cur) if cur in values else 0), wrap=False)
            return
        key, self.choosing = self.choosing, None
        self.settings[key] = chosen
        self.chosen.add(key)
        self.kept.pop(key, None)
        self._save_settings()
        self.apply_settings()
        self.sub = self._settings_menu(self.settings_cursor)

    # -- set-up --------------------------------------------------------------------------
    def begin_setup(self, game: str) -> None:
        try:
            cls = flow_for(game)
        except ValueError as exc:
            self._error(str(exc))
            return
        self.setup_game = game
        self.setup_answers = {}
        self.setup_queue = list(cls.setup_questions(self.settings))
        self.mode = "setup"
        self._next_question()

    def _next_question(self) -> None:
        while self.setup_queue:
            q = self.setup_queue[0]
            if q.when is None or q.when(self.setup_answers):
                opts = q.options(self.setup_answers)
                if not opts:
                    self.setup_queue.pop(0)
                    continue
                cursor = next((i for i, (_, v) in enumerate(opts) if v == q.default), 0)
                self.sub = replace(menu(q.title, opts, cursor), wrap=False)  # 4 -> 3 is one Prev
                return
            self.setup_queue.pop(0)
        self.start_game()

    def _setup_choice(self, chosen: Any) -> None:
        if chosen is BACK:
            self.to_main()
            return
        q = self.setup_queue.pop(0)
        if q.key == party.READY:
            if chosen:
                self._default_the_rest()
            self._next_question()
            return
        self.setup_answers[q.key] = chosen
        if q.key == "players" and self._questions_left():
            self.setup_queue.insert(0, party.ready_question())
        self._next_question()

    def _questions_left(self) -> bool:
        return any(q.when is None or q.when(self.setup_answers) for q in self.setup_queue)

    def _default_the_rest(self) -> None:
        """Start now: every question still to come takes its usual answer."""
        for q in self.setup_queue:
            if q.when is None or q.when(self.setup_answers):
                values = [v for _, v in q.options(self.setup_answers)]
                if values:
                    self.setup_answers[q.key] = q.default if q.default in values else values[0]
        self.setup_queue = []

    def start_game(self, header: dict[str, Any] | None = None) -> None:
        assert self.setup_game is not None or header is not None
        try:
            cls = flow_for(str(self.setup_game if header is None else header.get("game")))
        except ValueError as exc:
            self._error(f"cannot start: {exc}")
            return
        self.game_answers = None
        if header is None:
            try:
                header = cls.header_from_answers(self.setup_answers, self.rng.randrange(2**31), self.settings)
            except (ValueError, KeyError, TypeError) as exc:  # e.g. a kept set-up the game no longer takes
                self._error(f"cannot start: {exc}")
                return
            self.game_answers = dict(self.setup_answers)
        if not self.speech_available:
            header = cls.without_speech(header)
        try:
            self.session = GameSession(header, journal=self.journal, leds=self.leds, sound=self.sound,
                                       sink=self.on_event,
                                       disabled=frozenset(self.disabled), phones=self.phone_seats)
        except ValueError as exc:
            self._error(f"cannot start: {exc}")
            return
        self.mode = "game"
        self.t0 = self.clock()
        self.leaving = self.after = self.ended_at = None
        if self.game_answers is not None and self.setup_game is not None:
            party.remember(self.settings_path, self.setup_game, self.game_answers)
            self.last = (self.setup_game, self.game_answers)

    def resume_game(self) -> None:
        try:
            session = resume(self.journal, leds=self.leds, sound=self.sound, disabled=frozenset(self.disabled),
                             phones=self.phone_seats)
        except Exception as exc:  # a journal we cannot replay must not keep the box from starting
            log.exception("resume failed")
            self._error(f"could not resume: {exc}")
            return
        if session is None:
            self.to_main()
            return
        self.session = session
        self.mode = "game"
        # game time carries on from the last input
        self.t0 = self.clock() - session.clock.now()

    def to_main(self, abandon: bool = False) -> None:
        if self.session is not None and not self.session.finished:
            if abandon:
                self.session.abandon()
        self.session = None
        self.mode = "main"
        self.sub = None
        self.leaving = self.after = self.ended_at = None
        was = self.main.current.value
        self.main = self._main_menu()  # a quick start may have been added: the cursor stays put
        self.main = replace(self.main, cursor=next((i for i, c in enumerate(self.main.choices) if c.value == was), 0))
        if self.leds is not None:
            for s in range(1, 9):
                self.leds.set(s, "off")

    def _error(self, message: str) -> None:
        log.error(message)
        self.mode = "error"
        self.sub = menu(message, [("OK", "ok")])

    # -- output --------------------------------------------------------------------------
    def scene(self) -> Scene:
        in_game = self.mode == "game" and self.session is not None
        # a game's footer says who acts and how: a notice hides it only for a moment
        notice = self._current_notice(self.GAME_NOTICE_S if in_game else self.NOTICE_S)
        if self.journal.problem:
            notice = self.journal.problem
        if self.mode == "game" and self.phones is not None and self.phones.screen_up:
            return self.phones.screen_scene()
        if self.mode == "game" and self.session is not None:
            sc = self.session.scene()
            if self.session.finished:
                return party.end_scene(sc, self.after or party.end_menu())
            held = 0.0 if self.back_down_at is None else (self.clock() - self.back_down_at) / self.long_back_s
            if self.leaving is not None:
                sc = party.leave_scene(sc, self.leaving)
            return replace(sc, footer=notice or sc.footer, hold=max(0.0, min(1.0, held)))
        if self.mode == "main":
            return Scene("clinkbox", (Text("What shall we play?", size="heading"), replace(self.main.widget(), title="")),
                         footer=notice or "Prev / Next to move, OK to choose")
        assert self.sub is not None
        titles = {"settings": "Settings", "setup": self._setup_title(), "resume": "Welcome back",
                  "shutdown": "Shut down", "error": "Something went wrong"}
        widgets: tuple[Any, ...] = (self.sub.widget(),)
        if self.mode == "error":
            widgets = (Banner("Oops", subtitle=self.sub.title), Menu(("OK",), 0))
        hint = "Prev / Next to move, OK to choose, Back to go back"
        if self.mode == "settings" and self.choosing is None:
            hint = "OK changes the setting under the cursor · Back to the main menu"
        elif self.mode in ("setup", "shutdown"):  # Back leaves the set-up (or the question) for the main menu
            hint = "Prev / Next to move, OK to choose, Back to the main menu"
        return Scene(titles.get(self.mode, "clinkbox"), widgets, footer=notice or hint)

    NOTICE_S = 20.0
    GAME_NOTICE_S = 6.0

    def _current_notice(self, for_s: float = NOTICE_S) -> str:
        """The latest notice, for ``for_s`` seconds after it first showed."""
        if not self.notices:
            return ""
        now = self.clock()
        seen = getattr(self, "_notice_seen", (0, now))
        if seen[0] != len(self.notices):
            seen = (len(self.notices), now)
            self._notice_seen = seen
        return self.notices[-1] if now - seen[1] < for_s else ""

    def _setup_title(self) -> str:
        label = next((g.title for g in built_in() if g.game == self.setup_game), self.setup_game or "")
        return f"New game: {label}"
