"""The box's typeface, shipped with it: DejaVu Sans and DejaVu Sans Bold (LICENSE.txt).

Every screen is drawn with these files, never with whatever fonts the system has (a minimal
Raspberry Pi OS has no fontconfig to find them with, and then pygame falls back to its own),
so a screen looks the same, and the render tests see the same pixels, on every machine.
"""

from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).parent
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"


def font_path(bold: bool = False) -> str:
    """The path of the box's font file, regular or bold."""
    return str(BOLD if bold else REGULAR)
