"""What a party does to the phone server: a double tap, a move from an old page, two phones on
one seat, a phone before the table is seated, a seat the box plays, a message nested too deep,
the port already taken, many phones at once. Each is refused with its reason and the game goes on."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import aiohttp
import pytest
from phone_helpers import Phone, hub_on, seated, serving, shell_with

from controller.app import Box
from controller.config import Config, Display, Phones, Sound, Speech
from controller.flow import Input
from controller.journal import Journal
from controller.phones.hub import PhoneHub
from hardware.display.widgets import CHIP_CLOSE, CHIP_OPEN


def run(coro):
    return asyncio.run(coro)


async def page_now(phone: Phone, hub: PhoneHub, seat: int) -> dict:
    """The page the server would send the seat now, once the phone has it."""
    want = hub.page(seat, hub.session)
    while want not in [m for m in phone.received if m.startswith('{"game"')][-1:]:
        m = await phone.next()
        assert m["type"] != "closed", "the socket closed"
    return json.loads(want)


async def join_all(http: aiohttp.ClientSession, hub: PhoneHub, port: int) -> dict[int, Phone]:
    """A phone joined on every seat that has a code."""
    phones = {}
    for seat in hub.keys.seats:
        phones[seat] = Phone(http, port)
        await phones[seat].join(hub.keys.token(seat))
    return phones


async def do_on(phone: Phone, page: dict, action: dict, ref: int) -> dict:
    """A tap on the page: the move with the step of the page it was chosen on."""
    await phone.send({"type": "do", "action": action, "step": page["step"], "ref": ref})
    while True:
        m = await phone.next()
        if m["type"] in ("done", "refused", "closed") and m.get("ref", ref) == ref:
            return m


def test_cheers_gives_no_code_to_a_seat_the_box_plays():
    shell = shell_with("cheers", header={"game": "cheers", "seed": 7, "players": 4, "bots": [2, 4]})
    hub = hub_on(shell)
    bots = shell.session.flow.bots
    assert bots and not set(hub.keys.seats) & bots, "nobody can read or play the box's own hand"
    assert set(hub.keys.seats) | bots == set(shell.session.flow.setup.seats)


def test_a_move_tapped_twice_plays_once(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = shell_with("goblets", journal)
    engine = shell.session.flow.engine

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            hub.screen_nav("ok")  # the host's Play: phones may move
            server.refresh()
            phones = await join_all(http, hub, server.port)
            for ref in range(1, 40):  # on to a turn with two actions or more
                seat = engine.current_player
                page = await page_now(phones[seat], hub, seat)
                if engine.state.step.actions_left >= 2 and any(a["do"]["type"] == "pour" for a in page["actions"]):
                    break
                assert (await do_on(phones[seat], page, page["actions"][-1]["do"], ref))["type"] == "done"
            pour = next(a["do"] for a in page["actions"] if a["do"]["type"] == "pour")
            left = engine.state.step.actions_left
            first = await do_on(phones[seat], page, pour, 100)
            second = await do_on(phones[seat], page, pour, 101)  # the same tap again, from the same page
            return seat, left, engine.state.step, first, second, page["step"]

    seat, left, step, first, second, at = run(scenario())
    assert first["type"] == "done"
    assert second["type"] == "refused" and second["reason"].startswith(f"too late: that move was on your page "
                                                                       f"of step {at}")
    assert step.seat == seat and step.actions_left == left - 1, "one action spent, not two"
    dos = [i for i in journal.load(shell.session.game_id).inputs if i.kind == "do"]
    assert dos[-1].action["type"] == "pour" and dos[-2].action["type"] != "pour", "the second tap never reached the game"


def test_a_move_from_an_old_page_is_refused_even_when_it_would_be_legal_again():
    shell = seated(shell_with("cheers"))
    state = shell.session.flow.state

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phones = await join_all(http, hub, server.port)
            old = await page_now(phones[1], hub, 1)
            discard = next(a["do"] for a in old["actions"] if a["do"]["type"] == "discard_hand")
            for ref, seat in enumerate((1, 2, 3, 4), start=1):  # a whole round: seat 1's turn again
                page = await page_now(phones[seat], hub, seat)
                play = next(a["do"] for a in page["actions"] if a["do"]["type"] == "play")
                assert (await do_on(phones[seat], page, play, ref))["type"] == "done"
            assert state.current_player == 1
            late = await do_on(phones[1], old, discard, 10)  # a message that came a round late
            bad = await phones[1].send({"type": "do", "action": discard, "step": "now", "ref": 11})
            bad = await phones[1].next_of("refused")
            now = await page_now(phones[1], hub, 1)
            fresh = await do_on(phones[1], now, discard, 12)
            return old["step"], late, bad, now["step"], fresh

    was, late, bad, now, fresh = run(scenario())
    assert late["type"] == "refused"
    assert late["reason"] == (f"too late: that move was on your page of step {was}, and the game has moved on "
                              f"(step {now}): choose again on your page")
    assert bad["reason"] == "'step' must be the step number of the page the move was chosen on, got 'now'"
    assert fresh["type"] == "done"


def test_cheers_phones_wait_while_the_tv_seats_the_table_and_shows_the_goals():
    shell = shell_with("cheers")
    flow = shell.session.flow

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            page = await page_now(phone, hub, 1)
            move = flow.state.legal_actions()[0].to_dict()
            refused = await do_on(phone, page, move, 1)
            unstamped = await phone.do(move, ref=2)
            fed = shell.session.fed
            shell.session.feed(Input(0.0, "nav", nav="ok"), settle=True)  # the host: on from the seating
            server.refresh()
            revealing = await page_now(phone, hub, 1)
            during = await do_on(phone, revealing, move, 3)
            shown = []
            while flow.phase == "reveal":  # each seat's goal: seat 1 (a phone) and the others' buzzers
                shown.append(flow.reveal_queue[0])
                shell.session.feed(Input(0.0, "nav", nav="next"), settle=True)
            server.refresh()
            table = await page_now(phone, hub, 1)
            done = await do_on(phone, table, table["actions"][0]["do"], 4)
            return page, refused, unstamped, fed, revealing, during, shown, table, done

    page, refused, unstamped, fed, revealing, during, shown, table, done = run(scenario())
    assert page["actions"] == [] and not page["your_move"]
    assert page["status"] == "Waiting for the table: the host goes on from the seating on the TV (OK)"
    assert refused["reason"] == unstamped["reason"] == page["status"]
    assert fed == 0, "a move refused before the table is seated is no game input: nothing journaled"
    assert revealing["actions"] == [] and "the goals are being shown, seat 1's now" in revealing["status"]
    assert during["type"] == "refused" and during["reason"] == revealing["status"]
    assert shown == [1, 2, 3, 4], "no seat's goal was skipped"
    assert table["your_move"] and table["status"] == "Your turn" and table["actions"]
    assert done["type"] == "done"


def test_a_second_phone_on_a_seat_takes_it_over_and_the_first_is_told_why():
    shell = seated(shell_with("cheers"))

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            first, second = Phone(http, server.port), Phone(http, server.port)
            await first.join(hub.keys.token(1))
            await page_now(first, hub, 1)
            welcome = await second.join(hub.keys.token(1))
            bye = await asyncio.wait_for(first.next_of("bye"), 30)  # the earlier phone is told at once
            closed = await first.next()
            page = await page_now(second, hub, 1)
            done = await do_on(second, page, page["actions"][0]["do"], 1)
            while len(server.phones) > 1:
                await asyncio.sleep(0.01)
            return welcome, bye, closed, done, dict(hub.connected), set(shell.phone_seats)

    welcome, bye, closed, done, connected, seats = run(scenario())
    assert welcome == {"type": "welcome", "seat": 1}
    assert bye["reason"].startswith("another phone joined seat 1 with its code")
    assert "ask the host for a new code" in bye["reason"]
    assert closed == {"type": "closed", "code": 4002}
    assert done["type"] == "done"
    assert connected == {1: 1} and seats == {1}


def test_a_new_code_drops_the_old_phone_but_not_the_one_that_joined_with_it():
    shell = seated(shell_with("cheers"))

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            old = Phone(http, server.port)
            await old.join(hub.keys.token(2))
            await page_now(old, hub, 2)
            hub.open_screen()
            for button in ("next", "next", "ok"):  # New code for seat 2
                hub.screen_nav(button)
            new = Phone(http, server.port)
            welcome = await new.join(hub.keys.token(2))  # before the box's next frame
            server.refresh()
            bye = await old.next_of("bye")
            await asyncio.sleep(0.2)
            page = await page_now(new, hub, 2)
            return welcome, bye, page, [p.seat for p in server.phones]

    welcome, bye, page, left = run(scenario())
    assert welcome["seat"] == 2 and page["seat"] == 2
    assert bye["reason"] == "the host gave this seat a new code"
    assert left == [2], "the phone with the new code stays"


def test_a_message_nested_too_deep_is_refused_and_the_socket_goes_on():
    shell = seated(shell_with("cheers"))
    deep = "[" * 1000 + "]" * 1000  # under the size limit, over Python's parser's depth

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            await phone.send(deep)
            refused = await phone.next_of("refused")
            await phone.send({"type": "ping", "ref": 5})
            pong = await phone.next_of("pong")
            stranger = Phone(http, server.port)
            stranger.ws = await http.ws_connect(f"http://127.0.0.1:{server.port}/ws",
                                                origin=f"http://127.0.0.1:{server.port}")
            await stranger.send(deep)
            bye = await stranger.next_of("bye")
            closed = await stranger.next()
            return refused, pong, bye, closed

    refused, pong, bye, closed = run(scenario())
    assert refused["reason"] == "not a JSON message (nested too deeply)"
    assert pong == {"type": "pong", "ref": 5}
    assert bye["reason"] == "the first message must be {\"type\": \"hello\"}"
    assert closed == {"type": "closed", "code": 4000}


def test_a_request_naming_the_box_by_its_ipv6_address_without_a_port_is_served():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{server.port}/"
            plain = await http.get(url, headers={"Host": "[::1]"})
            ported = await http.get(url, headers={"Host": f"[::1]:{server.port}"})
            rebound = await http.get(url, headers={"Host": "[evil.example]"})
            return plain.status, ported.status, rebound.status

    assert run(scenario()) == (200, 200, 421)


def test_goblets_pages_name_seats_in_words_not_in_the_tvs_chips():
    shell = shell_with("goblets")
    hub = hub_on(shell)
    hub.screen_nav("ok")  # the host's Play: phones may move
    engine = shell.session.flow.engine
    texts = []
    for _ in range(12):
        for seat in hub.keys.seats:
            texts.append(hub.page(seat, hub.session))
        seat = engine.current_player
        page = json.loads(hub.page(seat, hub.session))
        assert hub.act(seat, page["actions"][-1]["do"], hub.session, page["step"]) is None
    joined = "".join(texts)
    assert CHIP_OPEN not in joined and CHIP_CLOSE not in joined
    assert "Seat " in joined and "'s turn" in joined


def mover_of(pages: dict) -> int:
    return next(s for s, p in pages.items() if p["your_move"])


def _box(tmp_path: Path, port: int) -> Box:
    cfg = Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"),
                 speech=Speech(engine="off"), sound=Sound(enabled=False),
                 phones=Phones(enabled=True, host="127.0.0.1", port=port))
    return Box(cfg, simulate=True, mode="headless")


def test_a_port_already_in_use_is_named_and_the_box_plays_on_without_phones(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        box = _box(tmp_path, port)

        async def scenario():
            task = asyncio.create_task(box.run())
            while box.phones._busy is None:
                await asyncio.sleep(0.01)
            await box.phones._busy
            box.shell.start_game({"game": "cheers", "seed": 7, "players": 4})
            await asyncio.sleep(0.05)
            title = box.shell.scene().title
            box.request = "quit"
            await task
            return title

        title = run(scenario())
    notice = next(n for n in box.shell.notices if n.startswith("Phones"))
    assert notice == (f"Phones: port {port} is already in use by another program; phones are off "
                      "(choose another [phones] port in the config)")
    assert box.phones.server is None and box.shell.phones is None and box.shell.settings["phones"] is False
    assert title.startswith("Cheers"), "the game starts and plays on the buzzers"


def test_a_server_that_cannot_listen_leaves_nothing_open():
    from controller.phones.server import PhoneServer

    shell = shell_with("cheers")

    async def scenario():
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            server = PhoneServer(PhoneHub(shell, address="127.0.0.1", port=0), host="127.0.0.1",
                                 port=taken.getsockname()[1])
            with pytest.raises(OSError):
                await server.start()
            return server.running

    assert run(scenario()) is False


def test_many_phones_at_once_each_get_their_own_page_and_the_next_is_told_the_box_is_full():
    from controller.phones.server import MAX_SOCKETS

    shell = shell_with("goblets", header={"game": "goblets", "seed": 5, "players": 12,
                                          "options": {"characters": True}})
    engine = shell.session.flow.engine

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            hub.screen_nav("ok")  # the host's Play: phones may move
            server.refresh()
            seats = {s: Phone(http, server.port) for s in hub.keys.seats}
            tables = [Phone(http, server.port) for _ in range(MAX_SOCKETS - len(seats))]
            welcomes = await asyncio.gather(*(p.join(hub.keys.token(s)) for s, p in seats.items()),
                                            *(p.join(None) for p in tables))
            try:
                await Phone(http, server.port).join(None)
                full = (101, "")
            except aiohttp.WSServerHandshakeError as exc:
                full = (exc.status, exc.message)
            pages = {s: await page_now(p, hub, s) for s, p in seats.items()}
            mover = engine.current_player
            done = await do_on(seats[mover], pages[mover], pages[mover]["actions"][-1]["do"], 1)
            after = {s: await page_now(p, hub, s) for s, p in seats.items()}
            return welcomes, full, pages, done, after

    welcomes, full, pages, done, after = run(scenario())
    assert [w["type"] for w in welcomes] == ["welcome"] * MAX_SOCKETS
    assert full[0] == 503
    assert all(p["seat"] == s for s, p in pages.items())
    assert done["type"] == "done" and after[mover_of(pages)]["step"] > pages[mover_of(pages)]["step"]
