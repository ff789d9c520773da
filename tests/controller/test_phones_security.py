"""Every seat's code against every other seat, for all three games: what each phone received,
over real WebSockets, holds no secret of another seat; a code acts for its own seat only."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from phone_helpers import HEADERS, Phone, seated, serving, shell_with

from controller.phones.pages import phone_game
from models.goblets import to_dict as goblets_to_dict

#: sections that only their own seat may see
PRIVATE = {"hand", "goal", "screen", "character", "winetaster", "taste", "peeks"}
GAMES = {
    "cheers": HEADERS["cheers"],
    "goblets": {"game": "goblets", "seed": 11, "players": 6, "options": {"characters": True}},
    "tchin-tchin": HEADERS["tchin-tchin"],
}


def page_of(adapter, flow, seat):
    """What the seat's page must be: built from the engine's view for that seat and its moves."""
    engine = adapter.engine(flow)
    actions = list(engine.legal_actions(seat)) if seat is not None and adapter.acts else []
    return adapter.page(engine.view(seat), seat, actions)


def pages(frames: list[str]) -> list[dict]:
    return [m for m in map(json.loads, frames) if m.get("type") == "page"]


def private_sections(page: dict) -> list[str]:
    return [json.dumps(s, sort_keys=True) for s in page["sections"] if s.get("kind") in PRIVATE]


def hand_ids(shell, seat):
    flow = shell.session.flow
    return list(flow.state.hands[seat]) if hasattr(flow, "state") and hasattr(flow.state, "hands") else []


async def settle(phones: dict) -> None:
    """Until every phone has the page the server would send it now."""
    for seat, phone in phones.items():
        want = phone.hub.page(seat, phone.hub.session)
        while not phone.received or phone.received[-1] != want:
            m = await phone.next()
            if m["type"] == "closed":
                raise AssertionError(f"seat {seat}'s socket closed")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_phone_ever_receives_another_seats_secret(game):
    shell = seated(shell_with(game, header=GAMES[game]))
    adapter = phone_game(game)
    flow = shell.session.flow

    async def scenario():
        checked = 0
        async with serving(shell, burst=1000) as (hub, server), aiohttp.ClientSession() as http:
            hub.screen_nav("ok")  # the host's Play: phones may move
            server.refresh()
            seats = hub.keys.seats
            phones = {}
            for seat in (*seats, None):
                phone = Phone(http, server.port)
                phone.hub = hub
                await phone.join(hub.keys.token(seat) if seat else None)
                phones[seat] = phone
            legit: dict = {s: set() for s in seats}  # what each seat's own view showed it so far
            for step in range(8):
                await settle(phones)
                now = {s: page_of(adapter, flow, s) for s in seats}
                for s in seats:
                    legit[s] |= set(private_sections(now[s]))
                for a in (*seats, None):
                    got = pages(phones[a].received)
                    assert all(p["seat"] == a for p in got), "a phone only ever gets its own seat's page"
                    assert got[-1] == json.loads(hub.page(a, hub.session)), "the page of its own seat's view"
                    if a is not None:
                        assert {k: v for k, v in got[-1].items() if k not in ("type", "note", "step")} == now[a]
                    for b in seats:
                        if b == a:
                            continue
                        # a section of b's that a's own view also showed (two equal screens) is no leak
                        theirs = set(private_sections(now[b])) - (legit[a] if a is not None else set())
                        mine = {s for p in got for s in private_sections(p)}
                        assert not theirs & mine, f"seat {b}'s secret reached {'seat ' + str(a) if a else 'the table'}"
                        for card in hand_ids(shell, b):
                            assert all(card not in frame for frame in phones[a].received)
                        checked += 1
                table = pages(phones[None].received)
                assert table and not any(private_sections(p) for p in table), "the public page has no secret"
                mover = getattr(shell.session.flow, "engine", None)
                legal = []
                if hasattr(flow, "state") and hasattr(flow.state, "legal_actions"):
                    legal = flow.state.legal_actions()
                elif mover is not None:
                    legal = mover.legal_actions()
                if not legal:
                    break
                move = legal[(step * 7) % len(legal)]
                owner = move.seat
                raw = move.to_dict() if hasattr(move, "to_dict") else goblets_to_dict(move)
                for other in seats:  # every other seat's code tries to play the owner's move
                    if other != owner:
                        answer = await phones[other].do(raw, ref=100 + other)
                        assert answer["type"] == "refused"
                        assert answer["reason"] == f"a phone acts only for its own seat (seat {other})"
                answer = await phones[owner].do(raw, ref=owner)
                assert answer["type"] == "done", answer
            return checked

    assert asyncio.run(scenario()) > 0


def test_tchin_tchin_pages_show_only_what_the_table_sees():
    shell = shell_with("tchin-tchin")
    adapter = phone_game("tchin-tchin")
    flow = shell.session.flow
    public = page_of(adapter, flow, None)
    public_text = json.dumps(public)
    for seat in adapter.seats(flow):
        page = page_of(adapter, flow, seat)
        assert page["actions"] == []
        # the character is public in Tchin Tchin (it is on the table for all to see)
        assert flow.referee.characters[seat] and str(seat) in public_text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_http_page_is_the_same_for_everyone_and_holds_no_code(game):
    shell = shell_with(game, header=GAMES[game])

    async def scenario():
        async with serving(shell) as (hub, server), aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{server.port}/"
            plain = await (await http.get(url)).read()
            bodies = [await (await http.get(url, params={"t": hub.keys.token(s)})).read() for s in hub.keys.seats]
            return plain, bodies, [hub.keys.token(s) for s in hub.keys.seats]

    plain, bodies, tokens = asyncio.run(scenario())
    assert all(b == plain for b in bodies)
    assert not any(t.encode() in plain for t in tokens)
