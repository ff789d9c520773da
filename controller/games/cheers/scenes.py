"""Cheers' scenes, each built from a view: the public table from ``view(state, None)``
alone (so it cannot leak a secret), private scenes from the owner's own view."""

from __future__ import annotations

from collections.abc import Mapping

from controller.menu import MenuState
from hardware.display.widgets import Banner, Bars, Card, Glyph, Grid, Menu, Row, Scene, Text, Widget, chip
from models.cheers.cards import Card as IngredientCard
from models.cheers.setup import Goal
from models.cheers.view import TableView

TITLE = "Cheers"
TEAM_COLOURS = {"A": (200, 70, 60), "B": (60, 110, 200), "C": (70, 160, 90)}
END_REASONS = {
    "victory": "a front holds its team's goal",
    "draw_pile_exhausted": "the draw pile ran out for the fourth time",
    "turn_cap": "the turn limit was reached",
    "abandoned": "the game was abandoned",
}


def card_face(card: IngredientCard, highlight: bool = False) -> Card:
    """An ingredient card: BIG icon on top, SMALL (clinking) icon below."""
    return Card(glyphs=(Glyph("cheers-card", f"{card.big.value}/{card.small.value}"),),
                highlight=highlight, small=True)


def goal_card(goal: Goal, title: str = "") -> Card:
    return Card(title=title, glyphs=tuple(Glyph("ingredient", i.value) for i in goal))


def seat_name(v: TableView, seat: int, bots: frozenset[int] = frozenset()) -> str:
    box = " (the box)" if seat in bots else ""
    if v.teams is None:
        return f"{chip(seat)}{box}"
    return f"{chip(seat)}{box} team {v.teams[seat]}"


def status_line(v: TableView) -> str:
    """Whose decision the table waits on, in words (public knowledge only)."""
    if v.over:
        return "Game over"
    if v.cheers is not None:
        return (f"CHEERS! {chip(v.cheers.target)} chooses the clink and gives both cards away")
    if v.limit_seats:
        return f"{chip(v.limit_seats[0])} has more than 6 cards in front: discard one"
    return f"{seat_name(v, v.turn_player)}: your turn"


def front_grid(v: TableView, seat: int, title: str, exclude: str = "") -> Grid:
    highlight: set[str] = set()
    if v.cheers is not None and v.cheers.target == seat:
        highlight = {v.cheers.played.id} | {c.id for c in v.cheers.matches}
    cells: tuple[Widget, ...] = tuple(card_face(c, c.id in highlight) for c in v.fronts[seat]
                                      if c.id != exclude)
    if not cells:
        cells = (Text("no cards in front", size="small"),)
    return Grid(cells=cells, columns=6, title=title)


def table_scene(v: TableView, footer: str = "", news: Banner | None = None, moves: str = "",
                next_up: str = "", bots: frozenset[int] = frozenset()) -> Scene:
    """The public table: every front, hand sizes, piles; a banner with what just happened
    and whose decision it is now; the last moves."""
    panels: list[Widget] = []
    for seat in range(1, v.players + 1):
        marker = "\u25b6 " if seat == v.current_player else ""
        title = f"{marker}{seat_name(v, seat, bots)} · {v.hand_sizes[seat]} in hand"
        panels.append(front_grid(v, seat, title))
    columns = 2 if v.players == 4 else 3
    piles = (f"Draw pile {v.draw_pile} · discards {v.discard_pile} · pile {v.pile} of 4")
    top: Widget = news if news is not None else Banner(
        status_line(v), colour=(60, 90, 160), subtitle=next_up, seat=v.current_player)
    return Scene(
        title=f"{TITLE} · turn {v.turn}",
        widgets=(top, Grid(cells=tuple(panels), columns=columns),
                 Text("\n".join(x for x in (moves, piles) if x), size="small")),
        footer=footer,
    )


