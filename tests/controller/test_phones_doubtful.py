"""Phones at a party, where the table and the host are doing something else: the join screen
still up, the host's game menu open, a phone repeating bad moves, the port taken one evening, a
phone that wakes after the game ended."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import aiohttp
from phone_helpers import Phone, hub_on, seated, serving, shell_with

from controller.app import Box
from controller.config import Config, Display, Phones, Sound, Speech
from controller.journal import Journal
from controller.phones.hub import PhoneHub
from controller.session import resume
from hardware.buttons import ButtonEvent


def run(coro):
    return asyncio.run(coro)


def press(shell, nav: str) -> None:
    """A press and release of a pad button, as the box's pad gives them."""
    t = shell.clock()
    shell.button(ButtonEvent(t, True, nav=nav))
    shell.button(ButtonEvent(t, False, nav=nav))


async def page_now(phone: Phone, hub: PhoneHub, seat: int) -> dict:
    want = hub.page(seat, hub.session)
    while want not in [m for m in phone.received if m.startswith('{"game"')][-1:]:
        m = await phone.next()
        assert m["type"] != "closed", "the socket closed"
    return json.loads(want)


async def tap(phone: Phone, page: dict, action: dict, ref: int) -> dict:
    await phone.send({"type": "do", "action": action, "step": page["step"], "ref": ref})
    while True:
        m = await phone.next()
        if m["type"] in ("done", "refused", "closed") and m.get("ref", ref) == ref:
            return m


def do_inputs(journal: Journal, game_id: int) -> list:
    return [i for i in journal.load(game_id).inputs if i.kind == "do"]


# -- the join screen that opens the game ---------------------------------------------------------
def test_goblets_phones_wait_for_the_hosts_play_on_the_join_screen(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = shell_with("goblets", journal)
    engine = shell.session.flow.engine

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            seat = engine.current_player
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(seat))
            waiting = await page_now(phone, hub, seat)
            move = engine.legal_actions(seat)[-1]
            from models.goblets import to_dict

            early = await phone.do(to_dict(move), ref=1)
            title = shell.scene().title
            press(shell, "ok")  # the host: Play
            server.refresh()
            table = await page_now(phone, hub, seat)
            done = await tap(phone, table, table["actions"][-1]["do"], 2)
            return waiting, early, title, table, done

    waiting, early, title, table, done = run(scenario())
    assert title == "Phones: scan your seat's code"
    assert waiting["actions"] == [] and not waiting["your_move"]
    assert waiting["status"] == "Waiting for the table: the host starts the game from the phone codes on the TV (OK: Play)"
    assert early == {"type": "refused", "reason": waiting["status"], "ref": 1}
    assert table["actions"] and table["your_move"]
    assert done["type"] == "done"
    assert len(do_inputs(journal, shell.session.game_id)) == 1, "only the move after Play reached the game"


