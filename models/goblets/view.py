"""What a seat may know (``view(state, seat)``) and what the table sees (``view(state, None)``).

The public view holds no token that is hidden on the table: no screen, no goblet's
contents, no peek; only goblets in their places (with coaster colours, except in Raise
Your Memory), who poured into which, the targets (face up), the face-up characters, whose
move it is, and the victory points once the game is over.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from models.goblets.state import GameState, Phase, StepKind
from models.goblets.tokens import as_names


class TurnView(TypedDict):
    seat: int
    step: StepKind
    actions_left: int


class UnitView(TypedDict):
    """One "player": a seat, or a Noble with their Winetaster, and their goblet's place."""

    house: str
    colour: str
    place: int
    noble: int
    winetaster: int | None
    seats: list[int]
    target: str | None


class GobletView(TypedDict):
    """A goblet as the table sees it: never its contents."""

    place: int
    coaster: str | None
    poured_by: list[int]
    drunk_by: int | None


class TableView(TypedDict):
    """What the table sees (``view(state, None)``); a seat's view adds the keys marked private."""

    game: str
    mode: str
    variants: list[str]
    players: int
    course: int
    phase: Phase
    host: int
    caller: int | None
    turn: TurnView | None
    units: list[UnitView]
    goblets: list[GobletView]
    characters: dict[int, str]
    vp: dict[int, int] | None
    winners: list[int] | None
    tie_break: NotRequired[dict[str, Any]]
    # private: only in the view of ``seat``
    seat: NotRequired[int]
    character: NotRequired[str | None]
    ability: NotRequired[str | None]
    vp_own: NotRequired[int]
    screen: NotRequired[dict[str, int]]
    house: NotRequired[str]
    place: NotRequired[int]
    winetaster_card: NotRequired[str | None]
    noble_character: NotRequired[str | None]
    goblet: NotRequired[dict[str, int]]
    seen: NotRequired[list[dict[str, Any]]]


def public_characters(state: GameState) -> dict[int, str]:
    """Face-up characters: every player's, except a Winetaster's (face down this course)."""
    tasters = {u.winetaster for u in state.units if u.winetaster is not None}
    return {s: c.title for s, c in state.characters.items() if s not in tasters}


def view(state: GameState, seat: int | None) -> TableView:
    """Exactly what ``seat`` may know; ``None`` is the shared table."""
    step = state.step
    over = state.phase == Phase.OVER
    out: TableView = {
        "game": "goblets",
        "mode": state.options.mode,
        "variants": state.options.variants,
        "players": state.options.players,
        "course": state.course,
        "phase": state.phase,
        "host": state.host,
        "caller": state.caller,
        "turn": None if step is None else {
            "seat": step.seat, "step": step.kind, "actions_left": step.actions_left},
        "units": [{
            "house": u.house.value, "colour": u.house.colour, "place": u.place,
            "noble": u.noble, "winetaster": u.winetaster, "seats": list(u.seats),
            "target": u.target.value if u.target else None,
        } for u in state.units],
        "goblets": [{
            "place": i + 1,
            "coaster": g.coaster.colour if g.coaster and not state.options.memory else None,
            # Raise Your Memory: who poured where would follow the goblet round the table
            "poured_by": [] if state.options.memory else list(g.poured_by),
            "drunk_by": g.drunk_by,
        } for i, g in enumerate(state.places)],
        "characters": public_characters(state),
        "vp": dict(state.vp) if over else None,
        "winners": list(state.winners) if over else None,
    }
    if state.tie is not None:
        tie = state.tie
        out["tie_break"] = {"order": list(tie.order), "goblets": len(tie.goblets),
                            "taken": {s: {"goblet": g, "token": tie.goblets[g - 1].value}
                                      for s, g in tie.taken.items()},
                            "winner": tie.winner}
    if seat is None or seat not in state.seats:
        return out
    unit = state.unit_of(seat) if state.units else None
    out["seat"] = seat
    out["character"] = state.characters[seat].title if seat in state.characters else None
    out["ability"] = state.characters[seat].ability if seat in state.characters else None
    out["vp_own"] = state.vp.get(seat, 0)
    if unit is not None:
        out["screen"] = as_names(unit.screen)
        out["house"] = unit.house.value
        out["place"] = unit.place
        if unit.winetaster == seat:
            out["winetaster_card"] = unit.loyalty
            out["noble_character"] = (state.characters[unit.noble].title
                                      if unit.noble in state.characters else None)
        if step is not None and step.seat == seat and step.kind == StepKind.TASTE:
            out["goblet"] = as_names(state.places[unit.index].tokens)
    out["seen"] = [dict(x) for x in state.seen.get(seat, []) if x["course"] == state.course]
    return out
