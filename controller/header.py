"""The Raspberry Pi's 40-pin header: BCM GPIO numbers, physical pin numbers, power and ground.

Used by ``clinkbox doctor`` to say which physical pin to check, and by
``scripts/draw_wiring.py`` to draw docs/wiring.svg from the configured pin map.
The layout is the same on the Pi 4 and the Pi 5.

>>> PHYSICAL[17], BCM[11]
(11, 17)
>>> sorted(GROUND)[:3]
[6, 9, 14]
"""

from __future__ import annotations

#: BCM GPIO number -> physical pin (1-40)
PHYSICAL: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33,
    19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32,
    16: 36, 20: 38, 21: 40,
}
#: physical pin -> BCM GPIO number
BCM: dict[int, int] = {phys: gpio for gpio, phys in PHYSICAL.items()}
POWER_3V3 = frozenset({1, 17})
POWER_5V = frozenset({2, 4})
GROUND = frozenset({6, 9, 14, 20, 25, 30, 34, 39})

#: what else each GPIO can be (the functions a config.txt line may switch on)
ALT_NAMES: dict[int, str] = {
    0: "ID_SD (HAT EEPROM)", 1: "ID_SC (HAT EEPROM)", 2: "I2C1 SDA", 3: "I2C1 SCL", 4: "GPCLK0 / 1-Wire",
    7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK", 12: "PWM0",
    13: "PWM1", 14: "UART TXD", 15: "UART RXD", 18: "I2S BCLK / PCM_CLK", 19: "I2S LRCLK / PCM_FS",
    20: "I2S DIN / PCM_DIN", 21: "I2S DOUT / PCM_DOUT",
}


def pin_label(gpio: int) -> str:
    """``"GPIO17 (pin 11)"``: how the doctor and the docs name a pin."""
    phys = PHYSICAL.get(gpio)
    return f"GPIO{gpio} (pin {phys})" if phys else f"GPIO{gpio} (not on the header)"


def nearest_ground(physical: int) -> int:
    """The ground pin closest to a physical pin (the short wire for a button or an LED)."""
    return min(GROUND, key=lambda g: (abs(g - physical), g))
