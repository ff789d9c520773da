"""The short soak that ``make test`` runs: each game killed (SIGKILL) at a random moment in a
live scripted run, resumed, and compared. ``make soak`` runs the long one."""

from __future__ import annotations

from bench.soak import script, soak


def test_a_short_soak_loses_no_input_and_each_resumed_game_decides_as_it_would_have():
    # toasts as say lines here (make soak plays recordings through the microphone instead)
    report = soak(kills=1, seconds=2.0, seed=3, audio=False,
                  kinds=(("tchin-tchin", True), ("cheers", False), ("goblets", True)))
    assert report["kills"] == 3
    assert report["inputs_lost"] == 0, report
    assert report["replays_differ"] == 0, report
    assert report["resumes_diverged"] == 0, report
    assert all(run["games"] >= 1 for run in report["runs"]), report


def test_soak_scripts_toast_before_the_press_with_speech_and_never_without():
    import random

    on = script("tchin-tchin", True, 6.0, random.Random(1))
    off = script("tchin-tchin", False, 6.0, random.Random(1))
    assert on[0]["options"]["speech"] is True and any("say" in x for x in on[1:])
    assert off[0]["options"]["speech"] is False and not any("say" in x for x in off[1:])
    assert [x["t"] for x in on[1:]] == sorted(x["t"] for x in on[1:])
