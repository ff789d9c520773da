"""The composition root: config, journal, buttons (or the simulator), display, sound, speech.

Hardware threads hand their events to the asyncio loop with
``loop.call_soon_threadsafe``; the loop feeds the shell, which journals each
accepted input before its effect; the display is redrawn at ``display.fps``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable

from controller import config as config_mod
from controller.config import Config
from controller.ear import TableEar
from controller.games import built_in
from controller.journal import Journal
from controller.shell import Shell
from hardware.buttons import ButtonEvent, Panel, Stations
from hardware.sound import Speaker

log = logging.getLogger(__name__)

#: how far game timers run behind real time while toasts are heard: a recogniser reports a
#: toast after the word, and a toast that ended in time must still count
REPORT_LAG_S = 0.5
LOADER_JOIN_S = 20.0  # a box closed while its recogniser loads waits this long for it at most
#: the listener's status -> whether the box can hear toasts
HEARING = {"ok": True, "back": True, "no microphone": False, "lost": False}


def on_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="ignore")
    except OSError:
        return False


def config_defaults(cfg: Config) -> dict[str, Any]:
    """The box's settings whose default is the config file's (with each game's settings_from_config): the
    host's choice in the Settings menu, once made, wins."""
    return {"volume": cfg.sound.volume, "speech": cfg.speech.engine, "phones": cfg.phones.enabled}


def display_mode(cfg: Config) -> str:
    """The display mode to use: the configured one, or what this machine allows."""
    if cfg.display.mode != "auto":
        return cfg.display.mode
    if os.environ.get("SDL_VIDEODRIVER") == "dummy":
        return "headless"
    has_screen = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if not has_screen:
        log.warning("no display found (no DISPLAY or WAYLAND_DISPLAY): running headless")
        return "headless"
    return "fullscreen" if on_raspberry_pi() else "window"


def fit_screen(size: tuple[int, int], mode: str) -> tuple[int, int]:
    """A window no larger than the screen it opens on (the config allows up to 8K; a laptop's
    screen is smaller): capped, keeping its shape, with a warning. Headless and full screen
    are left as they are (full screen takes the screen's own size)."""
    if mode != "window":
        return size
    import pygame as pg

    pg.display.init()
    screens = pg.display.get_desktop_sizes()
    if not screens:
        return size
    sw, sh = screens[0]
    scale = min(1.0, sw / size[0], sh / size[1])
    if scale >= 1.0:
        return size
    fitted = (max(320, int(size[0] * scale)), max(240, int(size[1] * scale)))
    log.warning("display %dx%d is larger than the screen (%dx%d): the window is %dx%d",
                size[0], size[1], sw, sh, fitted[0], fitted[1])
    return fitted


class Box:
    """The running box."""

    def __init__(self, cfg: Config, *, simulate: bool | None = None, pin_factory: Any = None,
                 mode: str | None = None, frames_dir: Path | None = None) -> None:
        self.cfg = cfg
        self.started = time.monotonic()
        self.mode = mode or display_mode(cfg)
        self.simulate = (not on_raspberry_pi()) if simulate is None else simulate
        self.frames_dir = frames_dir
        self.loop: asyncio.AbstractEventLoop | None = None
        self.request: str | None = None
        self.menu_shown_at: float | None = None
        data = cfg.data_path()
        self.journal = Journal(data / "journal.sqlite3", watch=True)
        self.speaker = Speaker(cfg.sound.enabled, cfg.sound.volume, config_mod.sound_device(cfg.sound.device))
        self.panel: Panel | None = None
        self.keyboard: Any = None
        self.sim_leds: Any = None
        leds: Any
        # the buttons push their events, the panel's from gpiozero's threads, the simulator's
        # from the window: each as the same ButtonEvent, to the same shell
        stations = Stations()
        if self.simulate:
            from hardware.simulator import Keyboard, SimLeds

            self.keyboard = Keyboard(on_event=self._from_window, on_toast=self._typed_toast)
            self.sim_leds = leds = SimLeds(len(cfg.stations))
        else:
            self.panel = Panel({i: (s.button, s.led) for i, s in enumerate(cfg.stations, 1)},
                               {"prev": cfg.pad.prev, "next": cfg.pad.next, "ok": cfg.pad.ok, "back": cfg.pad.back},
                               self._from_thread, bounce_s=cfg.buttons.bounce_s, pin_factory=pin_factory,
                               stations_state=stations)
            leds = self.panel
        self.shell = Shell(self.journal, leds=leds, sound=self.speaker, settings_path=data / "settings.json",
                           long_back_s=cfg.buttons.long_back_s, on_request=self._on_request,
                           stations=stations)
        # the config's values are the defaults of these settings until the host chooses in the menu
        defaults = config_defaults(cfg)
        for game in built_in():
            defaults.update(game.flow.settings_from_config(cfg))
        self.shell.config_keys |= defaults.keys()
        for key, value in defaults.items():
            if key not in self.shell.chosen:
                self.shell.settings[key] = value
        self.shell.apply_settings()
        from controller.phones.service import Phones

        self.phones = Phones(self.shell, cfg.phones)
        if self.speaker.problem:
            self.shell.notices.append(self.speaker.problem)
        self._speaker_problem: str | None = self.speaker.problem  # told already
        # a journal or a game set aside at start: the table is told once
        self.shell.notices.extend(self.journal.notices)
        self.listener: Any = None
        self.ear = TableEar(self.shell, self.journal, self._on_loop,
                            data / "voices" if cfg.speech.keep_audio else None,
                            listen_for_card=cfg.speech.listen_for_card)
        self._closed = False
        self._loader: threading.Thread | None = None
        self.renderer: Any = None
        self.script: Any = None  # a controller.script_feed.ScriptFeeder: inputs from a replay file

    # -- hardware threads -> loop ---------------------------------------------------------
    def _from_thread(self, ev: ButtonEvent) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.shell.button, ev)

    def _from_window(self, ev: ButtonEvent) -> None:
        """A simulator key: the window's events are read on the loop, so it goes straight in."""
        self.shell.button(ev)

    def _typed_toast(self, ev: Any) -> None:
        """A toast typed on the simulator's keyboard: heard as said when it is sent."""
        from models.toasts import toast_id

        word = toast_id(ev.text)
        if word:
            self.shell.toast(word, ev.t, ev.t, typed=True)
        else:
            self.shell.notices.append(f"'{ev.text}' is not a toast")

    def _toast_from_thread(self, heard: Any) -> None:
        if self.loop is not None and heard.toast:
            self.loop.call_soon_threadsafe(self.shell.toast, heard.toast, heard.start, heard.end, heard.confidence)
            self.loop.call_soon_threadsafe(self.ear.toast_heard, heard.toast, heard.start, heard.end)

    def _on_request(self, what: str) -> None:
        self.request = what

    # -- speech ---------------------------------------------------------------------------
    def start_speech(self) -> None:
        choice = self.shell.settings.get("speech", self.cfg.speech.engine)
        if choice == "off" or self.cfg.speech.engine == "off":
            log.info("speech is off: claims are confirmed by the veto vote alone")
            self.shell.speech_available = False
            return
        if self.script is not None and self.script.recordings:
            from hardware.speech.file_mic import FileMicrophone

            # a script's recordings are the room: the listener hears them instead of a microphone
            self.script.mic = FileMicrophone()
        # loading a recogniser takes a second or more (several on a Pi): the menu does not wait.
        # Not a daemon: a box closed while it loads waits for it rather than tearing the
        # interpreter down under an import (which crashes the process on its way out).
        self._loader = threading.Thread(target=self._load_speech, args=(choice,), name="speech-loader")
        self._loader.start()

    def _on_loop(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn`` on the event loop (at once when there is no loop yet)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)
        else:
            fn(*args)

    def _load_speech(self, choice: str) -> None:
        try:
            from hardware.speech import Listener, choose_engine

            engine, reason = choose_engine(None if choice == "auto" else choice, self.cfg.data_path())
            log.info("speech engine: %s (%s)", engine.name, reason)
            mic = self.script.mic if self.script is not None else None
            listener = Listener(engine, self._toast_from_thread, self._speech_status,
                                device=config_mod.sound_device(self.cfg.speech.device), stream_factory=mic)
            if self._closed:
                return
            listener.start()
            self.listener = listener
            if self._closed:  # the box closed while the listener was starting
                listener.stop()
                return
            # a window's verdict waits for a toast that ended in time but is still being decoded
            self._on_loop(setattr, self.shell, "decision_lag_s", REPORT_LAG_S)
            self._on_loop(self.ear.attach, listener)
        except Exception as exc:  # no speech must never stop the party
            if self._closed:  # the box was closed while it loaded: nobody is left to tell
                log.debug("speech loader stopped by closing: %s", exc)
                return
            if self.keyboard is not None:  # the simulator still hears what is typed
                log.warning("speech unavailable (%s): type toasts with T", exc)
                self._on_loop(self.shell.notices.append, "No microphone: press T to type a toast")
                return
            log.warning("speech unavailable (%s): claims are confirmed by the veto vote alone", exc)
            self._on_loop(setattr, self.shell, "speech_available", False)
            self._on_loop(self.shell.notices.append, f"No speech: {exc}")

    def _speech_status(self, status: str) -> None:
        log.info("microphone: %s", status)
        if self.loop is not None:
            told = f"Microphone: {status}"
            if self.keyboard is not None and status.startswith("no microphone"):
                told = "No microphone: press T to type a toast"  # the simulator's keyboard still says toasts
            self.loop.call_soon_threadsafe(self.shell.notices.append, told)
            hears = HEARING.get(status.split(":")[0].strip())
            if hears is not None and self.keyboard is None:  # the simulator's keyboard always hears
                self.loop.call_soon_threadsafe(self.shell.set_hearing, hears, time.monotonic())

    # -- main loop ------------------------------------------------------------------------
    async def run(self, *, exit_after_menu: bool = False, seconds: float | None = None) -> str | None:
        from hardware.display.render import Renderer

        self.loop = asyncio.get_running_loop()
        stops = self._stop_on_signals()
        from hardware.simulator import band_height

        band = band_height(self.cfg.display.height) if self.sim_leds is not None and self.mode == "window" else 0
        size = fit_screen((self.cfg.display.width, self.cfg.display.height + band), self.mode)
        self.renderer = Renderer((size[0], size[1] - band), self.mode, reserve_bottom=band)
        if self.script is None or self.script.recordings:
            self.start_speech()  # a script's recordings are heard through the file-backed microphone
        else:  # the script is the ear: its toasts are reported after the word, as a recogniser's
            self.shell.decision_lag_s = REPORT_LAG_S
        frame = 1.0 / max(1, self.cfg.display.fps)
        n = 0
        flush: asyncio.Future[None] | None = None
        end = None if seconds is None else time.monotonic() + seconds
        try:
            while self.request is None:
                now = time.monotonic()
                if self.renderer.mode != "headless":
                    self._pump_events()
                if self.script is not None and self.script.step(self.shell, now):
                    self.request = "script-done"
                    continue
                self.shell.tick(now)
                self.ear.step()
                self.phones.step()
                self._watch_speaker()
                if self.panel is not None:
                    self._watch_stuck(now)
                if self.listener is not None and self.shell.mode == "game":
                    self.listener.arm(now - 1.5, now + 3.0)
                if self.journal.dirty and (flush is None or flush.done()):
                    # the disk flush runs off the loop: a press never waits for the SD card
                    flush = asyncio.ensure_future(asyncio.to_thread(self.journal.sync_now))
                scene = self.shell.scene()
                self.renderer.draw(scene)
                if self.sim_leds is not None and self.renderer.band is not None:
                    self.sim_leds.draw(self.renderer.band, self.keyboard.typing)
                self.renderer.present()
                if self.menu_shown_at is None:
                    self.menu_shown_at = time.monotonic()
                    log.info("main menu up %.2f s after start", self.menu_shown_at - self.started)
                    if exit_after_menu:
                        return "menu"
                if self.frames_dir is not None and n % max(1, self.cfg.display.fps) == 0:
                    self.renderer.save_png(self.frames_dir / f"frame-{n // self.cfg.display.fps:05d}.png")
                n += 1
                if end is not None and time.monotonic() >= end:
                    return "timeout"
                await asyncio.sleep(max(0.0, frame - (time.monotonic() - now)))
            return self.request
        finally:
            for sig in stops:
                self.loop.remove_signal_handler(sig)
            self._closed = True  # a recogniser still loading is not started once it is loaded
            await self.phones.close()
            if self._loader is not None:  # off the loop: the load may take seconds to finish
                await asyncio.to_thread(self._loader.join, LOADER_JOIN_S)
            self.close()

    def _stop_on_signals(self) -> list[signal.Signals]:
        """SIGTERM (``systemctl stop``, a shutdown) and SIGHUP (the terminal closed) stop the box
        as the menu's quit does: the loop ends and everything is closed. (SDL's own handlers,
        which only post a quit event that a headless box never reads, are kept out.)"""
        os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        assert self.loop is not None, "the signals are handled once the loop runs"
        handled = []
        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                self.loop.add_signal_handler(sig, self._on_signal, sig)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
                continue
            handled.append(sig)
        return handled

    def _on_signal(self, sig: signal.Signals) -> None:
        log.info("stopped by %s; the journal keeps the game to resume", sig.name)
        self.request = "quit"

    def _watch_speaker(self) -> None:
        """A speaker lost (or found again) mid-game: the table is told once each time."""
        problem = getattr(self.speaker, "problem", None)
        if problem != self._speaker_problem:
            if problem is not None:
                self.shell.notices.append(problem)
            elif self._speaker_problem is not None and self._speaker_problem.startswith("The speaker was lost"):
                self.shell.notices.append("The speaker is back.")
            self._speaker_problem = problem

    def _watch_stuck(self, now: float) -> None:
        newly, freed = self.panel.watch(now, self.cfg.buttons.stuck_s) if self.panel else ([], [])
        for station in newly:
            self.shell.notices.append(f"Station {station}'s buzzer is stuck down: station disabled until it comes up.")
        for station in freed:
            self.shell.notices.append(f"Station {station}'s buzzer is free again.")

    def _pump_events(self) -> None:
        import pygame as pg

        for event in pg.event.get():
            if event.type == pg.QUIT:
                self.request = "quit"
            elif self.keyboard is not None:
                self.key(event)

    def key(self, event: Any) -> None:
        """One window event for the simulator's keyboard, which pushes what it means."""
        assert self.keyboard is not None
        self.keyboard.handle(event)

    def close(self) -> None:
        self._closed = True
        if self._loader is not None:  # at once after run(), which waited for it off the loop
            self._loader.join(timeout=LOADER_JOIN_S)  # it sees _closed and returns once loaded
        if self.listener is not None:
            self.listener.stop()
        if self.panel is not None:
            self.panel.close()
        self.journal.close()
