"""Raise Your Goblets: the poison game for 2 to 12 players (rules in docs/rules/goblets.md)."""

from models.goblets.actions import Action, parse_action, to_dict
from models.goblets.characters import Character, Timing
from models.goblets.engine import Game
from models.goblets.houses import House
from models.goblets.setup import FixedDeal, SetupError
from models.goblets.state import GameState, Options
from models.goblets.tokens import POOL, Token

__all__ = [
           "POOL",
           "Action",
           "Character",
           "FixedDeal",
           "Game",
           "GameState",
           "House",
           "Options",
           "SetupError",
           "Timing",
           "Token",
           "parse_action",
           "to_dict",
]
