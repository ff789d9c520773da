"""Join codes for the TV: a seat's join link, and the Wi-Fi network, as QR codes."""

from __future__ import annotations

import re
from functools import lru_cache

from hardware.display.widgets import Colour, QrCode


@lru_cache(maxsize=64)
def matrix(data: str) -> tuple[str, ...]:
    """The QR code of ``data`` as rows of "1" (dark) and "0" (light), without its quiet zone.

    Remembered: the join screen is built every frame on the event loop, and encoding a code
    takes milliseconds (a dozen seats' codes would cost several frames' time each frame)."""
    import segno

    code = segno.make(data, error="m", micro=False)
    return tuple("".join("1" if bit else "0" for bit in row) for row in code.matrix)


def qr_widget(data: str, caption: str = "", colour: Colour = (240, 236, 226)) -> QrCode:
    return QrCode(matrix(data), caption, colour)


def _escape(text: str) -> str:
    return re.sub(r'([\\;,:"])', r"\\\1", text)


def wifi_code(ssid: str, password: str = "", security: str = "WPA") -> str:
    """The text of a Wi-Fi join code (what phone cameras read as "join this network").

    >>> wifi_code("clinkbox", "salud;all")
    'WIFI:T:WPA;S:clinkbox;P:salud\\\\;all;;'
    >>> wifi_code("party", security="nopass")
    'WIFI:T:nopass;S:party;;'
    """
    if not ssid:
        raise ValueError("a Wi-Fi join code needs the network's name (phones.wifi_ssid)")
    if security == "nopass":
        return f"WIFI:T:nopass;S:{_escape(ssid)};;"
    return f"WIFI:T:{security};S:{_escape(ssid)};P:{_escape(password)};;"


def join_link(address: str, port: int, token: str) -> str:
    """A seat's join link: the token rides in the fragment, which a browser never sends to a server
    (so it is in no request line, no access log and no Referer)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/#{token}"
