"""wiring.md and docs/wiring.svg say what controller/config.py drives, pin for pin."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from controller.config import DEFAULT_STATIONS, RESERVED_GPIOS, Config, Pad
from controller.header import BCM, GROUND, PHYSICAL, POWER_3V3, POWER_5V

ROOT = Path(__file__).resolve().parents[1]
WIRING = (ROOT / "wiring.md").read_text(encoding="utf-8")
SVG = (ROOT / "docs" / "wiring.svg").read_text(encoding="utf-8")


def test_the_header_map_covers_all_40_pins_once() -> None:
    pins = set(PHYSICAL.values()) | POWER_3V3 | POWER_5V | GROUND
    assert sorted(pins) == list(range(1, 41))
    assert len(PHYSICAL) == 28 and all(BCM[PHYSICAL[g]] == g for g in PHYSICAL)


def test_the_drawing_is_up_to_date_with_the_code() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "draw_wiring.py"), "--check"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


def test_the_drawing_names_every_connection() -> None:
    for n, st in enumerate(DEFAULT_STATIONS, start=1):
        assert f"GPIO{st.button}  Station {n} buzzer" in SVG
        assert f"GPIO{st.led}  Station {n} LED" in SVG
    for name in ("prev", "next", "ok", "back"):
        assert f"GPIO{getattr(Pad(), name)}  Pad {name.upper()}" in SVG
    for gpio in RESERVED_GPIOS:
        assert f"GPIO{gpio}  free: {RESERVED_GPIOS[gpio]}" in SVG


def test_the_station_table_is_the_default_pin_map() -> None:
    rows = re.findall(r"^\| Station (\d) \| GPIO(\d+) \| (\d+) \| GPIO(\d+) \| (\d+) \| (\d+) \|$", WIRING, re.MULTILINE)
    assert len(rows) == len(Config().stations) == 8
    for (n, button, button_pin, led, led_pin, ground), st in zip(rows, DEFAULT_STATIONS, strict=True):
        assert (int(button), int(led)) == (st.button, st.led), f"station {n}"
        assert (int(button_pin), int(led_pin)) == (PHYSICAL[st.button], PHYSICAL[st.led]), f"station {n}"
        assert int(ground) in GROUND


def test_the_pad_table_is_the_default_pad() -> None:
    rows = re.findall(r"^\| (PREV|NEXT|OK|BACK) \| GPIO(\d+) \| (\d+) \| (\d+) \|$", WIRING, re.MULTILINE)
    assert [r[0] for r in rows] == ["PREV", "NEXT", "OK", "BACK"]
    for name, gpio, pin, ground in rows:
        assert int(gpio) == getattr(Pad(), name.lower()) and int(pin) == PHYSICAL[int(gpio)]
        assert int(ground) in GROUND
