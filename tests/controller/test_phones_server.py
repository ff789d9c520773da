"""The phone server over real WebSockets on loopback: joining, acting, refusing, ending."""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest
from phone_helpers import Phone, hub_on, seated, serving, shell_with

from controller import replay
from controller.flow import Input
from controller.journal import Journal
from models.cheers.view import view as cheers_view


def run(coro):
    return asyncio.run(coro)


async def pages_until(phone: Phone, pred) -> dict:
    while True:
        m = await phone.next()
        if m["type"] == "closed":
            raise AssertionError("the socket closed")
        if m["type"] == "page" and pred(m):
            return m


def test_a_seat_code_makes_a_phone_that_seats_private_screen_with_its_own_hand():
    shell = shell_with("cheers")
    state = shell.session.flow.state

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            welcome = await phone.join(hub.keys.token(2))
            page = await phone.next_of("page")
            return welcome, page, hub.connected.copy(), set(shell.phone_seats)

    welcome, page, connected, seats = run(scenario())
    assert welcome == {"type": "welcome", "seat": 2}
    hand = next(s for s in page["sections"] if s.get("kind") == "hand")
    assert [i["id"] for i in hand["items"]] == list(state.hands[2])
    goal = next(s for s in page["sections"] if s.get("kind") == "goal")
    own_goal = [g.label for g in cheers_view(state, 2).goal]
    shown = [i["text"].split(" ×") for i in goal["items"]]
    assert [label for label, *n in shown for _ in range(int(n[0]) if n else 1)] == own_goal
    assert page["seat"] == 2 and page["actions"] == [], "seat 1 plays first: seat 2 has no move yet"
    assert connected == {2: 1} and seats == {2}


