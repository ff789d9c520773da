"""Draw docs/wiring.svg: the 40-pin header with every connection of the default build.

The pin map is read from controller.config (DEFAULT_STATIONS and Pad), so the
drawing cannot disagree with the code:

    .venv/bin/python scripts/draw_wiring.py            # writes docs/wiring.svg
    .venv/bin/python scripts/draw_wiring.py --check    # fails if docs/wiring.svg is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.config import DEFAULT_STATIONS, RESERVED_GPIOS, Pad  # noqa: E402 (after the path)
from controller.header import ALT_NAMES, BCM, GROUND, PHYSICAL, POWER_3V3, POWER_5V  # noqa: E402

STATION_COLOURS = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6")
PAD_COLOUR = "#808080"
W, H = 1180, 760
HEADER_X, TOP, ROW = 545, 80, 30


def connections() -> dict[int, tuple[str, str]]:
    """Physical pin -> (label, colour) for every pin the default build uses."""
    out: dict[int, tuple[str, str]] = {}
    for n, st in enumerate(DEFAULT_STATIONS, start=1):
        colour = STATION_COLOURS[(n - 1) % len(STATION_COLOURS)]
        out[PHYSICAL[st.button]] = (f"Station {n} buzzer", colour)
        out[PHYSICAL[st.led]] = (f"Station {n} LED (+ 220 Ω)", colour)
    pad = Pad()
    for name in ("prev", "next", "ok", "back"):
        out[PHYSICAL[getattr(pad, name)]] = (f"Pad {name.upper()}", PAD_COLOUR)
    return out


def pin_name(phys: int) -> str:
    if phys in POWER_3V3:
        return "3V3"
    if phys in POWER_5V:
        return "5V"
    if phys in GROUND:
        return "GND"
    return f"GPIO{BCM[phys]}"


def pin_fill(phys: int, used: dict[int, tuple[str, str]]) -> str:
    if phys in used:
        return used[phys][1]
    if phys in GROUND:
        return "#222"
    if phys in POWER_3V3:
        return "#f4a460"
    if phys in POWER_5V:
        return "#d22"
    return "#fff"


def free_note(phys: int) -> str:
    gpio = BCM.get(phys)
    if gpio is None:
        return ""
    if gpio in RESERVED_GPIOS:
        return f"free: {RESERVED_GPIOS[gpio]}"
    if gpio in (0, 1):
        return "free: HAT ID EEPROM"
    return "free"


def draw() -> str:
    used = connections()
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
             'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">'),
             f'<rect width="{W}" height="{H}" fill="#fbfaf7"/>',
             ('<text x="20" y="32" font-size="22" font-weight="bold">clinkbox: the default wiring '
             '(40-pin header, Pi 4 and Pi 5)</text>'),
             ('<text x="20" y="56" fill="#555">Drawn by scripts/draw_wiring.py from controller/config.py. '
             'Buttons: pin to switch to GND (internal pull-up). LEDs: pin → 220 Ω → LED + ; LED − → GND.</text>'),
             (f'<rect x="{HEADER_X - 40}" y="{TOP - 22}" width="80" height="{20 * ROW + 14}" rx="6" '
             'fill="#1f5130" stroke="#0c2414"/>')]
    for phys in range(1, 41):
        row, right = (phys - 1) // 2, phys % 2 == 0
        cx = HEADER_X + (15 if right else -15)
        cy = TOP + row * ROW
        fill = pin_fill(phys, used)
        shape = (f'<rect x="{cx - 9}" y="{cy - 9}" width="18" height="18" fill="{fill}" stroke="#000"/>'
                 if phys == 1 else f'<circle cx="{cx}" cy="{cy}" r="9" fill="{fill}" stroke="#000"/>')
        parts.append(shape)
        parts.append(f'<text x="{cx}" y="{cy + 4}" font-size="9" text-anchor="middle" '
                     f'fill="{"#fff" if fill in ("#222", "#d22", "#4363d8", "#911eb4", "#808080") else "#000"}">'
                     f'{phys}</text>')
        name = pin_name(phys)
        label, colour = used.get(phys, ("", "#999"))
        if not label:
            label = {"3V3": "3.3 V", "5V": "5 V in/out", "GND": "ground"}.get(name, free_note(phys))
        alt = ALT_NAMES.get(BCM.get(phys, -1), "")
        text = f"{name}  {label}" + (f"  [{alt}]" if alt and phys in used else "")
        line_x2 = cx + 40 if right else cx - 40
        if phys in used:
            parts.append(f'<line x1="{cx}" y1="{cy}" x2="{line_x2}" y2="{cy}" stroke="{colour}" stroke-width="4"/>')
        tx = line_x2 + 6 if right else line_x2 - 6
        anchor = "start" if right else "end"
        weight = ' font-weight="bold"' if phys in used else ' fill="#777"'
        parts.append(f'<text x="{tx}" y="{cy + 4}" text-anchor="{anchor}"{weight}>{escape(text)}</text>')
    y = TOP + 20 * ROW + 30
    notes = [
        ("Menu pad on GPIO 14/15: the serial port must be off (sudo raspi-config nonint do_serial_hw 1; "
        "do_serial_cons 1)."),
        ("Pad OK/Back and station 7/8 use the SPI0 pins (7-11): SPI must be off (the default). "
        "clinkbox doctor checks both."),
        "Kept free: I2C (GPIO 2, 3) and I2S (GPIO 18-21) for an audio HAT or a display.",
        ("Microphone: USB.  Speaker: USB, HDMI or 3.5 mm.  Display: HDMI.  "
        "Power: official 5.1 V 3 A (Pi 4) or 5.1 V 5 A (Pi 5) supply."),
    ]
    for k, note in enumerate(notes):
        parts.append(f'<text x="20" y="{y + 20 * k}" fill="#333">{escape(note)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "wiring.svg"))
    p.add_argument("--check", action="store_true", help="fail if the file differs from a fresh drawing")
    args = p.parse_args(argv)
    svg = draw()
    out = Path(args.out)
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != svg:
            print(f"{out} is out of date: run python scripts/draw_wiring.py", file=sys.stderr)
            return 1
        return 0
    out.write_text(svg, encoding="utf-8")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