def private_scene(v: TableView, menu: MenuState[object] | None, heading: str) -> Scene:
    """A seat's private view: its goal, hand and front, and its action menu if it decides."""
    assert v.seat is not None and v.goal is not None and v.hand is not None
    if v.masquerade:
        who = "your team's goal (teammates secret)"
    else:
        mates = " ".join(chip(s) for s in v.teammates or ()) or "nobody else"
        who = f"team {v.team}'s goal · with {mates}"
    hand: tuple[Widget, ...] = tuple(card_face(c) for c in v.hand) or (Text("empty hand", size="small"),)
    parts: list[Widget] = [
        Grid(cells=(goal_card(v.goal),), columns=1, title=who[0].upper() + who[1:]),
        Grid(cells=hand, columns=4, title="Your hand"),
    ]
    if v.cheers is not None and v.cheers.target == v.seat:
        parts.append(Grid(cells=(card_face(v.cheers.played, True),), columns=1, title="Played on you"))
        parts.append(front_grid(v, v.seat, "Your front", exclude=v.cheers.played.id))
    else:
        parts.append(front_grid(v, v.seat, "Your front"))
    widgets: list[Widget] = [Text(heading, size="heading"), Row(cells=tuple(parts))]
    if menu is not None:
        widgets.append(menu.widget())
    footer = ("Prev / Next to move, OK to choose, Back to go back · let go to hide" if menu is not None
              else "Let go of your buzzer to hide")
    return Scene(title=f"{TITLE} · seat {v.seat}", widgets=tuple(widgets), footer=footer,
                 private_for=v.seat)


def seating_scene(v: TableView, seat_of_station: Mapping[int, int], bots: frozenset[int] = frozenset()) -> Scene:
    """The seat order to sit in: who moves to which buzzer."""
    if v.teams is None:
        heading = "Masquerade: teams are secret. Move to your seat:"
    else:
        heading = "Sit in this order, clockwise (teams alternate):"
    cells: list[Widget] = []
    for seat in range(1, v.players + 1):
        came_from = next((st for st, s in seat_of_station.items() if s == seat), seat)
        if seat in bots:
            caption = "the box plays here"
        else:
            caption = "stay here" if came_from == seat else f"whoever is at {chip(came_from)} sits here"
        title = "" if v.teams is None else f"team {v.teams[seat]}"
        cells.append(Card(title=title, glyphs=(Glyph("station", str(seat)),), caption=caption))
    return Scene(title=f"{TITLE} · take your seats",
                 widgets=(Text(heading, size="heading"),
                          Grid(cells=tuple(cells), columns=min(v.players, 6))),
                 footer="Everyone seated? Press OK to hand out the secret goals.")


def reveal_waiting_scene(seat: int) -> Scene:
    return Scene(title=f"{TITLE} · secret goals",
                 widgets=(Banner(f"{chip(seat)}: your team's goal", colour=(60, 90, 160),
                                 subtitle=f"Everyone else, look away. {chip(seat)}, hold your buzzer.", seat=seat),
                          Text("The goal hides again when you let go.", size="small")),
                 footer="Next: skip this seat")


def menu_scene(v: TableView, menu: MenuState[object]) -> Scene:
    return Scene(title=f"{TITLE} · turn {v.turn}", widgets=(menu.widget(),),  # the menu names itself
                 footer="OK to choose, Back to return to the table")


def end_scene(v: TableView, pace: Bars | None = None) -> Scene:
    """The victory (or no-winner) screen: every team's goal, the winning front, and how long
    each seat took over its moves."""
    assert v.over
    if v.winner_team is not None:
        banner = Banner(f"Team {v.winner_team} wins!", colour=TEAM_COLOURS.get(v.winner_team, (200, 40, 40)),
                        subtitle=f"{chip(v.winner_seat)}'s front holds the goal. Cheers!" if v.winner_seat
                        else "Cheers!")
    else:
        banner = Banner("No winner", colour=(90, 90, 110),
                        subtitle=f"Game over: {END_REASONS.get(v.end_reason or '', v.end_reason)}")
    winners = sorted((v.goals or {}).items(), key=lambda tg: (tg[0] != v.winner_team, tg[0]))
    goals: list[Widget] = []
    for team, goal in winners:
        seats = " ".join(chip(s) for s, t in sorted((v.teams or {}).items()) if t == team)
        goals.append(Grid(cells=(goal_card(goal),), columns=1, title=f"Team {team} {seats}"))
    widgets: list[Widget] = [banner]
    if v.winner_seat is not None:  # the chart beside the winning front: a third of a row is too narrow
        front = front_grid(v, v.winner_seat, f"{chip(v.winner_seat)}'s front")
        widgets += [Row(cells=tuple(goals)), Row(cells=(front, pace)) if pace is not None else front]
    else:
        widgets.append(Row(cells=tuple(goals) + ((pace,) if pace is not None else ())))
    return Scene(title=f"{TITLE} · game over", widgets=tuple(widgets))


__all__ = [
    "Menu",
    "card_face",
    "end_scene",
    "goal_card",
    "menu_scene",
    "private_scene",
    "reveal_waiting_scene",
    "seating_scene",
    "status_line",
    "table_scene",
]
