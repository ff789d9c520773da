"""The box's one debounce: a buzzer's bounce is judged once, by the game, from the journal."""

from __future__ import annotations

from controller.debounce import Debounce
from controller.flow import Input
from controller.games.cheers.demo import DEMO_HEADER
from controller.session import GameSession
from hardware.buttons import ButtonEvent, Panel


def test_a_press_within_bounce_s_of_the_last_edge_is_bounce():
    d = Debounce(0.02)
    assert d.press(1, 1.0) is False
    d.release(1, 1.005)
    assert d.press(1, 1.02) is True, "15 ms after the release: the contact bouncing"
    assert d.press(2, 1.02) is False, "each button has its own edges"
    assert d.press(1, 1.2) is False


def test_the_buzzer_pins_are_not_debounced_twice(mock_factory):
    events: list[ButtonEvent] = []
    panel = Panel({1: (17, 5)}, {"ok": 24}, events.append, bounce_s=0.02, pin_factory=mock_factory)
    try:
        assert panel.buzzers[1].pin.bounce is None, "a buzzer's edges all reach the journal"
        assert panel.pad["ok"].pin.bounce == 0.02, "the pad keeps its pins' debounce"
        for _ in range(2):
            mock_factory.pin(17).drive_low()
            mock_factory.pin(17).drive_high()
        assert [e.pressed for e in events] == [True, False, True, False]
    finally:
        panel.close()


def test_a_turn_based_game_ignores_a_bouncing_buzzer_as_the_journal_shows_it():
    session = GameSession(dict(DEMO_HEADER))
    session.feed(Input(1.0, "press", station=2))
    session.feed(Input(1.005, "release", station=2))
    session.feed(Input(1.01, "press", station=2))
    assert session.events[-1] == {"t": 1.01, "event": "ignored", "station": 2, "reason": "bounce"}
