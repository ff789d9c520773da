"""Whole games played from phones over real WebSockets, every move a tap on the seat's own page:
at every step each phone holds exactly its own seat's page, the table's page no secret; a phone
that drops mid-game rejoins with its own hand; the box plays its own seats; the TV shows no
private view; the end is told."""

from __future__ import annotations

import asyncio
import json
import random

import aiohttp
import pytest
from phone_helpers import Phone, seated, serving, shell_with

from controller.phones.pages import phone_game
from hardware.display.widgets import plain

PRIVATE = {"hand", "goal", "screen", "character", "winetaster", "taste", "peeks"}
GAMES = {
    "cheers": {"game": "cheers", "seed": 7, "players": 4},
    "cheers-masquerade-box": {"game": "cheers", "seed": 12, "players": 5, "bots": [5],
                              "options": {"masquerade": True}},
    "goblets": {"game": "goblets", "seed": 11, "players": 6, "options": {"characters": True}},
    "goblets-box": {"game": "goblets", "seed": 4, "players": 5, "bots": [2],
                    "options": {"characters": True, "variants": ["legacy"]}},
    "goblets-winetasters": {"game": "goblets", "seed": 3, "players": 8, "options": {"characters": True}},
}


def own_page(adapter, flow, seat):
    engine = adapter.engine(flow)
    return adapter.page(engine.view(seat), seat, list(engine.legal_actions(seat)))


def last_page(phone: Phone) -> dict | None:
    pages = [m for m in phone.received if m.startswith('{"game"')]
    return json.loads(pages[-1]) if pages else None


async def settle(phone: Phone, want: str) -> dict:
    while not phone.received or want not in [m for m in phone.received if m.startswith('{"game"')][-1:]:
        m = await phone.next()
        assert m["type"] != "closed", "a seat's socket closed mid-game"
    return json.loads(want)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_played_from_phones(name):
    header = GAMES[name]
    shell = seated(shell_with(header["game"], header=header))
    session = shell.session
    flow = session.flow
    adapter = phone_game(header["game"])
    engine = adapter.engine(flow)
    bots = set(getattr(flow, "bots", ()))
    rng = random.Random(name)

    async def scenario():
        async with serving(shell, burst=10_000, messages_per_s=10_000.0) as (hub, server), \
                aiohttp.ClientSession() as http:
            assert not set(hub.keys.seats) & bots and set(hub.keys.seats) | bots == set(adapter.seats(flow)) | bots
            phones = {s: Phone(http, server.port) for s in hub.keys.seats}
            for s, phone in phones.items():
                assert (await phone.join(hub.keys.token(s))) == {"type": "welcome", "seat": s}
            table = Phone(http, server.port)
            await table.join(None)
            hub.screen_nav("ok")  # Play
            server.refresh()  # the pages that follow the host's Play (their moves open)
            moves = dropped = 0
            while not session.finished:
                assert moves < 2000, "the game ends"
                seat = engine.current_player
                if seat in bots:  # the box thinks, then moves: its timer runs on game time
                    session.advance(session.clock.now() + 5.0)
                    server.refresh()
                    continue
                for s, phone in phones.items():
                    got = await settle(phone, hub.page(s, hub.session))
                    assert got["seat"] == s
                    assert {k: v for k, v in got.items() if k not in ("type", "step")} == own_page(adapter, flow, s)
                public = await settle(table, hub.page(None, hub.session))
                assert not any(sec.get("kind") in PRIVATE for sec in public["sections"]) and not public["actions"]
                page = last_page(phones[seat])
                assert page["your_move"] and page["actions"], page["status"]
                tv = shell.scene()  # every seat has its phone: the TV never shows a private view
                assert tv.private_for is None and "look away" not in plain(tv.footer + str(tv.widgets)).lower()
                if moves == 5:  # a phone drops (a sleeping phone) and rejoins with its code
                    victim = rng.choice([s for s in phones if s != seat])
                    await phones[victim].ws.close()
                    phones[victim] = Phone(http, server.port)
                    assert (await phones[victim].join(hub.keys.token(victim)))["seat"] == victim
                    back = await settle(phones[victim], hub.page(victim, hub.session))
                    assert {k: v for k, v in back.items() if k not in ("type", "step")} == \
                        own_page(adapter, flow, victim), "its own hand back, and only its own"
                    dropped += 1
                choice = rng.choice(page["actions"])
                await phones[seat].send({"type": "do", "action": choice["do"], "step": page["step"],
                                         "ref": moves})
                answer = await phones[seat].next_of("done")
                assert answer == {"type": "done", "ref": moves}, answer
                moves += 1
                server.refresh()
            server.refresh()
            ends = {}
            for s, phone in phones.items():
                bye = await phone.next_of("bye")
                ends[s] = (last_page(phone), bye["reason"])
            while len([p for p in server.phones if p.seat is not None]):
                await asyncio.sleep(0.01)
            return moves, dropped, ends, dict(hub.connected)

    moves, dropped, ends, connected = asyncio.run(scenario())
    assert session.finished and moves > 10 and dropped == 1
    for page, reason in ends.values():
        assert page["over"] and page["status"].startswith("Game over"), "the last page is the end"
        assert reason == "the game is over: thanks for playing"
    assert connected == {}
    kinds = [e["event"] for e in session.events]
    assert "illegal" not in kinds, "every tap was a legal move"