def test_a_resumed_game_is_under_way_phones_move_under_the_join_screen(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = shell_with("goblets", journal)
    hub = hub_on(shell)
    hub.screen_nav("ok")
    engine = shell.session.flow.engine
    seat = engine.current_player
    assert hub.act(seat, json.loads(hub.page(seat, hub.session))["actions"][-1]["do"], hub.session) is None
    again = resumed_shell(tmp_path)
    hub2 = hub_on(again)
    assert hub2.screen_up, "the codes are on the TV for the phones to rejoin"
    assert hub2.waiting() is None, "a resumed game is under way"


def resumed_shell(tmp_path: Path):
    from controller.shell import Shell

    shell = Shell(Journal(tmp_path / "j.sqlite3"))
    assert shell.mode == "resume"
    shell.resume_game()
    assert shell.mode == "game"
    return shell


# -- the host's menus --------------------------------------------------------------------------
def test_a_phones_move_waits_while_the_host_has_the_cheers_game_menu_open(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = shell_with("cheers", journal)
    flow = shell.session.flow

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            press(shell, "ok")  # Play on the join screen
            seated(shell)
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            before = await page_now(phone, hub, 1)
            press(shell, "back")  # the host opens the game menu
            press(shell, "next")  # ... and goes to "Abandon this game"
            menu = flow.game_menu
            server.refresh()
            paused = await page_now(phone, hub, 1)
            late = await tap(phone, before, before["actions"][0]["do"], 1)
            fresh = await phone.do(before["actions"][0]["do"], ref=2)
            still = (flow.phase, flow.game_menu)
            press(shell, "prev")
            press(shell, "ok")  # Back to the table
            server.refresh()
            table = await page_now(phone, hub, 1)
            done = await tap(phone, table, table["actions"][0]["do"], 3)
            return menu, paused, late, fresh, still, done

    menu, paused, late, fresh, still, done = run(scenario())
    assert paused["actions"] == [] and paused["status"] == "Waiting for the table: the host has the game menu open on the TV"
    assert late["type"] == fresh["type"] == "refused" and fresh["reason"] == paused["status"]
    assert still == ("menu", menu), "the menu stays as the host left it"
    assert done["type"] == "done"
    assert len(do_inputs(journal, shell.session.game_id)) == 1


def test_a_phones_move_waits_while_the_host_asks_whether_to_leave_a_goblets_game():
    shell = shell_with("goblets")
    hub = hub_on(shell)
    press(shell, "ok")  # Play
    seat = shell.session.flow.engine.current_player
    move = json.loads(hub.page(seat, hub.session))["actions"][-1]["do"]
    press(shell, "back")  # Back on the table: "Leave this game?"
    assert shell.leaving is not None
    page = json.loads(hub.page(seat, hub.session))
    reason = hub.act(seat, move, hub.session)
    assert reason == page["status"] == "Waiting for the table: the host is asking on the TV whether to leave this game"
    assert page["actions"] == [] and shell.leaving is not None
    press(shell, "ok")  # the leave menu's first choice: stay
    assert shell.leaving is None and shell.mode == "game"
    assert hub.act(seat, move, hub.session) is None


# -- refused moves -----------------------------------------------------------------------------
def test_a_phone_repeating_a_bad_move_leaves_the_journal_and_the_game_as_they_were(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = shell_with("cheers", journal)
    state = shell.session.flow.state

    async def scenario():
        async with serving(shell, burst=10_000, messages_per_s=10_000.0) as (hub, server), \
                aiohttp.ClientSession() as http:
            press(shell, "ok")
            seated(shell)
            assert state.current_player == 1
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(2))
            page = await page_now(phone, hub, 2)
            card = state.hands[2][0]
            events = len(shell.session.events)
            rows = len(journal.load(shell.session.game_id).inputs)
            answers = []
            for ref in range(1, 101):  # out of turn, with and without the page's step
                msg = {"type": "play", "seat": 2, "card": card, "to": 1}
                answers.append(await (tap(phone, page, msg, ref) if ref % 2 else phone.do(msg, ref)))
            answers.append(await phone.do({"type": "play", "seat": 2, "card": "C99", "to": 1}, 200))
            return answers, events, rows, len(shell.session.events), \
                len(journal.load(shell.session.game_id).inputs)

    answers, events, rows, events_after, rows_after = run(scenario())
    assert all(a["type"] == "refused" for a in answers)
    assert "seat 1" in answers[0]["reason"], answers[0]  # the engine's own reason
    assert rows_after == rows, "no refused move was journaled"
    assert events_after == events, "the game said nothing: no 'illegal', no error sound"


def test_a_refused_move_in_the_journal_never_changes_the_resumed_game(tmp_path):
    """Journals written before refused moves were kept out hold them: a resume is unchanged."""
    journal = Journal(tmp_path / "j.sqlite3")
    shell = seated(shell_with("cheers", journal))
    state = shell.session.flow.state
    for _ in range(8):
        seat = state.current_player
        other = next(s for s in state.setup.seats if s != seat)
        # what a phone's move used to be: straight to the game, journaled, refused by the engine
        assert shell.do({"type": "play", "seat": other, "card": state.hands[other][0], "to": seat},
                        shell.clock()) is not None
        assert shell.do({"type": "discard_hand", "seat": seat}, shell.clock()) is None
    assert sum(1 for e in shell.session.events if e["event"] == "illegal") == 8
    live = [json.dumps(e, sort_keys=True) for e in shell.session.events]
    views = {s: repr(state.view(s)) for s in state.setup.seats}
    again = resume(Journal(tmp_path / "j.sqlite3"))
    assert [json.dumps(e, sort_keys=True) for e in again.events] == live
    assert {s: repr(again.flow.state.view(s)) for s in state.setup.seats} == views


# -- the port taken one evening ----------------------------------------------------------------
def _box(tmp_path: Path, port: int) -> Box:
    cfg = Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"),
                 speech=Speech(engine="off"), sound=Sound(enabled=False),
                 phones=Phones(enabled=False, host="127.0.0.1", port=port))
    return Box(cfg, simulate=True, mode="headless")


async def _evening(box: Box, then=None):
    task = asyncio.create_task(box.run())
    while box.phones._busy is None:
        await asyncio.sleep(0.01)
    await box.phones._busy
    if then is not None:
        then(box)
    box.request = "quit"
    await task


def _to_settings(shell) -> None:
    values = [c.value for c in shell.main.choices]
    for _ in range((values.index("settings") - shell.main.cursor) % len(values)):
        shell.nav("next")
    shell.nav("ok")
    assert shell.mode == "settings"


def _settings_and_back(box: Box) -> None:
    """The host opens Settings and goes back (the box saves the settings)."""
    _to_settings(box.shell)
    box.shell.nav("back")
    assert box.shell.mode == "main"


def test_a_port_in_use_one_evening_keeps_the_hosts_choice_of_phones_for_the_next(tmp_path):
    settings = tmp_path / "data" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"phones": True}))  # the host turned phones on in Settings
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        box = _box(tmp_path, port)
        run(_evening(box, _settings_and_back))
    assert box.shell.settings["phones"] is False, "off for this evening, as Settings shows"
    assert json.loads(settings.read_text())["phones"] is True, "the host's choice is kept"
    nxt = _box(tmp_path, port)  # the next evening, the port free again
    served = []
    run(_evening(nxt, lambda b: served.append(b.phones.server is not None)))
    assert served == [True]


