"""The desktop simulator: keys are buzzers and the pad; T types a toast."""

from __future__ import annotations

import pygame

from hardware.simulator import Keyboard, SimLeds, TypedToast


def key(k: int, down: bool = True, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=k, unicode=unicode, mod=0)


def setup_module():
    pygame.display.init()


def test_keys_one_to_eight_are_the_buzzers():
    kb = Keyboard()
    [down] = kb.translate(key(pygame.K_3))
    [up] = kb.translate(key(pygame.K_3, down=False))
    assert (down.station, down.pressed, up.station, up.pressed) == (3, True, 3, False)
    assert up.t >= down.t
    assert kb.translate(key(pygame.K_9)) == []


def test_arrows_enter_and_backspace_are_the_pad():
    kb = Keyboard()
    keys = [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_RETURN, pygame.K_BACKSPACE]
    assert [kb.translate(key(k))[0].nav for k in keys] == ["prev", "next", "prev", "next", "ok", "back"]


def test_t_types_a_toast_sent_with_enter():
    kb = Keyboard()
    assert kb.translate(key(pygame.K_t, unicode="t")) == []
    for ch in "prosx":
        kb.translate(key(getattr(pygame, f"K_{ch}"), unicode=ch))
    kb.translate(key(pygame.K_BACKSPACE))
    kb.translate(key(pygame.K_t, unicode="t"))
    assert kb.typing == "prost"
    [typed] = kb.translate(key(pygame.K_RETURN))
    assert isinstance(typed, TypedToast) and typed.text == "prost"
    assert kb.typing is None
    assert kb.translate(key(pygame.K_1))[0].station == 1, "keys are buzzers again"


def test_lit_leds_are_drawn_in_their_station_colour():
    leds = SimLeds()
    band = pygame.Surface((800, 44))
    leds.set(2, "on")
    leds.set(9, "on")  # no such station: ignored
    leds.draw(band)
    r = 14
    lit = band.get_at((12 + r + 1 * (2 * r + 14) - r + 3, 22))[:3]
    dark = band.get_at((12 + r - r + 3, 22))[:3]
    assert lit != dark and dark == (50, 50, 60)


def test_a_key_one_to_eight_while_typing_says_the_toast_and_presses_that_buzzer_at_once():
    kb = Keyboard()
    kb.translate(key(pygame.K_t, unicode="t"))
    for ch in "salud":
        kb.translate(key(getattr(pygame, f"K_{ch}"), unicode=ch))
    said, press = kb.translate(key(pygame.K_4, unicode="4"))
    assert isinstance(said, TypedToast) and said.text == "salud"
    assert (press.station, press.pressed, press.t) == (4, True, said.t)
    assert kb.typing is None
    assert kb.translate(key(pygame.K_4, down=False))[0].pressed is False


def test_an_exclamation_mark_typed_with_shift_and_1_is_part_of_the_toast_not_buzzer_1():
    """Toasts are written "Salud!", "Kanpai!": Shift+1 types the "!", it does not send the toast
    and press buzzer 1; a 1 typed as a 1 still does."""
    kb = Keyboard()
    kb.translate(key(pygame.K_t, unicode="t"))
    for ch in "salud":
        kb.translate(key(getattr(pygame, f"K_{ch}"), unicode=ch))
    assert kb.translate(key(pygame.K_1, unicode="!")) == []
    assert kb.typing == "salud!"
    said, press = kb.translate(key(pygame.K_3, unicode="3"))
    assert said.text == "salud!" and press.station == 3


def test_the_keyboard_pushes_its_events_as_the_panel_does():
    pushed: list[object] = []
    toasts: list[TypedToast] = []
    kb = Keyboard(on_event=pushed.append, on_toast=toasts.append)
    kb.handle(key(pygame.K_2))
    kb.handle(key(pygame.K_RETURN))
    kb.handle(key(pygame.K_t, unicode="t"))
    for ch in "prost":
        kb.handle(key(getattr(pygame, f"K_{ch}"), unicode=ch))
    kb.handle(key(pygame.K_RETURN))
    assert [(e.station, e.nav, e.pressed) for e in pushed] == [(2, None, True), (None, "ok", True)]
    assert [t.text for t in toasts] == ["prost"]
