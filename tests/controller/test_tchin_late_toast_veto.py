"""A toast the recogniser reported late: the veto window still runs from the decision."""

import json

from controller.replay import load, run

HEADER = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {"events": False},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D08"], "first": 1}


def decisions(*lines: dict) -> list[dict]:
    out: list[dict] = []
    run(*load([json.dumps(HEADER)] + [json.dumps(x) for x in lines]), out.append)
    return out


def test_the_veto_window_closes_veto_s_after_the_decision_however_late_the_toast_arrived():
    """The toast ends at 1.9, before the claim at 2.0: decided at 2.0, the window closes at
    5.0 (veto_s 3), though the toast reached the game at 2.4; a vote at 5.01 is too late."""
    out = decisions({"t": 0.5, "press": 1}, {"t": 0.6, "release": 1}, {"t": 2.0, "press": 3},
                    {"t": 1.5, "say": "tchin tchin", "end": 1.9, "at": 2.4}, {"t": 5.01, "press": 2})
    window = next(e for e in out if e["event"] == "veto_window")
    assert window["closes"] == 5.0
    assert any(e["event"] == "win" and e["station"] == 3 for e in out)
    assert not any(e["event"] == "vetoed" for e in out)


def test_a_voters_press_after_the_decision_but_before_the_late_toast_arrived_is_a_vote():
    """Station 2 (not invited) presses at 2.03, after the decision (2.0) and before the toast
    is reported (2.4): the lock met it, but it was made in the veto window, so it vetoes."""
    out = decisions({"t": 0.5, "press": 1}, {"t": 0.6, "release": 1}, {"t": 2.0, "press": 3},
                    {"t": 2.03, "press": 2}, {"t": 1.5, "say": "tchin tchin", "end": 1.9, "at": 2.4})
    assert [e["station"] for e in out if e["event"] == "veto_vote"] == [2]
    assert any(e["event"] == "vetoed" for e in out) and not any(e["event"] == "win" for e in out)


def test_a_press_before_the_decision_is_no_vote():
    """Station 2 presses at 2.3, during the claim, before the toast ends (2.5): no vote."""
    out = decisions({"t": 0.5, "press": 1}, {"t": 0.6, "release": 1}, {"t": 2.0, "press": 3},
                    {"t": 2.3, "press": 2}, {"t": 2.1, "say": "tchin tchin", "end": 2.5, "at": 2.6})
    assert not any(e["event"] == "veto_vote" for e in out)
    assert any(e["event"] == "win" and e["station"] == 3 for e in out)
