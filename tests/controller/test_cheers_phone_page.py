"""Cheers on a phone: the seat's page shows the public fronts as the table does."""

from controller.games.cheers.phone import page_from_view
from models.cheers.scenario import G, L, M, arrange, cid, table
from models.cheers.view import view


def test_a_phone_page_shows_each_front_card_with_both_its_icons() -> None:
    state = arrange(table(), fronts={2: [cid(M, L), cid(G, M)]})
    page = page_from_view(view(state, 1), [])
    fronts = next(s for s in page["sections"] if s["title"] == "In front of each seat")
    seat_two = next(i for i in fronts["items"] if i["text"].startswith("Seat 2"))
    assert seat_two["sub"].startswith("Mint/lemon, Grenadine/mint ·")