def test_the_hosts_next_choice_of_phones_after_a_port_failure_is_saved_as_theirs(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        box = _box(tmp_path, taken.getsockname()[1])
        box.shell.settings["phones"] = True
        box.shell.chosen.add("phones")
        run(_evening(box))
    shell = box.shell
    assert shell.kept == {"phones": True}
    _to_settings(shell)
    for _ in range(list(shell.available_settings).index("phones")):
        shell.nav("next")
    shell.nav("ok")  # Phones as private screens: its choices
    shell.nav("prev")  # off
    shell.nav("ok")
    shell.nav("back")
    assert json.loads(shell.settings_path.read_text())["phones"] is False, "the host's own choice now"
    assert shell.kept == {}


# -- a phone that wakes after the game ended --------------------------------------------------
def test_a_phone_that_wakes_after_the_end_gets_its_seats_last_page():
    shell = seated(shell_with("cheers"))
    state = shell.session.flow.state

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            hub.screen_nav("ok")
            token = hub.keys.token(3)
            shell.session.flow._abandon()  # the table ends the game (as the game menu does)
            server.refresh()
            late = Phone(http, server.port)
            await late.join(token)
            return late.received, await late.next_of("bye"), await late.next()

    received, bye, closed = run(scenario())
    assert state.over
    page = json.loads(received[0])
    assert page["type"] == "page" and page["seat"] == 3 and page["over"]
    assert bye["reason"] == "the game is over: thanks for playing"
    assert closed == {"type": "closed", "code": 4003}
