"""The six Otravian noble houses: screens, coaster rings and target cards."""

from __future__ import annotations

from enum import Enum


class House(str, Enum):
    """A house in play; its value is its name, ``colour`` its screen and coaster colour."""

    DE_MICETI = "De Miceti"
    MCTOADERY = "McToadery"
    ACONITIERS = "Aconitiers"
    WESPENDORF = "Wespendorf"
    VAN_VISSER = "Van Visser"
    ARANEROS = "Arañeros"

    @property
    def colour(self) -> str:
        return COLOURS[self]

    @property
    def motto(self) -> str:
        return MOTTOS[self]

    @classmethod
    def parse(cls, name: object) -> House:
        """A house from its name, colour or number 1-6; ValueError names the bad one."""
        key = str(name).strip().lower()
        for i, house in enumerate(cls, start=1):
            if key in (house.value.lower(), house.name.lower(), house.colour, str(i)) or (
                key == "araneros" and house is cls.ARANEROS
            ):
                return house
        known = ", ".join(h.value for h in cls)
        raise ValueError(f"unknown house {name!r} (known: {known})")


COLOURS: dict[House, str] = {
    House.DE_MICETI: "brown",
    House.MCTOADERY: "green",
    House.ACONITIERS: "purple",
    House.WESPENDORF: "yellow",
    House.VAN_VISSER: "blue",
    House.ARANEROS: "red",
}

MOTTOS: dict[House, str] = {
    House.DE_MICETI: "A Taste of Glory",
    House.MCTOADERY: "Hear Me Croak!",
    House.ACONITIERS: "Baneful is Graceful",
    House.WESPENDORF: "Beware Our Sting",
    House.VAN_VISSER: "Delicious and Deadly",
    House.ARANEROS: "Bite the Hand that Poisons You",
}

HOUSES: tuple[House, ...] = tuple(House)
