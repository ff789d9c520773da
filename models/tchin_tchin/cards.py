"""The Tchin Tchin cards: six characters, two tourists, 30 drink cards, six event cards.

Every element on a card is named by a short code: nations by their character
code (``DE EN FR JP MX RU``), drinks and locations by a lower-case name that is
also the art's glyph name (``Glyph("drink", "tequila")``,
``Glyph("landmark", "big_ben")``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Character:
    """A character card: a nation with its drink (gesture), location and toast."""

    code: str
    nationality: str
    drink: str
    gesture: str
    location: str
    word: str  # the toast id (models.toasts)

    @property
    def combination(self) -> Combination:
        """This character's own way of clinking glasses: its word with its gesture."""
        return Combination(word=self.word, drink=self.drink)


@dataclass(frozen=True)
class Tourist:
    """A tourist card: plays when one of its three locations is on a drink card."""

    code: str
    name: str
    locations: tuple[str, str, str]


@dataclass(frozen=True)
class Combination:
    """An "Action/Word" combination: a toast word with the gesture of a drink."""

    word: str
    drink: str

    def as_dict(self) -> dict[str, str]:
        return {"word": self.word, "drink": self.drink, "gesture": DRINK_GESTURES[self.drink]}


@dataclass(frozen=True)
class DrinkCard:
    """A "Let's have a drink" card: the drinker's nation (word), drink (gesture), location."""

    id: str
    drinker: str  # nation code
    drink: str
    location: str
    walking_man: bool = False

    @property
    def combination(self) -> Combination:
        """What the card asks for: the drinker's word with the drink's gesture."""
        return Combination(word=CHARACTERS[self.drinker].word, drink=self.drink)


@dataclass(frozen=True)
class EventCard:
    """An event card of the "events" variant: ``kind`` is my_round, same_again or middleman."""

    id: str
    kind: str
    title: str


Card = DrinkCard | EventCard

CHARACTERS: dict[str, Character] = {
    c.code: c
    for c in (
        Character("DE", "German", "beer", "hold a beer mug with an open hand",
                  "brandenburg_gate", "prost"),
        Character("EN", "English", "tea", "hold a cup, little finger up", "big_ben", "cheers"),
        Character("FR", "French", "champagne", "raise a glass very high", "eiffel_tower",
                  "tchin tchin"),
        Character("JP", "Japanese", "sake", "raise a bowl with two hands", "himeji_castle",
                  "kanpai"),
        Character("MX", "Mexican", "tequila", "knock on the table", "mayan_pyramid", "salud"),
        Character("RU", "Russian", "vodka", "throw the glass over the shoulder", "red_square",
                  "na zdorovie"),
    )
}

TOURISTS: dict[str, Tourist] = {
    "TM": Tourist("TM", "the tourist man", ("eiffel_tower", "big_ben", "brandenburg_gate")),
    "TW": Tourist("TW", "the tourist woman", ("himeji_castle", "mayan_pyramid", "red_square")),
}

#: drink -> the gesture that stands for it
DRINK_GESTURES: dict[str, str] = {c.drink: c.gesture for c in CHARACTERS.values()}
#: location -> the nation whose location it is
LOCATION_NATION: dict[str, str] = {c.location: c.code for c in CHARACTERS.values()}
#: location -> how the table calls it
LOCATION_NAMES: dict[str, str] = {
    "brandenburg_gate": "Brandenburg Gate",
    "big_ben": "Big Ben",
    "eiffel_tower": "Eiffel Tower",
    "himeji_castle": "Himeji Castle",
    "mayan_pyramid": "Mayan pyramid",
    "red_square": "Red Square",
}

_N = {"German": "DE", "English": "EN", "French": "FR", "Japanese": "JP", "Mexican": "MX",
      "Russian": "RU"}
_L = {name: key for key, name in LOCATION_NAMES.items()}

# The table on the rules page, row for row: id, drinker, drink, location.
_DRINK_TABLE = """
W1 German beer Big Ben
W2 German tea Brandenburg Gate
W3 German tea Big Ben
W4 English beer Brandenburg Gate
W5 English beer Big Ben
W6 English tea Brandenburg Gate
D01 German champagne Himeji Castle
D02 German champagne Mayan pyramid
D03 English tequila Himeji Castle
D04 English vodka Eiffel Tower
D05 French beer Red Square
D06 French sake Brandenburg Gate
D07 French tequila Brandenburg Gate
D08 French tequila Red Square
D09 French vodka Mayan pyramid
D10 Japanese tea Mayan pyramid
D11 Japanese champagne Mayan pyramid
D12 Japanese tequila Red Square
D13 Japanese vodka Big Ben
D14 Japanese vodka Eiffel Tower
D15 Mexican tea Himeji Castle
D16 Mexican champagne Red Square
D17 Mexican sake Eiffel Tower
D18 Mexican sake Red Square
D19 Mexican vodka Himeji Castle
D20 Russian beer Eiffel Tower
D21 Russian champagne Himeji Castle
D22 Russian sake Eiffel Tower
D23 Russian sake Mayan pyramid
D24 Russian tequila Big Ben
"""


def _drink_cards() -> dict[str, DrinkCard]:
    cards: dict[str, DrinkCard] = {}
    for line in _DRINK_TABLE.strip().splitlines():
        card_id, nation, drink, location = line.split(" ", 3)
        cards[card_id] = DrinkCard(card_id, _N[nation], drink, _L[location],
                                   walking_man=card_id.startswith("W"))
    return cards


DRINK_CARDS: dict[str, DrinkCard] = _drink_cards()

EVENT_CARDS: dict[str, EventCard] = {
    e.id: e
    for e in (
        EventCard("R1", "my_round", "It's my round!"),
        EventCard("R2", "my_round", "It's my round!"),
        EventCard("S1", "same_again", "The same again!"),
        EventCard("S2", "same_again", "The same again!"),
        EventCard("M1", "middleman", "Middleman!"),
        EventCard("M2", "middleman", "Middleman!"),
    )
}

CARDS: dict[str, Card] = {**DRINK_CARDS, **EVENT_CARDS}


def card(card_id: str) -> Card:
    """The card with this id; a KeyError names the unknown id and the known ones."""
    try:
        return CARDS[card_id]
    except KeyError:
        raise KeyError(f"unknown card {card_id!r} (known: W1-W6, D01-D24, R1 R2 S1 S2 M1 M2)") from None


def nations_of(code: str) -> tuple[str, ...]:
    """The nations a player stands for: a character its own; a tourist those of its locations."""
    if code in CHARACTERS:
        return (code,)
    return tuple(LOCATION_NATION[loc] for loc in TOURISTS[code].locations)


def combinations_of(code: str) -> frozenset[Combination]:
    """The combinations accepted for a player's character (a tourist: any of its nations')."""
    return frozenset(CHARACTERS[n].combination for n in nations_of(code))


def is_invited_by(code: str, drink_card: DrinkCard) -> bool:
    """Whether a player is invited by a drink card: one of its elements is theirs.

    A tourist is invited only by a location it has visited.
    """
    if code in TOURISTS:
        return drink_card.location in TOURISTS[code].locations
    c = CHARACTERS[code]
    return drink_card.drinker == code or drink_card.drink == c.drink or drink_card.location == c.location


def player_name(code: str) -> str:
    """How the table calls a player's character: "French", "the tourist man"."""
    return CHARACTERS[code].nationality if code in CHARACTERS else TOURISTS[code].name
