"""Cheers on the box: the flow, its header and set-up menus, action menus, scenes and demo."""

from controller.games.cheers.flow import CheersFlow as Flow

__all__ = ["Flow"]
