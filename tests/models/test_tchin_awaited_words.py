"""The words a card in play waits for, which the ear listens for harder (docs/speech.md)."""

from __future__ import annotations

from tchin_engine_helpers import FOUR, press, referee, say, tick


def test_no_word_is_awaited_between_cards():
    ref = referee(FOUR, ["D24"])
    assert ref.awaited_words() == frozenset()


def test_a_drink_card_awaits_its_drinkers_word_and_a_claim_narrows_to_the_claimant():
    ref = referee(FOUR, ["D24", "D05"])  # FR JP MX RU at stations 1-4
    press(ref, 0.5, 1)  # D24: a Russian drinking tequila in front of Big Ben
    assert ref.awaited_words() == frozenset({"na zdorovie"})
    press(ref, 1.0, 3)
    assert ref.awaited_words() == frozenset({"na zdorovie"})
    say(ref, 1.1, 1.5, "salud")  # a wrong word: a mistake, the card is open again
    assert ref.awaited_words() == frozenset({"na zdorovie"})


def test_my_round_awaits_the_revealers_word_and_the_end_awaits_nothing():
    ref = referee(FOUR, ["R1"])
    press(ref, 0.5, 1)  # the French revealer: everyone else must say Tchin Tchin
    assert ref.awaited_words() == frozenset({"tchin tchin"})
    tick(ref, 60.0)
    assert ref.awaited_words() == frozenset()


def test_middleman_awaits_both_duellists_words_then_the_claimants_alone():
    ref = referee(FOUR, ["M1"])
    press(ref, 0.5, 1)  # revealer 1 (FR): duellists 4 (RU) and 2 (JP) say each other's words
    assert ref.awaited_words() == frozenset({"kanpai", "na zdorovie"})
    press(ref, 1.0, 2)
    assert ref.awaited_words() == frozenset({"na zdorovie"})
