"""Tchin Tchin: the cards, the deal and the referee (pure rules, no I/O, no clock)."""

from models.tchin_tchin.actions import Buzz, Options, Tick, Toast, action_from_dict
from models.tchin_tchin.engine import NotSeated, Referee
from models.tchin_tchin.setup import SetupError, Table, deal
from models.tchin_tchin.view import view

__all__ = ["Buzz", "NotSeated", "Options", "Referee", "SetupError", "Table", "Tick", "Toast",
           "action_from_dict", "deal", "view"]
