"""The join screen on the TV: a QR code per seat in its colour, the Wi-Fi's code, drawn for real."""

from __future__ import annotations

from phone_helpers import shell_with

from controller.phones.hub import PhoneHub
from controller.phones.qr import join_link, matrix, wifi_code
from hardware.display.render import Renderer
from hardware.display.widgets import Grid, QrCode, Row, Text, seat_colour


def widgets(scene):
    out = []

    def walk(w):
        out.append(w)
        for child in getattr(w, "cells", ()):
            walk(child)

    for w in scene.widgets:
        walk(w)
    return out


def test_each_seat_has_its_code_in_its_colour_and_a_joined_seat_shows_no_code():
    shell = shell_with("goblets")
    wifi = wifi_code("clinkbox", "salud-2026")
    hub = PhoneHub(shell, address="10.42.0.1", port=8080, wifi=wifi)
    shell.phones = hub
    hub.sync()
    hub.joined(2)
    scene = shell.scene()
    codes = {w.caption: w for w in widgets(scene) if isinstance(w, QrCode)}
    assert set(codes) == {"Seat 1", "Seat 3", "Seat 4", "Wi-Fi"}
    for seat in (1, 3, 4):
        code = codes[f"Seat {seat}"]
        assert code.modules == matrix(join_link("10.42.0.1", 8080, hub.keys.token(seat)))
        assert code.colour == seat_colour(seat)
    assert codes["Wi-Fi"].modules == matrix(wifi)
    assert any(isinstance(w, Text) and w.text == "Seat 2\nphone joined" for w in widgets(scene))
    assert any(isinstance(w, (Grid, Row)) for w in scene.widgets)


def test_the_join_screen_is_drawn_with_dark_modules_on_white(tmp_path):
    shell = shell_with("cheers")
    hub = PhoneHub(shell, address="10.42.0.1", port=8080)
    shell.phones = hub
    hub.sync()
    renderer = Renderer((1280, 720), "headless")
    surface = renderer.draw(shell.scene())
    renderer.save_png(tmp_path / "join.png")
    w, h = surface.get_size()
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, w, 3) for y in range(0, h, 3)}
    assert (0, 0, 0) in colours and (255, 255, 255) in colours
    assert seat_colour(1) in colours, "seat 1's code is framed in its colour"
    assert (tmp_path / "join.png").stat().st_size > 10_000


def test_the_join_screen_encodes_each_code_once_not_every_frame():
    shell = shell_with("goblets")
    hub = PhoneHub(shell, address="10.42.0.7", port=8081, wifi=wifi_code("frame-test", "x"))
    shell.phones = hub
    hub.sync()
    hub.open_screen()
    first = [w for w in widgets(shell.scene()) if isinstance(w, QrCode)]
    misses = matrix.cache_info().misses
    again = [w for w in widgets(shell.scene()) if isinstance(w, QrCode)]
    assert matrix.cache_info().misses == misses, "the next frame encoded its codes again"
    assert [w.modules for w in again] == [w.modules for w in first] and len(first) == 5
