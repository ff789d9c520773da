"""Tchin Tchin: the cards, the deal and the referee (pure rules, no I/O, no clock)."""

from models.tchin_tchin.actions import Buzz, Options, Tick, Toast, action_from_dict
from models.tchin_tchin.engine import NotSeated, Referee
from models.tchin_tchin.setup import SetupError, Table, deal
from models.tchin_tchin.state import Phase
from models.tchin_tchin.view import TableView, view

__all__ = ["Buzz", "NotSeated", "Options", "Phase", "Referee", "SetupError", "Table", "TableView",
           "Tick", "Toast", "action_from_dict", "deal", "view"]
