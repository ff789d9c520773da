"""Phones in a real browser: Debian's headless Chromium, driven by Playwright, against the real box
(headless display, real journal) serving on loopback."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from phone_helpers import seated

from controller.app import Box
from controller.config import Config, Display, Phones, Sound, Speech
from controller.phones.qr import join_link

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright_api = pytest.importorskip("playwright.async_api")
expect = playwright_api.expect
# make test-arm64 runs the suite under qemu's user-mode emulation and says so in this variable
EMULATION = os.environ.get("CLINKBOX_EMULATION", "")
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (make test installs it)"),
    pytest.mark.skipif(bool(EMULATION), reason=f"Chromium cannot run under {EMULATION} emulation (its "
                       "GPU and renderer processes fail to start there: a limit of the emulation)"),
]
# Only against a hang: every wait below (Playwright's own included, 5 to 30 s by default) ends as
# soon as what it waits for is there, however slow the machine (an emulated arm64 one is slow).
HANG_GUARD_S = 600
expect.set_options(timeout=HANG_GUARD_S * 1000)
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


class Table:
    """The running box with phones on, a game in play, and a headless Chromium."""

    def __init__(self, tmp_path: Path, header: dict) -> None:
        cfg = Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"),
                     speech=Speech(engine="off"), sound=Sound(enabled=False),
                     phones=Phones(enabled=True, host="127.0.0.1", port=0, address="127.0.0.1"))
        self.box = Box(cfg, simulate=True, mode="headless")
        self.header = header

    async def __aenter__(self) -> "Table":
        self.task = asyncio.create_task(self.box.run())
        deadline = time.monotonic() + HANG_GUARD_S
        while self.box.phones._busy is None and time.monotonic() < deadline:  # the first frame starts the server
            await asyncio.sleep(0.01)
        await self.box.phones._busy
        assert self.box.phones.server is not None, self.box.shell.notices
        self.box.shell.start_game(self.header)
        self.box.phones.server.refresh()
        self.hub = self.box.shell.phones
        self.hub.screen_nav("ok")  # the host closes the join screen: Play
        seated(self.box.shell)  # Cheers: the host goes on from the seating and the goals
        self.pw = await playwright_api.async_playwright().start()
        self.browser = await self.pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=ARGS)  # a new empty profile each launch
        return self

    async def __aexit__(self, *exc) -> None:
        await self.browser.close()
        await self.pw.stop()
        self.box.request = "quit"
        await self.task

    @property
    def port(self) -> int:
        return self.box.phones.server.port

    def link(self, seat: int) -> str:
        return join_link("127.0.0.1", self.port, self.hub.keys.token(seat))

    async def phone(self, url: str):
        """A phone: its own browser context (no shared storage), with every WebSocket frame it got."""
        context = await self.browser.new_context(**self.pw.devices["Pixel 7"])  # a phone's screen and touch
        context.set_default_timeout(HANG_GUARD_S * 1000)
        page = await context.new_page()
        page.frames_received = []

        def on_socket(ws):
            ws.on("framereceived", lambda payload: page.frames_received.append(str(payload)))

        page.on("websocket", on_socket)
        page.errors = []  # script errors and console errors (a blocked style or script shows there)
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
        await page.goto(url)
        return page


def test_two_seats_join_from_two_browsers_and_each_sees_its_own_hand_only(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "cheers", "seed": 7, "players": 4}) as table:
            state = table.box.shell.session.flow.state
            one = await table.phone(table.link(1))
            two = await table.phone(table.link(2))
            ids = {}
            for seat, page in ((1, one), (2, two)):
                await page.wait_for_selector("section[data-kind=hand] .it")
                ids[seat] = await page.eval_on_selector_all("[data-id]", "els => els.map(e => e.dataset.id)")
                assert await page.inner_text("#who") == f"Seat {seat}"
            frames = {1: "".join(one.frames_received), 2: "".join(two.frames_received)}
            errors = one.errors + two.errors
            return ids, frames, {s: list(state.hands[s]) for s in (1, 2)}, dict(table.hub.connected), errors

    ids, frames, hands, connected, errors = asyncio.run(scenario())
    assert errors == [], "the page runs under its own Content-Security-Policy without an error"
    assert ids[1] == hands[1] and ids[2] == hands[2]
    assert not set(hands[2]) & set(frames[1]), "no card of seat 2's hand ever reached seat 1's phone"
    assert all(card not in frames[1] for card in hands[2])
    assert all(card not in frames[2] for card in hands[1])
    assert connected == {1: 1, 2: 1}


def test_a_phones_taps_play_the_move_on_the_tv_and_in_the_journal(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "cheers", "seed": 7, "players": 4}) as table:
            shell = table.box.shell
            state = shell.session.flow.state
            page = await table.phone(table.link(1))
            await page.wait_for_selector("#acts button.act")
            await page.tap("#acts button.act >> text=Play a card")
            await page.locator("#acts button.act").first.tap()  # a card
            await page.locator("#acts button.act").first.tap()  # in front of whom
            await expect(page.locator("#status")).to_have_text("Seat 2's turn")
            tv = shell.scene()
            saved = shell.journal.load(shell.session.game_id)
            return tv, [i for i in saved.inputs if i.kind != "nav"], state.turn_player, state.fronts[1]

    tv, inputs, turn_player, front = asyncio.run(scenario())
    assert turn_player == 2 and len(front) == 1
    assert [i.kind for i in inputs] == ["do"] and inputs[0].action["type"] == "play"
    assert inputs[0].action["seat"] == 1 and inputs[0].action["card"] == front[0]
    assert "\u27e62\u27e7" in (tv.footer + " ".join(str(w) for w in tv.widgets)), "seat 2's chip: its turn"


def test_a_wrong_or_old_code_is_refused_in_the_browser(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "goblets", "seed": 7, "players": 4}) as table:
            wrong = await table.phone(join_link("127.0.0.1", table.port, "not-a-code-" + "x" * 30))
            await expect(wrong.locator("#conn")).to_have_text("ended")
            wrong_text = await wrong.inner_text("#msg")
            old_link = table.link(2)
            holder = await table.phone(old_link)
            await holder.wait_for_selector("section[data-kind=screen]")
            table.hub.open_screen()
            for button in ("next", "next", "ok"):
                table.hub.screen_nav(button)  # New code for seat 2
            await expect(holder.locator("#conn")).to_have_text("ended")
            dropped = await holder.inner_text("#msg")
            again = await table.phone(old_link)
            await expect(again.locator("#conn")).to_have_text("ended")
            new = await table.phone(table.link(2))
            await new.wait_for_selector("section[data-kind=screen]")
            return wrong_text, dropped, await again.inner_text("#msg"), await new.inner_text("#who")

    wrong, dropped, again, who = asyncio.run(scenario())
    assert "unknown or has ended" in wrong
    assert dropped == "the host gave this seat a new code"
    assert "unknown or has ended" in again
    assert who == "Seat 2"


def test_a_dropped_connection_rejoins_its_seat(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "goblets", "seed": 7, "players": 4}) as table:
            page = await table.phone(table.link(3))
            await page.wait_for_selector("section[data-kind=screen]")
            server = table.box.phones.server
            (phone,) = [p for p in server.phones if p.seat == 3]
            await phone.ws.close(code=1011, message=b"dropped")  # as a sleeping phone loses its socket
            await expect(page.locator("#conn")).to_have_text("reconnecting…")
            await expect(page.locator("#conn")).to_have_text("connected")
            await page.wait_for_selector("section[data-kind=screen]")
            back = [p for p in server.phones if p.seat == 3]
            return len(back), dict(table.hub.connected), await page.inner_text("#who")

    n, connected, who = asyncio.run(scenario())
    assert n == 1 and connected == {3: 1} and who == "Seat 3"


def test_the_public_page_shows_the_table_without_any_seats_secret(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "cheers", "seed": 7, "players": 4}) as table:
            state = table.box.shell.session.flow.state
            page = await table.phone(f"http://127.0.0.1:{table.port}/")
            await page.wait_for_selector("section")
            text = (await page.inner_text("body")).lower()
            hands = [c for s in state.seats for c in state.hands[s]]
            return text, "".join(page.frames_received), hands

    text, frames, hands = asyncio.run(scenario())
    assert "the table" in text and "in front of each seat" in text and "seat 1 (team a)" in text
    assert "your hand" not in text and "your goal" not in text
    assert not any(card in frames for card in hands)


def test_a_new_code_scanned_into_the_same_tab_joins_with_it(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "goblets", "seed": 7, "players": 4}) as table:
            page = await table.phone(table.link(2))
            await page.wait_for_selector("section[data-kind=screen]")
            table.hub.open_screen()
            for button in ("next", "next", "ok"):
                table.hub.screen_nav(button)  # New code for seat 2: this phone is dropped
            await expect(page.locator("#conn")).to_have_text("ended")
            await page.goto(table.link(2))  # the new code, scanned: the same page, another fragment
            await expect(page.locator("#conn")).to_have_text("connected")
            await page.wait_for_selector("section[data-kind=screen]")
            return await page.inner_text("#who"), await page.evaluate("location.hash"), \
                dict(table.hub.connected), page.errors

    who, fragment, connected, errors = asyncio.run(scenario())
    assert who == "Seat 2" and connected == {2: 1}
    assert fragment == "", "the code is taken out of the address bar again"
    assert errors == []


def test_a_tap_sends_its_pages_step_and_the_moves_go_until_the_next_page(tmp_path):
    async def scenario():
        async with Table(tmp_path, {"game": "goblets", "seed": 7, "players": 4}) as table:
            shell, hub = table.box.shell, table.hub
            engine = shell.session.flow.engine
            while True:  # on to a turn of two actions or more, with a pour
                seat = engine.current_player
                acts = json.loads(hub.page(seat, hub.session))["actions"]
                if engine.state.step.actions_left >= 2 and any(a["path"][0] == "Pour" for a in acts):
                    break
                assert hub.act(seat, acts[-1]["do"], hub.session) is None
            left = engine.state.step.actions_left
            page = await table.phone(table.link(seat))
            sent: list[str] = []
            page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
            await page.reload()  # the socket again, now watched
            await page.tap("#acts button.act >> text=Pour")
            await page.locator("#acts button.act").first.tap()  # which token: then into which goblet
            await expect(page.locator("#acts button.act").first).to_contain_text("Into goblet")
            shown = json.loads([f for f in page.frames_received if f.startswith('{"game"')][-1])
            # a finger that taps again at once finds no move left to tap until the next page
            left_to_tap = await page.evaluate(
                "() => { document.querySelector('#acts button.act').click();"
                " return document.querySelectorAll('#acts button.act').length; }")
            await expect(page.locator("#msg")).to_have_text("Done")
            await page.wait_for_selector("#acts button.act")
            dos = [i.action for i in shell.journal.load(shell.session.game_id).inputs if i.kind == "do"]
            moves = [json.loads(f) for f in sent if '"do"' in f]
            return seat, left, engine.state.step, dos, moves, shown["step"], left_to_tap, page.errors

    seat, left, step, dos, moves, shown, left_to_tap, errors = asyncio.run(scenario())
    assert left_to_tap == 0
    assert [m["step"] for m in moves] == [shown], "the move carries the step of the page it was chosen on"
    assert step.seat == seat and step.actions_left == left - 1
    assert dos[-1]["type"] == "pour" and dos[-1]["seat"] == seat
    assert errors == []
