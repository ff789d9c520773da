"""Property tests on the whole flow: random input files never crash it, replay the same, lose no card."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.clock import ManualClock
from controller.flow import FlowContext, Input
from controller.games import flow_for

SAID = ["prost", "cheers", "Tchin Tchin!", "kanpai", "salud", "na zdorovie", "hello", ""]


@st.composite
def sessions(draw: Any) -> tuple[dict[str, Any], list[Input]]:
    players = draw(st.integers(4, 8))
    header = {"game": "tchin-tchin", "seed": draw(st.integers(0, 999)), "players": players,
              "options": {"events": draw(st.booleans()), "veto_s": 1.0, "card_timeout_s": 6.0,
                          "auto_reveal_s": draw(st.sampled_from([None, 1.0])), "bounce_s": 0.02}}
    inputs: list[Input] = []
    t = 0.0
    for _ in range(draw(st.integers(0, 80))):
        t = round(t + draw(st.sampled_from([0.0, 0.001, 0.01, 0.3, 1.0, 2.5])), 3)
        kind = draw(st.sampled_from(["press", "press", "release", "say"]))
        if kind == "say":
            end = round(t + draw(st.sampled_from([0.0, 0.3, 0.8, 3.0])), 3)
            inputs.append(Input(t, "say", word=draw(st.sampled_from(SAID)), end=end))
        else:
            inputs.append(Input(t, kind, station=draw(st.integers(0, 10))))
    return header, inputs


def play(header: dict[str, Any], inputs: list[Input]) -> tuple[Any, list[dict[str, Any]]]:
    clock = ManualClock()
    events: list[dict[str, Any]] = []
    ctx = FlowContext(clock=clock, rng=random.Random(header["seed"]), sink=events.append,
                      disabled=frozenset({8}))
    flow = flow_for("tchin-tchin")(ctx, header)
    flow.start()
    for inp in inputs:
        clock.advance_to(inp.t)
        flow.handle(inp)
    while not flow.finished and (due := clock.next_due()) is not None:
        clock.advance_to(due)
    return flow, events


@settings(max_examples=80, deadline=None)
@given(sessions())
def test_random_input_never_crashes_and_no_card_is_created_or_lost(session: Any) -> None:
    header, inputs = session
    flow, events = play(header, inputs)
    ref = flow.referee
    assert ref.all_cards() == sorted(ref.table.deck)
    assert not [e for e in events if e["event"] == "rejected"]
    times = [e["t"] for e in events]
    assert times == sorted(times)  # decisions come out in time order


@settings(max_examples=40, deadline=None)
@given(sessions())
def test_same_seed_and_inputs_give_the_same_events_through_the_flow(session: Any) -> None:
    header, inputs = session
    assert play(header, inputs)[1] == play(header, inputs)[1]
