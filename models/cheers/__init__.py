"""Cheers (干杯): the team card game of ingredients, clinks and poisoned shakers.

Pure rules: :mod:`cards` (the 50 cards), :mod:`setup` (teams, seats, goals, deal),
:mod:`engine` (the table state and its moves), :mod:`view` (what a seat may know),
:mod:`bots` (a computer player).
"""

from models.cheers.actions import (
    Action,
    Cheers,
    DiscardHand,
    LimitDiscard,
    Play,
    Push,
    action_from_dict,
)
from models.cheers.cards import CARDS, Card, Ingredient
from models.cheers.engine import State, new_game
from models.cheers.setup import Setup, build_setup
from models.cheers.view import TableView, view

__all__ = [
    "CARDS",
    "Action",
    "Card",
    "Cheers",
    "DiscardHand",
    "Ingredient",
    "LimitDiscard",
    "Play",
    "Push",
    "Setup",
    "State",
    "TableView",
    "action_from_dict",
    "build_setup",
    "new_game",
    "view",
]
