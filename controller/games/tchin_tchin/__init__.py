"""Tchin Tchin on the box: the flow, its header, set-up menus, buttons, scenes and demo."""

from controller.games.tchin_tchin.flow import TchinTchinFlow as Flow

__all__ = ["Flow"]
