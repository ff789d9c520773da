"""A toast the recogniser reported late: the veto window still runs from the decision."""

import json

import pytest

from controller.replay import load, run

HEADER = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {"events": False},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D08"], "first": 1}


def decisions(*lines: dict) -> list[dict]:
    out: list[dict] = []
    run(*load([json.dumps(HEADER)] + [json.dumps(x) for x in lines]), out.append)
    return out


@pytest.mark.parametrize("locked_press", [False, True])
def test_the_veto_window_closes_veto_s_after_the_decision_whatever_was_pressed_meanwhile(locked_press):
    """The toast ends at 1.9, before the claim at 2.0: decided at 2.0, the window closes at
    5.0 (veto_s 3), though the toast reached the game at 2.4; a press ignored in the lock
    (2.03) does not move it, and a vote at 5.01 is too late."""
    lines = [{"t": 0.5, "press": 1}, {"t": 0.6, "release": 1}, {"t": 2.0, "press": 3}]
    if locked_press:
        lines.append({"t": 2.03, "press": 2})
    lines += [{"t": 1.5, "say": "tchin tchin", "end": 1.9, "at": 2.4}, {"t": 5.01, "press": 2}]
    out = decisions(*lines)
    window = next(e for e in out if e["event"] == "veto_window")
    assert window["closes"] == 5.0
    assert any(e["event"] == "win" and e["station"] == 3 for e in out)
    assert not any(e["event"] == "vetoed" for e in out)
