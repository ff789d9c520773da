"""The phone hub: the game in play as phones see it, its seat codes, and the host's join screen.

The hub is the only part of the phone feature that touches the box: it reads the shell's
game session, hands a phone's action to the shell (which journals it before its effect,
exactly like a replay's ``do`` line), keeps the seats that have a phone (the flows read it to
skip the look-away step), and draws the join screen on the TV. It opens no socket itself:
:mod:`controller.phones.server` does that, and only when phones are on.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from controller.menu import BACK, MenuState, menu
from controller.phones.pages import Page, PhoneGame, base_page, phone_game
from controller.phones.qr import join_link, qr_widget
from controller.phones.tokens import SeatKeys
from hardware.display.widgets import Grid, Scene, Text, Widget, seat_colour

log = logging.getLogger(__name__)

HOLD_PREV_S = 2.0  # holding Prev this long in a game opens the join screen


class PhoneHub:
    """Phones for one box. ``shell`` is the running :class:`~controller.shell.Shell`."""

    hold_s = HOLD_PREV_S

    def __init__(self, shell: Any, *, address: str, port: int, wifi: str = "",
                 now: Callable[[], float] | None = None,
                 make_token: Callable[[int], str] | None = None) -> None:
        self.shell = shell
        self.address = address
        self.port = port
        self.wifi = wifi
        self.now: Callable[[], float] = now if now is not None else getattr(shell, "clock", time.monotonic)
        """The shell's clock: a phone's action is stamped on it, as a button's edge is."""
        self._make_token = make_token
        self.session: Any = None
        self.adapter: PhoneGame | None = None
        self.keys: SeatKeys | None = None
        self.connected: dict[int, int] = {}
        self.screen: MenuState[Any] | None = None
        self.opening = False
        """The join screen up is the one that opened the game: until the host's Play (or the
        game's first input on the box), no phone moves."""
        self._cache: dict[int | None, tuple[Any, str]] = {}
        self._steps: dict[int | None, tuple[str, int]] = {}
        """Per seat: its page's text before its step number, and that number (it grows by one
        each time the page changes, so a move chosen on an older page can be told apart)."""
        self.changes: list[str] = []
        self.reissued: list[int] = []
        """Seats whose code was reissued since the server last looked (it drops their phones)."""

    # -- the game in play ----------------------------------------------------------------
    def sync(self) -> str | None:
        """Follow the shell's game (call before serving, and every frame). Says what changed:
        "new" (another game, or none: new seat codes, the old ones end), "ended" (the game is
        over: its codes end) or None."""
        session = self.shell.session if self.shell.mode == "game" else None
        changed: str | None = None
        if session is not self.session:
            changed = "new"
            if self.keys is not None:
                self.keys.end()
            self.session, self.keys, self._cache, self._steps = session, None, {}, {}
            self.adapter = phone_game(str(session.header.get("game"))) if session is not None else None
            self.connected.clear()
            self.shell.phone_seats.clear()
            if session is not None and self.adapter is not None and not session.finished:
                kwargs = {"make": self._make_token} if self._make_token else {}
                self.keys = SeatKeys(self.adapter.seats(session.flow), **kwargs)
                self.screen = self._screen_menu()
                self.opening = True
            else:
                self.screen = None
                self.opening = False
        elif session is not None and session.finished and self.keys is not None and not self.keys.ended:
            self.keys.end()  # the codes end with the game
            self.screen = None
            changed = "ended"
        if changed is not None:
            self.changes.append(changed)
        return changed

    def take_changes(self) -> list[str]:
        """What changed since the server last asked (whoever called :meth:`sync`)."""
        out, self.changes = self.changes, []
        return out

    @property
    def game_key(self) -> Any:
        """Changes whenever what a phone may see can have changed."""
        s = self.session
        if s is None:
            return None
        return (id(s), len(s.events), getattr(s, "fed", 0), s.finished, self.opening and self.screen is not None,
                getattr(self.shell, "leaving", None) is not None)

    def seat_of(self, token: object) -> int | None:
        return self.keys.seat_of(token) if self.keys is not None else None

    def page(self, seat: int | None, game: Any = None) -> str | None:
        """The page for ``seat`` (None: the public table) as JSON text, rebuilt only on change.

        ``game`` is the session the seat's code belongs to: a seat's page of any other game is
        never given (None is answered instead)."""
        if seat is not None and game is not self.session:
            return None
        key = self.game_key
        cached = self._cache.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        page = self._page(seat)
        body = json.dumps(page, separators=(",", ":"), ensure_ascii=False)
        last, step = self._steps.get(seat, ("", 0))
        if body != last:
            step += 1
            self._steps[seat] = (body, step)
        page["step"] = step
        text = json.dumps(page, separators=(",", ":"), ensure_ascii=False)
        self._cache[seat] = (key, text)
        return text

    def step(self, seat: int | None, game: Any = None) -> int | None:
        """The step number of ``seat``'s page now (what a move chosen on it must carry)."""
        text = self.page(seat, game)
        return None if text is None else self._steps[seat][1]

    def _page(self, seat: int | None) -> Page:
        if self.session is None or self.adapter is None:
            return base_page("clinkbox", seat, "No game in play: the host starts one on the TV")
        engine = self.adapter.engine(self.session.flow)
        view = engine.view(seat)
        waiting = self.waiting() if seat is not None else None
        actions = list(engine.legal_actions(seat)) if seat is not None and self.adapter.acts \
            and waiting is None else []
        p = self.adapter.page(view, seat, actions)
        p["type"] = "page"
        if seat is not None and not self.adapter.acts:
            p["note"] = "Timing stays on the buzzers: this phone never claims."
        if waiting is not None and not p["over"]:
            p["status"], p["your_move"], p["actions"] = waiting, False, []
        return p

    def waiting(self) -> str | None:
        """Why no phone may move now while the game is in play (the table is still being set up
        on the TV), or None."""
        if self.session is None or self.adapter is None or self.session.finished:
            return None
        waits = getattr(self.adapter, "waits", None)
        reason = waits(self.session.flow) if waits is not None else None
        if reason is not None or not self.adapter.acts:
            return reason
        if self.opening and self.screen is not None and not getattr(self.session, "fed", 0):
            return "Waiting for the table: the host starts the game from the phone codes on the TV (OK: Play)"
        if getattr(self.shell, "leaving", None) is not None:
            return "Waiting for the table: the host is asking on the TV whether to leave this game"
        return None

    # -- phones coming and going -----------------------------------------------------------
    def joined(self, seat: int) -> Any:
        """A phone joined ``seat``; returns the game its code belongs to."""
        self.connected[seat] = self.connected.get(seat, 0) + 1
        self.shell.phone_seats.add(seat)
        if self.screen is not None:
            self.screen = self._screen_menu(self.screen.cursor)
        return self.session

    def left(self, seat: int, game: Any) -> None:
        if game is not self.session:
            return  # a phone of a game that has ended
        n = self.connected.get(seat, 0) - 1
        if n > 0:
            self.connected[seat] = n
            return
        self.connected.pop(seat, None)
        self.shell.phone_seats.discard(seat)
        if self.screen is not None:
            self.screen = self._screen_menu(self.screen.cursor)

    # -- a phone's action --------------------------------------------------------------------
    def act(self, seat: int, action: object, game: Any, step: object = None) -> str | None:
        """A phone's action for ``seat``: the reason it was refused, or None when the game took it.

        Only a ``do`` payload for the phone's own seat, in the game its code belongs to, reaches
        the game; the game's engine judges it, and only a move it takes is journaled (first, as
        every input): a refused one changes nothing and leaves no line. ``step``
        is the step number of the page the move was chosen on (None: judged as it stands now):
        a move from an older page (a double tap, a message that came late) is refused before
        it reaches the game."""
        self.sync()
        if self.session is None or self.adapter is None or self.session.finished:
            return "no game is in play"
        if game is not self.session:
            return "this seat code has ended with its game"
        if not self.adapter.acts:
            return "in this game the buzzers do everything: a phone only shows"
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return "an action must be an object with a 'type'"
        if action.get("seat") != seat:
            return f"a phone acts only for its own seat (seat {seat})"
        waiting = self.waiting()
        if waiting is not None:
            return waiting
        if step is not None:
            if not isinstance(step, int) or isinstance(step, bool):
                return f"'step' must be the step number of the page the move was chosen on, got {step!r}"
            now = self.step(seat, game)
            if step != now:
                return (f"too late: that move was on your page of step {step}, and the game has moved "
                        f"on (step {now}): choose again on your page")
        refusal = getattr(self.adapter, "refusal", None)
        if refusal is not None:
            # judged by the engine first: a move it refuses changes nothing, so it is not
            # journaled (a phone repeating a bad move cannot fill the journal, nor beep the box)
            reason = refusal(self.session.flow, action)
            if reason is not None:
                return reason
        return self.shell.do(action, self.now())

    # -- the join screen (the host's, on the TV) ---------------------------------------------
    @property
    def screen_up(self) -> bool:
        return self.screen is not None

    def open_screen(self) -> None:
        if self.keys is not None and not self.keys.ended:
            self.screen = self._screen_menu()

    def _screen_menu(self, cursor: int = 0) -> MenuState[Any]:
        items: list[tuple[str, Any]] = [("Play", "close")]
        for seat in self.keys.seats if self.keys else ():
            joined = " (phone joined)" if seat in self.connected else ""
            items.append((f"New code for seat {seat}{joined}", seat))
        return menu("Phones", items, min(cursor, len(items) - 1))

    def screen_nav(self, button: str) -> None:
        if self.screen is None:
            return
        self.screen, chosen = self.screen.nav(button)
        if chosen is None:
            return
        if chosen == "close" or chosen is BACK:
            self.screen = None
            self.opening = False
        elif isinstance(chosen, int) and self.keys is not None:
            self.keys.reissue(chosen)  # the old code stops working at once
            self.reissued.append(chosen)
            self.screen = self._screen_menu(self.screen.cursor)

    def screen_scene(self) -> Scene:
        cells: list[Any] = []
        keys = self.keys
        for seat in keys.seats if keys else ():
            colour = seat_colour(seat)
            token = keys.token(seat) if keys else None
            if seat in self.connected:
                cells.append(Text(f"Seat {seat}\nphone joined", colour=colour))
            elif token is not None:
                n = keys.issued.get(seat, 1) if keys else 1
                caption = f"Seat {seat}" + (f" · code {n}" if n > 1 else "")
                cells.append(qr_widget(join_link(self.address, self.port, token), caption, colour))
        if self.wifi:
            cells.append(qr_widget(self.wifi, "Wi-Fi"))
        rows = 1 if len(cells) <= 6 else 2  # the codes take the screen: as big as they fit
        columns = max(1, -(-len(cells) // rows))
        assert self.screen is not None
        # the host's choices on one line, so the codes keep the rest of the screen
        choice = self.screen.current.label
        widgets: list[Widget] = [Grid(tuple(cells), columns=columns),
                   Text(f"OK: {choice}   ·   Prev / Next: {'a new code for a seat' if choice == 'Play' else 'more'}",
                        size="heading", colour=(242, 190, 60))]
        return Scene("Phones: scan your seat's code", tuple(widgets),
                     footer=f"The table for all: http://{self.address}:{self.port}/ · "
                            "hold Prev for this screen")
