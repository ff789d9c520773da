"""Who is invited by each kind of card, and what each must perform (rules page)."""

from __future__ import annotations

from tchin_engine_helpers import FOUR, SIX, kinds, named, press, referee, say, tick, win_card


def test_drink_card_invites_players_sharing_an_element_seed_example():
    ref = referee(SIX, ["D24"])  # Russian, tequila, Big Ben
    ev = press(ref, 0.5, 1)
    assert named(ev, "reveal") == [{"event": "reveal", "card": "D24", "revealer": 1,
                                    "invited": [2, 5, 6], "word": "na zdorovie", "kind": "drink"}]


def test_drink_card_requires_drinkers_word_with_drinks_gesture():
    ref = referee(FOUR, ["D05"])  # French drinks beer at Red Square: FR and RU invited
    press(ref, 0.5, 1)
    ev = press(ref, 1.0, 4) + say(ref, 1.1, 1.6, "tchin tchin") + tick(ref, 5.0)
    assert named(ev, "win")[0]["combination"] == {"word": "tchin tchin", "drink": "beer",
                                                  "gesture": "hold a beer mug with an open hand"}


def test_tourist_is_invited_only_by_a_location_on_a_drink_card():
    chars = "DE EN FR JP MX RU TM TW"
    ref = referee(chars, ["D05", "D14"], first=1)  # D05 at Red Square (TW); D14 at Eiffel (TM)
    ev = press(ref, 0.5, 1)
    assert named(ev, "reveal")[0]["invited"] == [1, 3, 6, 8]  # beer, French, Red Square
    tick(ref, 30.0)  # nobody wins it
    ev = press(ref, 31.0, 1)
    assert named(ev, "reveal")[0]["invited"] == [3, 4, 6, 7]


def test_my_round_invites_everyone_but_revealer_with_revealers_combination():
    ref = referee(FOUR, ["R1"], first=3)  # the Mexican reveals
    ev = press(ref, 0.5, 3)
    r = named(ev, "reveal")[0]
    assert r["invited"] == [1, 2, 4] and r["word"] == "salud"
    ev = press(ref, 1.0, 2) + say(ref, 1.1, 1.5, "salud") + tick(ref, 5.0)
    assert named(ev, "win")[0]["combination"]["drink"] == "tequila"


def test_my_round_tourist_revealer_accepts_any_nation_of_its_locations():
    ref = referee("DE EN FR JP MX RU TM", ["R2"], first=7)
    r = named(press(ref, 0.5, 7), "reveal")[0]
    assert r["invited"] == [1, 2, 3, 4, 5, 6]
    assert r["word"] == ["cheers", "prost", "tchin tchin"]
    ev = press(ref, 1.0, 5) + say(ref, 1.1, 1.5, "prost") + tick(ref, 5.0)
    assert named(ev, "win")[0]["combination"]["drink"] == "beer"


def test_same_again_requires_the_combination_that_won_the_previous_card():
    ref = referee(FOUR, ["D24", "S1"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)  # the Mexican wins with na zdorovie + tequila
    r = named(press(ref, 6.0, 3), "reveal")[0]
    assert r["invited"] == [1, 2, 4] and r["word"] == "na zdorovie"
    ev = press(ref, 6.5, 1) + say(ref, 6.6, 7.0, "na zdorovie") + tick(ref, 11.0)
    assert named(ev, "win")[0]["combination"]["drink"] == "tequila"


def test_same_again_with_nothing_to_repeat_goes_to_the_bottom_of_the_deck():
    ref = referee(FOUR, ["S1", "D24", "D05"])
    ev = press(ref, 0.5, 1)
    assert kinds(ev) == ["reveal", "requeued", "reveal"]
    assert named(ev, "reveal")[1]["card"] == "D24"
    assert ref.deck == ["D05", "S1"]


def test_same_again_after_a_card_nobody_won_goes_to_the_bottom():
    ref = referee(FOUR, ["D24", "S2", "D05"])
    press(ref, 0.5, 1)
    tick(ref, 21.0)  # D24 unwon by timeout
    ev = press(ref, 22.0, 1)
    assert named(ev, "requeued") == [{"event": "requeued", "card": "S2",
                                      "reason": "nothing to repeat"}]
    assert ref.deck == ["S2"] and ref.card is not None and ref.card.id == "D05"


def test_same_again_as_the_last_card_with_nothing_to_repeat_is_discarded():
    ref = referee(FOUR, ["S1"])
    ev = press(ref, 0.5, 1)
    assert kinds(ev) == ["reveal", "discarded", "game_over"]
    assert ref.discarded == ["S1"]


def test_house_rule_nothing_left_to_repeat_discards_same_again_cards_that_can_never_be_played():
    ref = referee(FOUR, ["S1", "S2"])
    ev = press(ref, 0.5, 1)
    assert kinds(ev) == ["reveal", "discarded", "reveal", "discarded", "game_over"]


def test_middleman_is_a_duel_between_the_revealers_neighbours():
    ref = referee(FOUR, ["M1"], first=1)  # seats 1..4 clockwise: neighbours of 1 are 4 and 2
    r = named(press(ref, 0.5, 1), "reveal")[0]
    assert r["invited"] == [2, 4]
    # each performs the OTHER duellist's combination: 2 (JP) does the Russian's, 4 (RU) the Japanese's
    assert r["words"] == {"2": "na zdorovie", "4": "kanpai"}
    ev = press(ref, 1.0, 2) + say(ref, 1.1, 1.4, "kanpai") + tick(ref, 1.4)
    assert named(ev, "mistake") == [{"event": "mistake", "station": 2, "reason": "wrong word"}]
    ev = press(ref, 2.0, 4) + say(ref, 2.1, 2.4, "kanpai") + tick(ref, 6.0)
    assert named(ev, "win")[0]["station"] == 4


def test_middleman_neighbours_wrap_around_the_table():
    ref = referee(FOUR, ["M2"], first=4)
    assert named(press(ref, 0.5, 4), "reveal")[0]["invited"] == [1, 3]


def test_middleman_tourist_opponent_accepts_any_combination_of_its_locations():
    ref = referee("DE EN FR JP MX RU TM", ["M1"], first=1)  # neighbours 7 (TM) and 2 (EN)
    r = named(press(ref, 0.5, 1), "reveal")[0]
    assert r["invited"] == [2, 7]
    assert r["words"] == {"2": ["cheers", "prost", "tchin tchin"], "7": "cheers"}
    ev = press(ref, 1.0, 2) + say(ref, 1.1, 1.4, "tchin tchin") + tick(ref, 6.0)
    assert named(ev, "win")[0]["station"] == 2


def test_house_rule_nobody_invited_card_is_unwon_at_once():
    ref = referee("FR JP MX RU", ["W1", "D05"])  # a walking-man card in a scripted 4-player deck
    ev = press(ref, 0.5, 1)
    assert kinds(ev) == ["reveal", "unwon"]
    assert named(ev, "unwon")[0]["reason"] == "nobody invited"
