"""Raise Your Goblets on the box: the flow, its header and set-up menus, action menus, scenes and demo."""

from controller.games.goblets.flow import GobletsFlow as Flow

__all__ = ["Flow"]
