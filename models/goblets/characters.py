"""The 21 Character cards (house rule: the box's own originals) and when each one acts.

Timing tags: ``Course`` at the beginning of each course, ``Turn`` during your turn,
``Toast`` during the toast phase, ``Drink`` before drinking, ``Score`` at scoring.
"""

from __future__ import annotations

from enum import Enum


class Timing(str, Enum):
    COURSE = "Course"
    TURN = "Turn"
    TOAST = "Toast"
    DRINK = "Drink"
    SCORE = "Score"


class Character(Enum):
    """A character card: ``number`` 1-21, ``title``, ``timing`` and its ability text."""

    SOMMELIER = (1, "Sommelier", Timing.TURN, "Your Peek may look into any goblet, not only yours.")
    JUGGLER = (2, "Juggler", Timing.TURN,
               "Once per course, as an action, swap the places of any two goblets.")
    OGRE_COOK = (3, "Ogre Cook", Timing.COURSE, "Take the Ogre Poison behind your screen.")
    UNICORN_KEEPER = (4, "Unicorn Keeper", Timing.COURSE,
                      "Take the Unicorn Antidote behind your screen.")
    TOASTMASTER = (5, "Toastmaster", Timing.TOAST, "You take two final actions instead of one.")
    SCHEMER = (6, "Schemer", Timing.TURN,
               ("Once per course, as an action, everyone else looks away and you swap the "
               "coasters (colour rings) of two goblets."))
    GLUTTON = (7, "Glutton", Timing.SCORE,
               "+1 VP if you survive with 3 or more Wine in your goblet.")
    MARTYR = (8, "Martyr", Timing.SCORE,
              "If you are poisoned and your target is poisoned, you score as if you had survived.")
    TASTER = (9, "Taster", Timing.DRINK,
              "Peek into your goblet and return one token of your choice from it to the pool.")
    ALCHEMIST = (10, "Alchemist", Timing.TURN,
                 ("Once per course, as a free action, turn a Poison behind your screen into an "
                 "Antidote or back."))
    HOARDER = (11, "Hoarder", Timing.COURSE, "Take 1 extra Wine behind your screen.")
    IMPATIENT = (12, "Impatient", Timing.TURN,
                 "You may call the Toast with 1 Wine still behind your screen.")
    PLOTTER = (13, "Plotter", Timing.COURSE,
               ("After targets are dealt, you may swap your target card with another player's "
               "(never taking your own house)."))
    PACIFIST = (14, "Pacifist", Timing.SCORE,
                "You score 2 VP for surviving and nothing for your target.")
    AVENGER = (15, "Avenger", Timing.SCORE,
               ("If you are poisoned, you still score 1 VP when your target is poisoned too, and "
               "+1 more when the player who targeted you is poisoned."))
    SPY = (16, "Spy", Timing.TURN,
           "Once per course, as an action, look at the tokens behind another player's screen.")
    BUTLER = (17, "Butler", Timing.TURN, "Your Rotate may move the goblets one or two places.")
    HYPOCHONDRIAC = (18, "Hypochondriac", Timing.DRINK,
                     "Each ordinary Antidote in your goblet removes two ordinary Poisons.")
    BARTENDER = (19, "Bartender", Timing.TURN,
                 "Once per course, one Pour may put two tokens into the same goblet.")
    GAMBLER = (20, "Gambler", Timing.DRINK,
               "You may swap your goblet with a goblet chosen at random by the device.")
    CHAPERONE = (21, "Chaperone", Timing.TOAST,
                 "You act after the Toast caller, as the very last final action.")

    def __init__(self, number: int, title: str, timing: Timing, ability: str) -> None:
        self.number = number
        self.title = title
        self.timing = timing
        self.ability = ability

    @property
    def once_per_course(self) -> bool:
        """True for the abilities that reset at the start of each course."""
        return self in ONCE_PER_COURSE

    @classmethod
    def parse(cls, name: object) -> Character:
        """A character from its number (1-21) or name; ValueError names the bad one.

        >>> Character.parse(5).title, Character.parse("ogre cook").number
        ('Toastmaster', 3)
        """
        key = str(name).strip().lower().replace("_", " ")
        for ch in cls:
            if key in (str(ch.number), ch.title.lower()):
                return ch
        raise ValueError(f"unknown character {name!r} (give a number 1-21 or a name "
                         f"such as 'Sommelier')")


ONCE_PER_COURSE: frozenset[Character] = frozenset({
    Character.JUGGLER, Character.SCHEMER, Character.ALCHEMIST, Character.SPY,
    Character.BARTENDER,
})

DECK: tuple[Character, ...] = tuple(Character)
