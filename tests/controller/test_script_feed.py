"""``clinkbox run --script``: inputs reach the live game as the hardware would hand them over."""

from __future__ import annotations

import io
import json
from pathlib import Path

from controller import replay
from controller.flow import Input
from controller.journal import Journal
from controller.script_feed import ScriptFeeder, already_fed, due
from controller.shell import Shell

HEADER = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24", "D08"], "first": 1}
# the toast starts before the claim press (the rules allow it) and ends after it
SCRIPT = [{"t": 1.0, "press": 1}, {"t": 1.1, "release": 1}, {"t": 1.9, "say": "na zdorovie", "end": 2.4},
          {"t": 2.0, "press": 3}, {"t": 2.2, "release": 3}]


def live(shell: Shell, feeder: ScriptFeeder, clock: list[float], until: float = 200.0) -> None:
    """The service's loop, one 1/30 s frame at a time (``until`` s of game time at most):
    the script first, then the timers."""
    end = clock[0] + until
    while clock[0] < end:
        if feeder.step(shell, clock[0]):
            return
        shell.tick(clock[0])
        clock[0] += 1 / 30


def box(db: Path) -> tuple[Shell, list[float]]:
    clock = [50.0]
    shell = Shell(Journal(db), decision_lag_s=0.5, clock=lambda: clock[0])
    return shell, clock


def inputs(lines: list[dict]) -> list[Input]:
    return replay.load([json.dumps(HEADER), *(json.dumps(x) for x in lines)])[1]


def test_a_toast_is_handed_over_at_its_end_as_a_recogniser_reports_it():
    assert [due(i) for i in inputs(SCRIPT)] == [1.0, 1.1, 2.4, 2.0, 2.2]
    feeder = ScriptFeeder(dict(HEADER), inputs(SCRIPT), out=io.StringIO())
    assert [i.kind for i in feeder.inputs] == ["press", "release", "press", "release", "say"]


def test_a_scripted_toast_reported_after_the_claim_press_is_journaled_late_and_the_export_replays_it(tmp_path):
    shell, clock = box(tmp_path / "j")
    out = io.StringIO()
    feeder = ScriptFeeder(dict(HEADER), inputs(SCRIPT), out=out)
    live(shell, feeder, clock)
    assert feeder.done
    events = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [e["event"] for e in events if e["event"] in ("claim", "correct", "mistake")] == ["claim", "correct"]
    export = shell.journal.export(1).splitlines()
    toast = json.loads(export[-1])
    assert toast["say"] == "na zdorovie" and toast["at"] >= 2.2, "journaled when it arrived, after the press and release"
    header, again = replay.load(export, "export.jsonl")
    assert replay.run(header, again, lambda ev: None).events == events


def test_inputs_the_box_made_itself_are_passed_over_when_matching_the_script_to_the_journal():
    script = inputs(SCRIPT)
    hearing = Input(1.5, "do", action={"type": "hearing", "available": False})
    journaled = [script[0], hearing, script[1], script[3]]
    assert already_fed(sorted(script, key=due), journaled) == 3
    assert already_fed(script, []) == 0


def test_a_resumed_script_feeds_only_what_the_journal_lacks_even_after_a_hearing_input(tmp_path):
    db = tmp_path / "j"
    shell, clock = box(db)
    feeder = ScriptFeeder(dict(HEADER), inputs(SCRIPT), out=io.StringIO())
    live(shell, feeder, clock, until=1.5)  # up to t=1.5: press and release of station 1
    shell.set_hearing(False, clock[0])  # the box's own input, not the script's
    shell.set_hearing(True, clock[0] + 0.01)
    shell.journal.close()  # the power cord

    shell, clock = box(db)
    out = io.StringIO()
    feeder = ScriptFeeder(dict(HEADER), inputs(SCRIPT), out=out)
    live(shell, feeder, clock)
    assert feeder.resumed_after == 2, "two of the script's five inputs were in the journal"
    saved = Journal(db).load(1)
    kinds = [i.kind for i in saved.inputs]
    assert kinds == ["press", "release", "do", "do", "press", "release", "say"], "each input once, in order"
    events = [json.loads(x) for x in out.getvalue().splitlines()]
    header, again = replay.load(Journal(db).export(1).splitlines())
    assert replay.run(header, again, lambda ev: None).events == events
