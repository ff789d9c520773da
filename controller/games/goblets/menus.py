"""Raise Your Goblets menus: the deciding seat's legal actions as a small tree of pad menus.

Every leaf is an action taken from the engine's ``legal_actions()``, so a menu can never
offer an illegal move. Back climbs one level; Back at the top closes the private view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.menu import BACK, MenuState, menu
from hardware.display.widgets import chip
from models.goblets.actions import (
    Action,
    Choose,
    Drink,
    Gamble,
    Juggle,
    Pass,
    Peek,
    Plot,
    Pour,
    Rotate,
    Scheme,
    Spy,
    Swap,
    Taste,
    Toast,
    Transmute,
)

CLOSE = object()  # what the picker answers when Back leaves its top menu

_DIRECTION = {"cw": "Clockwise", "ccw": "Widdershins"}


def _goblet(place: int, sits: Mapping[int, str] | None = None) -> str:
    """A goblet by its place, with the chip of who it stands before (``sits``)."""
    who = (sits or {}).get(place)
    return f"Goblet {place}" + (f", before {who}" if who else "")


def path(action: Action, sits: Mapping[int, str] | None = None) -> tuple[str, ...]:
    """The menu labels leading to ``action``, top level first; ``sits`` names who each
    goblet stands before (a seat's chip), so a player picks a goblet by its owner."""
    if isinstance(action, Pour):
        tokens = " + ".join(t.value.title() for t in action.tokens)
        if len(action.tokens) == 2:
            tokens += " (Bartender)"
        return ("Pour", tokens, "Into " + _goblet(action.goblet, sits).lower())
    if isinstance(action, Peek):
        return ("Peek", _goblet(action.goblet, sits) if action.goblet else "Your goblet")
    if isinstance(action, Rotate):
        places = "1 place" if action.steps == 1 else f"{action.steps} places"
        return ("Rotate", f"{_DIRECTION[action.direction]}, {places}")
    if isinstance(action, Swap):
        if action.goblets is not None:
            return ("Swap", f"Goblets {action.goblets[0]} and {action.goblets[1]}")
        return ("Swap", f"With goblet {action.goblet}")
    if isinstance(action, Juggle):
        return ("Juggle (Juggler)", f"Goblets {action.goblets[0]} and {action.goblets[1]}")
    if isinstance(action, Scheme):
        return ("Swap coasters (Schemer)", f"Goblets {action.goblets[0]} and {action.goblets[1]}")
    if isinstance(action, Spy):
        return ("Spy (Spy)", f"{chip(action.target)}'s screen")
    if isinstance(action, Transmute):
        return ("Alchemy (Alchemist)",
                "Poison into Antidote" if action.into.value == "antidote"
                else "Antidote into Poison")
    if isinstance(action, Plot):
        return ("Swap targets (Plotter)", f"With {chip(action.target)}")
    if isinstance(action, Taste):
        return ("Return a token (Taster)", action.token.value.title())
    if isinstance(action, Gamble):
        return ("Gamble (Gambler)",)
    if isinstance(action, Drink):
        return ("Drink", _goblet(action.goblet, sits))
    if isinstance(action, Choose):
        return ("Choose", f"Tie goblet {action.goblet}")
    if isinstance(action, Toast):
        return ("Toast!",)
    if isinstance(action, Pass):
        return ("Pass",)
    raise TypeError(f"no menu path for {action!r}")


class ActionPicker:
    """Menus over a set of legal actions; :meth:`nav` answers an action, CLOSE or None."""

    def __init__(self, title: str, actions: list[Action], sits: Mapping[int, str] | None = None) -> None:
        if not actions:
            raise ValueError("an action menu needs at least one legal action")
        self.title = title
        self.actions = actions
        self.sits = sits
        self.prefix: tuple[str, ...] = ()
        self.menu: MenuState[Any] = self._menu()

    def _menu(self) -> MenuState[Any]:
        items: list[tuple[str, Any]] = []
        for action in self.actions:
            p = path(action, self.sits)
            if p[:len(self.prefix)] != self.prefix:
                continue
            label = p[len(self.prefix)]
            if any(label == seen for seen, _ in items):
                continue
            leaf = len(p) == len(self.prefix) + 1
            items.append((label, action if leaf else label))
        title = self.title if not self.prefix else " › ".join(self.prefix)
        return menu(title, items)

    def nav(self, button: str) -> Any:
        self.menu, chosen = self.menu.nav(button)
        if chosen is None:
            return None
        if chosen is BACK:
            if not self.prefix:
                return CLOSE
            self.prefix = self.prefix[:-1]
            self.menu = self._menu()
            return None
        if isinstance(chosen, str):
            self.prefix = self.prefix + (chosen,)
            self.menu = self._menu()
            return None
        return chosen
