"""Menus driven by the four-button pad (Prev, Next, OK, Back).

A :class:`MenuState` is a list of choices with a cursor; :meth:`MenuState.nav`
moves it and says what was chosen. Games build their action menus from the
engine's ``legal_actions()``, so a menu can never offer an illegal move.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from hardware.display.widgets import Menu

T = TypeVar("T")


@dataclass(frozen=True)
class Choice(Generic[T]):
    label: str
    value: T
    enabled: bool = True


BACK = object()  # what nav("back") chooses

#: every yes/no option of every game is asked in this order, in these words
OFF_ON: list[tuple[str, bool]] = [("off", False), ("on", True)]


@dataclass(frozen=True)
class MenuState(Generic[T]):
    title: str
    choices: tuple[Choice[T], ...]
    cursor: int = 0
    wrap: bool = True
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.choices:
            raise ValueError(f"menu {self.title!r} has no choices")

    def moved(self, step: int) -> "MenuState[T]":
        n = len(self.choices)
        cur = self.cursor + step
        cur = cur % n if self.wrap else min(max(cur, 0), n - 1)
        return replace(self, cursor=cur)

    @property
    def current(self) -> Choice[T]:
        return self.choices[self.cursor]

    def nav(self, button: str) -> tuple["MenuState[T]", Any]:
        """Apply one pad button: returns the new state and the chosen value.

        The chosen value is ``None`` for Prev/Next (and OK on a disabled item),
        the current choice's value for OK, and :data:`BACK` for Back.
        """
        if button == "prev":
            return self.moved(-1), None
        if button == "next":
            return self.moved(+1), None
        if button == "ok":
            return self, (self.current.value if self.current.enabled else None)
        if button == "back":
            return self, BACK
        raise ValueError(f"unknown menu button {button!r} (expected prev, next, ok or back)")

    def widget(self) -> Menu:
        return Menu(
            items=tuple(c.label for c in self.choices),
            cursor=self.cursor,
            title=self.title,
            disabled=frozenset(i for i, c in enumerate(self.choices) if not c.enabled),
        )


def menu(title: str, items: list[tuple[str, T]], cursor: int = 0) -> MenuState[T]:
    """Shorthand: ``menu("Players", [("4", 4), ("5", 5)])``."""
    return MenuState(title, tuple(Choice(label, value) for label, value in items), cursor)
