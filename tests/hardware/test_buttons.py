"""Buzzers, LEDs and the pad on gpiozero's MockFactory."""

from __future__ import annotations

import time

from hardware.buttons import ButtonEvent, Panel, edge_time

STATIONS = {1: (4, 17), 2: (27, 22), 3: (23, 24)}
PAD = {"prev": 14, "next": 15, "ok": 9, "back": 10}


# only against a hang: the waits below end when their condition holds, however slow the CPU
HANG_GUARD_S = 600.0


def wait_until(cond) -> bool:
    end = time.monotonic() + HANG_GUARD_S
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def make_panel(factory, events, **kw):
    return Panel(STATIONS, PAD, events.append, pin_factory=factory, **kw)


def test_press_and_release_carry_the_edge_time(mock_factory):
    events: list[ButtonEvent] = []
    panel = make_panel(mock_factory, events, bounce_s=0)
    before = time.monotonic()
    mock_factory.pin(27).drive_low()
    mid = time.monotonic()
    mock_factory.pin(27).drive_high()
    after = time.monotonic()
    assert [(e.station, e.pressed) for e in events] == [(2, True), (2, False)]
    # exact on any CPU: each stamp lies between the edge and the callback's return
    assert before <= events[0].t <= mid <= events[1].t <= after
    panel.close()


def test_edge_time_is_the_tick_not_the_callback_time(mock_factory):
    tick = mock_factory.ticks() - 0.02  # an edge 20 ms ago: the callback runs late...
    before = time.monotonic()
    t = edge_time(mock_factory, tick)
    after = time.monotonic()
    # ...but the event keeps the edge's own time, give or take the time the call took
    assert tick <= t <= tick + (after - before)
    assert t <= before - 0.02 + (after - before)


def test_pad_buttons_report_their_name(mock_factory):
    events: list[ButtonEvent] = []
    panel = make_panel(mock_factory, events, bounce_s=0)
    for pin in (14, 15, 9, 10):
        mock_factory.pin(pin).drive_low()
        mock_factory.pin(pin).drive_high()
    assert [e.nav for e in events if e.pressed] == ["prev", "next", "ok", "back"]
    assert all(e.station is None for e in events)
    panel.close()


def test_a_buzzer_held_down_at_start_is_reported_and_disabled(mock_factory):
    events: list[ButtonEvent] = []
    panel = make_panel(mock_factory, events, bounce_s=0)
    mock_factory.pin(23).drive_low()  # station 3 held down while the box starts
    events.clear()
    assert panel.check_stuck() == [3] and 3 in panel.disabled
    mock_factory.pin(23).drive_high()
    mock_factory.pin(23).drive_low()
    mock_factory.pin(4).drive_low()
    assert [e.station for e in events if e.pressed] == [1], "the others still work"
    panel.close()


def test_a_buzzer_stuck_down_for_thirty_seconds_is_disabled_until_released(mock_factory):
    events: list[ButtonEvent] = []
    panel = make_panel(mock_factory, events, bounce_s=0)
    mock_factory.pin(27).drive_low()
    t0 = events[-1].t
    assert panel.watch(t0 + 29.0, 30.0) == ([], [])
    assert panel.watch(t0 + 30.0, 30.0) == ([2], [])
    assert 2 in panel.disabled and mock_factory.pin(22).state is False
    mock_factory.pin(27).drive_high()
    assert panel.watch(t0 + 31.0, 30.0) == ([], [2])
    assert 2 not in panel.disabled
    panel.close()


def test_presses_one_millisecond_apart_keep_their_order(mock_factory):
    events: list[ButtonEvent] = []
    panel = make_panel(mock_factory, events, bounce_s=0)
    mock_factory.pin(4).drive_low()
    time.sleep(0.001)
    mock_factory.pin(27).drive_low()
    first, second = [e for e in events if e.pressed]
    assert (first.station, second.station) == (1, 2)
    # exact on any CPU: the first stamp is at most its callback's return, the second at least
    # its edge, and the sleep (at least 1 ms) lies between the two
    assert second.t - first.t >= 0.001
    panel.close()


def test_leds_follow_the_flow(mock_factory):
    panel = make_panel(mock_factory, [])
    panel.set(1, "on")
    panel.set(2, "off")
    assert mock_factory.pin(17).state is True and mock_factory.pin(22).state is False
    panel.set(3, "blink")
    # gpiozero's blink thread switches the pin: wait for it to go on and off (however slowly)
    assert wait_until(lambda: {True, False} <= {c.state for c in mock_factory.pin(24).states}), \
        "a blinking LED goes on and off"
    panel.disable(1)
    assert mock_factory.pin(17).state is False
    panel.close()


def test_an_unknown_led_state_is_an_error(mock_factory):
    panel = make_panel(mock_factory, [])
    try:
        panel.set(1, "dim")
    except ValueError as exc:
        assert "dim" in str(exc)
    else:
        raise AssertionError("an unknown LED state must be refused")
    finally:
        panel.close()



def test_a_flash_blinks_the_led_then_it_shows_its_steady_state_again(mock_factory):
    from hardware.buttons import Panel

    panel = Panel({1: (4, 17)}, {}, lambda ev: None, pin_factory=mock_factory)
    led = panel.leds[1]
    panel.set(1, "flash")
    assert led._blink_thread is not None, "flashing"
    panel.set(1, "on")  # the flow's steady state arrives during the flash: kept for after it
    assert led._blink_thread is not None, "still flashing"
    panel._flash_over(1)
    assert led._blink_thread is None and led.is_lit, "steady on again"
    panel.close()


def test_a_flash_during_a_flash_is_not_cut_short_by_the_first_ones_timer(mock_factory):
    from hardware.buttons import Panel

    panel = Panel({1: (4, 17)}, {}, lambda ev: None, pin_factory=mock_factory)
    led = panel.leds[1]
    panel.set(1, "flash")
    first = panel._flash_timers[1]
    panel.set(1, "flash")
    second = panel._flash_timers[1]
    assert second is not first and first.finished.is_set(), "the first timer is cancelled"
    panel._flash_over(1, first)  # had it fired anyway, it ends nothing
    assert led._blink_thread is not None, "the second flash still runs"
    panel._flash_over(1, second)
    assert led._blink_thread is None and not led.is_lit, "steady off again"
    panel.close()


def test_a_flash_still_running_when_the_panel_closes_touches_no_closed_led(mock_factory):
    from hardware.buttons import Panel

    panel = Panel({1: (4, 17)}, {}, lambda ev: None, pin_factory=mock_factory)
    panel.set(1, "flash")
    timer = panel._flash_timers[1]
    panel.close()
    assert timer.finished.is_set(), "its timer is cancelled"
    panel._flash_over(1, timer)  # a timer that fired just as the panel closed
    panel.set(1, "on")  # and a late LED change from the flow
    assert panel.leds[1].closed