def test_a_phones_move_is_journaled_as_a_do_line_and_replays_to_the_same_decisions(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = seated(shell_with("cheers", journal))

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            page = await phone.next_of("page")
            move = page["actions"][0]["do"]
            answer = await phone.do(move)
            after = await pages_until(phone, lambda p: not p["your_move"])
            return move, answer, after

    move, answer, after = run(scenario())
    assert answer["type"] == "done"
    assert after["status"] == "Seat 2's turn"
    saved = journal.load(shell.session.game_id)
    assert [i.kind for i in saved.inputs] == ["nav"] * 5 + ["do"] and saved.inputs[-1].action == move
    header, inputs = replay.load(journal.export(shell.session.game_id).splitlines())
    replayed: list[dict] = []
    replay.run(header, inputs, replayed.append)
    live = [e for e in shell.session.events]
    assert [json.dumps(e, sort_keys=True) for e in replayed[1:]] == \
        [json.dumps(e, sort_keys=True) for e in live]


def test_an_action_out_of_turn_is_refused_with_the_engines_reason_and_the_game_goes_on(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    shell = seated(shell_with("cheers", journal))
    state = shell.session.flow.state

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(3))
            card = state.hands[3][0]
            refused = await phone.do({"type": "play", "seat": 3, "card": card, "to": 3})
            other = await phone.do({"type": "play", "seat": 1, "card": state.hands[1][0], "to": 1}, ref=2)
            mover = Phone(http, server.port)
            await mover.join(hub.keys.token(1))
            page = await mover.next_of("page")
            done = await mover.do(page["actions"][0]["do"], ref=3)
            return refused, other, done, page["actions"][0]["do"]

    refused, other, done, page_move = run(scenario())
    assert refused["type"] == "refused" and "waits on seat 1" in refused["reason"]
    assert other == {"type": "refused", "ref": 2, "reason": "a phone acts only for its own seat (seat 3)"}
    assert done["type"] == "done" and state.turn_player == 2
    kinds = [e["event"] for e in shell.session.events]
    assert kinds.count("illegal") == 0, "the engine's check refused the out-of-turn move before it was played"
    dos = [i.action for i in journal.load(shell.session.game_id).inputs if i.kind == "do"]
    assert dos == [page_move], "only the move the game took was journaled"


def test_bad_messages_are_refused_with_a_reason_and_the_socket_and_the_game_go_on():
    shell = seated(shell_with("cheers"))

    async def scenario():
        async with serving(shell, max_message_bytes=256) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            answers = []
            for bad in ("{not json", "[1, 2]", json.dumps({"type": "launch"}),
                        json.dumps({"type": "do", "action": "play"}),
                        json.dumps({"type": "do", "action": {"type": "fly", "seat": 1}}),
                        json.dumps({"type": "do", "action": {"type": "play", "seat": 1, "card": "C99",
                                                             "to": 1}}),
                        json.dumps({"type": "ping", "pad": "x" * 400})):
                await phone.send(bad)
                answers.append(await phone.next_of("refused"))
            await phone.ws.send_bytes(b"\x00\x01")
            answers.append(await phone.next_of("refused"))
            page = await phone.next_of("page") if False else None
            move = shell.session.flow.state.legal_actions()[0].to_dict()
            done = await phone.do(move, ref=9)
            return answers, page, done, dict(server.refused)

    answers, _, done, refused = run(scenario())
    reasons = [a["reason"] for a in answers]
    assert reasons[0].startswith("not a JSON message")
    assert reasons[1] == "a message must be a JSON object"
    assert reasons[2].startswith("unknown message type 'launch'")
    assert reasons[3] == "an action must be an object with a 'type'"
    assert "unknown action type 'fly'" in reasons[4]
    assert "C99" in reasons[5]
    assert reasons[6].startswith("message too long (")
    assert reasons[7] == "send text (JSON) messages"
    assert done["type"] == "done", "after all that, a good move still plays"
    assert refused["size"] == 1 and refused["json"] == 2


def test_a_message_far_over_the_limit_closes_that_socket_only():
    shell = seated(shell_with("cheers"))

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            bully, other = Phone(http, server.port), Phone(http, server.port)
            await bully.join(hub.keys.token(2))
            await other.join(hub.keys.token(1))
            await bully.send("x" * 70_000)
            closed = await bully.next_of("closed")
            page = await other.next_of("page")
            done = await other.do(page["actions"][0]["do"])
            return closed, done

    closed, done = run(scenario())
    assert closed["code"] == 1009  # message too big
    assert done["type"] == "done"


def test_a_flood_is_refused_past_the_phones_budget_and_its_seat_plays_on_later():
    shell = seated(shell_with("cheers"))
    clock = [100.0]

    async def scenario():
        async with serving(shell, messages_per_s=2.0, burst=5, now=lambda: clock[0]) as (hub, server), \
                aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            answers = []
            for i in range(12):
                await phone.send({"type": "ping", "ref": i})
            for _ in range(12):
                m = await phone.next()
                while m["type"] == "page":
                    m = await phone.next()
                answers.append(m)
            clock[0] += 1.0  # two more messages' worth
            move = shell.session.flow.state.legal_actions()[0].to_dict()
            done = await phone.do(move, ref=99)
            return answers, done

    answers, done = run(scenario())
    assert [a["type"] for a in answers] == ["pong"] * 5 + ["refused"] * 7
    assert answers[-1]["reason"] == "too many messages: at most 2 a second"
    assert done["type"] == "done"


def test_an_unknown_code_is_refused_and_the_public_page_shows_the_table_but_cannot_play():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            stranger = Phone(http, server.port)
            bye = await stranger.join("x" * 32)
            closed = await stranger.next()
            public = Phone(http, server.port)
            welcome = await public.join(None)
            page = await public.next_of("page")
            move = shell.session.flow.state.legal_actions()[0].to_dict()
            refused = await public.do(move)
            return bye, closed, welcome, page, refused, hub.connected

    bye, closed, welcome, page, refused, connected = run(scenario())
    assert bye["type"] == "bye" and "unknown or has ended" in bye["reason"]
    assert closed == {"type": "closed", "code": 4001}
    assert welcome == {"type": "welcome", "seat": None}
    assert page["seat"] is None and page["actions"] == []
    assert not any(s.get("kind") in ("hand", "goal") for s in page["sections"])
    assert refused["reason"] == "the public table cannot play: scan your seat's code"
    assert connected == {}


def test_a_socket_from_another_origin_or_host_is_refused():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{server.port}"
            statuses = []
            for headers in ({"Origin": "http://evil.example"}, {}, {"Origin": "null"}):
                try:
                    await http.ws_connect(url + "/ws", headers=headers)
                    statuses.append(101)
                except aiohttp.WSServerHandshakeError as exc:
                    statuses.append(exc.status)
            rebound = await http.get(url + "/", headers={"Host": "evil.example:80"})
            try:
                await http.ws_connect(url + "/ws", headers={"Host": "evil.example", "Origin": "http://evil.example"})
                statuses.append(101)
            except aiohttp.WSServerHandshakeError as exc:
                statuses.append(exc.status)
            return statuses, rebound.status, dict(server.refused)

    statuses, rebound, refused = run(scenario())
    assert statuses == [403, 403, 403, 403]
    assert rebound == 421, "a name that is not the box's (DNS rebinding) gets no page"
    assert refused["origin"] == 4


def test_a_reissued_code_drops_the_old_phone_and_only_the_new_code_joins():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            old_token = hub.keys.token(2)
            old = Phone(http, server.port)
            await old.join(old_token)
            hub.open_screen()
            for button in ("next", "next", "ok"):  # the join screen: "New code for seat 2"
                hub.screen_nav(button)
            server.refresh()
            bye = await old.next_of("bye")
            again = Phone(http, server.port)
            refused = await again.join(old_token)
            new = Phone(http, server.port)
            welcome = await new.join(hub.keys.token(2))
            return bye, refused, welcome, old_token != hub.keys.token(2)

    bye, refused, welcome, changed = run(scenario())
    assert changed
    assert bye["reason"] == "the host gave this seat a new code"
    assert refused["type"] == "bye"
    assert welcome == {"type": "welcome", "seat": 2}


def test_seat_codes_end_with_the_game():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            token = hub.keys.token(1)
            phone = Phone(http, server.port)
            await phone.join(token)
            await phone.next_of("page")
            shell.to_main(abandon=True)
            server.refresh()
            bye = await phone.next_of("bye")
            late = Phone(http, server.port)
            refused = await late.join(token)
            shell.start_game({"game": "cheers", "seed": 8, "players": 4})
            server.refresh()
            still = Phone(http, server.port)
            refused_again = await still.join(token)
            return bye, refused, refused_again

    bye, refused, refused_again = run(scenario())
    assert bye["type"] == "bye"
    assert refused["type"] == "bye" and refused_again["type"] == "bye"


def test_no_seat_code_is_ever_written_to_the_log(caplog):
    shell = shell_with("goblets")
    caplog.set_level(logging.DEBUG)

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            tokens = [hub.keys.token(s) for s in hub.keys.seats]
            for token in tokens:
                phone = Phone(http, server.port)
                await phone.join(token)
                await phone.next_of("page")
                await phone.send({"type": "do", "action": {"type": "pass", "seat": 9}})
                await phone.next_of("refused")
            await Phone(http, server.port).join(tokens[0][::-1])
            hub.open_screen()
            hub.screen_nav("next")
            hub.screen_nav("ok")
            tokens.append(hub.keys.token(1))
            server.refresh()
            return tokens

    tokens = run(scenario())
    text = "\n".join(r.getMessage() for r in caplog.records) + caplog.text
    assert "seat 1 joined" in text, "the log does say what happened"
    for token in tokens:
        assert token not in text and token[::-1] not in text


def test_tchin_tchin_phones_only_show_the_buzzers_do_everything():
    shell = shell_with("tchin-tchin")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            phone = Phone(http, server.port)
            await phone.join(hub.keys.token(1))
            page = await phone.next_of("page")
            refused = await phone.do({"type": "claim", "seat": 1})
            return page, refused

    page, refused = run(scenario())
    character = next(s for s in page["sections"] if s.get("kind") == "character")
    assert [i["text"] for i in character["items"]][1:3] == ["Your gesture", "Your toast"]
    assert page["actions"] == [] and "never claims" in page["note"]
    assert refused["reason"] == "in this game the buzzers do everything: a phone only shows"


def test_the_page_is_small_self_contained_and_locked_to_its_own_origin():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            r = await http.get(f"http://127.0.0.1:{server.port}/")
            missing = await http.get(f"http://127.0.0.1:{server.port}/s/{hub.keys.token(1)}")
            return r.status, await r.read(), dict(r.headers), missing.status

    status, body, headers, missing = run(scenario())
    assert status == 200 and len(body) < 100_000
    html = body.decode()
    assert "src=" not in html and "href=" not in html and "@import" not in html and "url(" not in html
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "unsafe-inline" not in csp
    assert headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
    assert missing == 404


@pytest.mark.parametrize("make", [lambda n: "short", lambda n: "x" * 21])
def test_a_seat_code_with_fewer_than_128_bits_is_never_issued(make):
    from controller.phones.tokens import SeatKeys

    with pytest.raises(ValueError, match="128 random bits"):
        SeatKeys([1, 2], make=make)


def _scene_text(scene) -> str:
    return scene.footer + " " + " ".join(str(w) for w in scene.widgets)


@pytest.mark.parametrize("game", ["cheers", "goblets"])
def test_the_tv_skips_the_look_away_step_for_a_seat_with_a_phone(game):
    shell = shell_with(game)
    flow = shell.session.flow
    if game == "cheers":
        shell.session.flow.handle(Input(0.0, "nav", nav="ok"))  # seated: on to the goals
        seat = flow.reveal_queue[0]  # the goals' reveal waits on this seat
    else:
        seat = flow.engine.current_player
    before = _scene_text(shell.scene())
    assert "look away" in before.lower()
    shell.phone_seats.add(seat)
    with_phone = _scene_text(shell.scene())
    assert "look away" not in with_phone.lower() and "your phone" in with_phone
    assert shell.scene().private_for is None
    shell.phone_seats.discard(seat)
    assert _scene_text(shell.scene()) == before, "without the phone, the buzzer hand-off as before"


def test_holding_prev_in_a_game_brings_the_codes_back_and_the_pad_drives_them_not_the_game():
    from hardware.buttons import ButtonEvent

    shell = shell_with("cheers")
    hub = hub_on(shell)
    assert hub.screen_up, "a new game opens with the codes on the TV"
    assert shell.scene().title == "Phones: scan your seat's code"
    fed = shell.session.fed
    shell.button(ButtonEvent(1.0, True, nav="ok"))  # Play
    assert not hub.screen_up and shell.session.fed == fed, "the pad drove the join screen, not the game"
    shell.button(ButtonEvent(2.0, True, nav="prev"))
    shell.tick(2.0 + hub.hold_s / 2)
    assert not hub.screen_up
    shell.tick(2.0 + hub.hold_s)
    assert hub.screen_up, "held long enough: the codes are back"
    shell.button(ButtonEvent(4.5, False, nav="prev"))
    old = hub.keys.token(1)
    shell.button(ButtonEvent(5.0, True, nav="next"))
    shell.button(ButtonEvent(5.1, True, nav="ok"))  # New code for seat 1
    assert hub.keys.token(1) != old and hub.reissued == [1]
    assert shell.session.fed == fed + 1, "only the Prev press that opened it reached the game"


def test_the_box_own_players_get_no_code():

    shell = shell_with("goblets", header={"game": "goblets", "seed": 7, "players": 4, "bots": [2, 4]})
    hub = hub_on(shell)
    assert hub.keys.seats == (1, 3)


def test_a_phone_of_an_ended_game_is_dropped_even_when_someone_else_noticed_the_new_game_first():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            old = Phone(http, server.port)
            await old.join(hub.keys.token(1))
            await old.next_of("page")
            shell.to_main(abandon=True)
            shell.start_game({"game": "cheers", "seed": 9, "players": 4})
            hub.sync()  # as a newcomer's hello or a phone's action does, before the next frame
            newcomer = Phone(http, server.port)
            welcome = await newcomer.join(hub.keys.token(1))
            server.refresh()
            bye = await old.next_of("bye")
            refused = await old.next()
            return welcome, bye, refused, dict(hub.connected)

    welcome, bye, closed, connected = run(scenario())
    assert welcome["seat"] == 1
    assert bye["reason"] == "this seat code has ended with its game"
    assert closed["type"] == "closed" and connected == {1: 1}


def test_a_game_played_from_phones_resumes_from_the_journal_exactly(tmp_path):
    from controller.session import resume

    journal = Journal(tmp_path / "j.sqlite3")
    shell = shell_with("goblets", journal)
    hub = hub_on(shell)
    hub.screen_nav("ok")  # the host's Play: phones may move
    engine = shell.session.flow.engine
    for _ in range(6):
        seat = engine.current_player
        page = json.loads(hub.page(seat, hub.session))
        assert hub.act(seat, page["actions"][-1]["do"], hub.session) is None
    other = next(s for s in engine.state.seats if s != engine.current_player)
    refused = hub.act(other, {"type": "pass", "seat": other}, hub.session)  # out of turn: refused
    assert refused is not None and "move" in refused
    assert len([i for i in journal.load(shell.session.game_id).inputs if i.kind == "do"]) == 6, \
        "the refused move left no journal line"
    live_events = [json.dumps(e, sort_keys=True) for e in shell.session.events]
    live_view = {s: engine.view(s) for s in engine.state.seats}
    again = resume(Journal(tmp_path / "j.sqlite3"))
    assert [json.dumps(e, sort_keys=True) for e in again.events] == live_events
    assert {s: again.flow.engine.view(s) for s in engine.state.seats} == live_view


def test_one_address_cannot_take_every_socket():
    shell = shell_with("cheers")

    async def scenario():
        async with serving(shell, per_address=3, loopback_exempt=False) as (hub, server), \
                aiohttp.ClientSession() as http:
            phones = [Phone(http, server.port) for _ in range(3)]
            for phone in phones:
                await phone.join(None)
            try:
                await Phone(http, server.port).join(None)
                status = 101
            except aiohttp.WSServerHandshakeError as exc:
                status = exc.status
            await phones[0].ws.close()
            await asyncio.sleep(0)  # the server sees it go
            while len(server.phones) > 2:
                await asyncio.sleep(0.01)
            again = await Phone(http, server.port).join(None)
            return status, again, dict(server.refused)

    status, again, refused = run(scenario())
    assert status == 503 and refused["address"] == 1
    assert again["type"] == "welcome", "a socket that left makes room"
