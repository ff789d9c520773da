"""The table teaches the ear: the introduction's toasts learned into the listener's enrolment,
journaled with the game (resume hears as before), refused with the reason on the introduction
screen, and forgotten at the game's end unless the host keeps them. Real shell, journal,
listener (not started) and toast spotter; the listener's results are handed in as it would."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from speech_clips import say  # noqa: E402

from controller.ear import TableEar  # noqa: E402
from controller.journal import Journal  # noqa: E402
from controller.shell import Shell  # noqa: E402
from hardware.speech.capture import Listener  # noqa: E402
from hardware.speech.enrol import make_template  # noqa: E402

HEADER = {"game": "tchin-tchin", "seed": 1, "players": 5, "options": {}, "intro": True,
          "characters": {"1": "EN", "2": "JP", "3": "MX", "4": "RU", "5": "FR"}, "deck": ["D24", "D08"], "first": 1}


@pytest.fixture(scope="module")
def spotter():
    from hardware.speech.spotter import SpotterEngine

    return SpotterEngine()


@pytest.fixture(scope="module")
def cheers_template(spotter, tmp_path_factory):
    return make_template(spotter, say(tmp_path_factory.mktemp("ear"), "flite", "kal", "cheers"), "cheers")


def table(tmp_path: Path, spotter, voices: str | None = "game") -> tuple[Shell, TableEar]:
    shell = Shell(Journal(tmp_path / "j.sqlite3"))
    if voices is not None:
        shell.settings["voices"] = voices
    ear = TableEar(shell, shell.journal, lambda fn, *args: fn(*args))
    ear.attach(Listener(spotter, lambda h: None))
    shell.setup_game = "tchin-tchin"
    shell.start_game(dict(HEADER))
    ear.step()
    return shell, ear


def card_table(tmp_path: Path, spotter, **ear_options):
    """A game past its introduction (FR JP MX RU; seat 1 reveals D24, a Russian drinker) with a
    settable clock: the shell, its ear, the listener (not started) and the clock."""
    shell = Shell(Journal(tmp_path / "j.sqlite3"))
    shell.settings["voices"] = "game"
    clock = [10.0]
    shell.clock = lambda: clock[0]
    listener = Listener(spotter, lambda h: None)
    ear = TableEar(shell, shell.journal, lambda fn, *args: fn(*args), **ear_options)
    ear.attach(listener)
    shell.setup_game = "tchin-tchin"
    shell.start_game({**HEADER, "players": 4, "intro": False,
                      "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}})
    return shell, ear, listener, clock


def test_the_introduction_asks_the_ear_for_the_presenters_toast(tmp_path, spotter):
    shell, ear = table(tmp_path, spotter)
    assert ear.learning == (1, "cheers")  # seat 1 plays the English character


def test_the_ear_learns_nothing_when_the_host_turns_it_off(tmp_path, spotter):
    shell, ear = table(tmp_path, spotter, voices="off")
    assert ear.learning is None


def test_a_box_left_as_it_came_learns_the_table_for_this_game_only(tmp_path, spotter):
    shell, ear = table(tmp_path, spotter, voices=None)
    assert ear.mode == "game" and not ear.keep and ear.learning == (1, "cheers")


def test_a_learned_toast_is_heard_at_once_and_journaled_with_the_game(tmp_path, spotter, cheers_template):
    shell, ear = table(tmp_path, spotter)
    ear.learned(1, "cheers", cheers_template, None, None)
    assert spotter.enrolment is ear.enrolment and len(ear.enrolment) == 1
    assert shell.session is not None
    saved = shell.journal.voices(shell.session.game_id)
    assert [v["template"]["toast"] for v in saved] == ["cheers"]
    assert "learned your cheers" in shell.scene().footer


def test_a_refused_clip_is_said_on_the_introduction_screen(tmp_path, spotter):
    shell, ear = table(tmp_path, spotter)
    ear.learned(1, "cheers", None, "heard salud, not cheers: say cheers again", None)
    assert len(ear.enrolment) == 0
    scene = shell.scene()
    assert scene.title == "Meet the drinkers" and "heard salud, not cheers" in scene.footer


def resumed(tmp_path: Path, spotter) -> TableEar:
    """The box started again on the same journal: the game resumed, the ear not yet stepped."""
    again = Shell(Journal(tmp_path / "j.sqlite3"))
    again.settings["voices"] = "game"
    ear = TableEar(again, again.journal, lambda fn, *args: fn(*args))
    ear.attach(Listener(spotter, lambda h: None))
    again.resume_game()
    return ear


def test_a_resumed_game_hears_the_table_as_before(tmp_path, spotter, cheers_template):
    shell, ear = table(tmp_path, spotter)
    ear.learned(1, "cheers", cheers_template, None, None)
    shell.journal.close()
    ear2 = resumed(tmp_path, spotter)
    ear2.step()
    (kept,) = ear2.enrolment.templates
    assert kept.toast == "cheers" and np.array_equal(kept.features, cheers_template.features)


def test_the_tables_toasts_are_forgotten_when_the_game_ends(tmp_path, spotter, cheers_template):
    shell, ear = table(tmp_path, spotter)
    ear.learned(1, "cheers", cheers_template, None, None)
    assert shell.session is not None
    game = shell.session.game_id
    shell.to_main(abandon=True)
    ear.step()
    assert len(ear.enrolment) == 0 and shell.journal.voices(game) == []


def test_the_host_may_keep_them_for_the_next_game(tmp_path, spotter, cheers_template):
    shell, ear = table(tmp_path, spotter, voices="keep")
    ear.learned(1, "cheers", cheers_template, None, None)
    shell.to_main(abandon=True)
    ear.step()
    assert len(ear.enrolment) == 1
    shell.setup_game = "tchin-tchin"
    shell.start_game(dict(HEADER, seed=2))
    ear.step()
    assert shell.session is not None
    assert [v["template"]["toast"] for v in shell.journal.voices(shell.session.game_id)] == ["cheers"]


def test_a_toast_that_wins_a_card_is_learned_from_what_the_ear_heard(tmp_path, spotter):
    shell, ear, listener, clock = card_table(tmp_path, spotter)
    from hardware.buttons import ButtonEvent

    for t, station, down in ((11.0, 1, True), (11.1, 1, False), (12.0, 3, True), (12.2, 3, False)):
        clock[0] = t
        shell.button(ButtonEvent(t, down, station=station))
    clock[0] = 12.9
    shell.toast("na zdorovie", 12.3, 12.8)
    ear.toast_heard("na zdorovie", 12.3, 12.8)
    clock[0] = 20.0
    shell.tick(20.0)
    assert shell.session is not None and any(e["event"] == "win" for e in shell.session.events)
    ear.step()
    kind, (toast, start, end, _) = listener._blocks.get_nowait()
    assert (kind, toast, start, end) == ("learn_heard", "na zdorovie", 12.3, 12.8)


def test_a_resumed_game_whose_toasts_other_networks_learned_starts_afresh(tmp_path, spotter,
                                                                          cheers_template, caplog):
    # a box updated mid-game: the journal's template has the old networks' width
    shell, ear = table(tmp_path, spotter)
    old = cheers_template.to_dict()
    old["features"] = [row[:512] for row in old["features"]]
    shell.journal.add_voice(shell.session.game_id, 1, {"template": old})
    shell.journal.close()
    ear2 = resumed(tmp_path, spotter)
    with caplog.at_level("WARNING"):
        ear2.step()
    assert ear2.enrolment.templates == []
    assert "512 numbers where this spotter's networks give 768" in caplog.text


def _expects(listener: Listener) -> list:
    out = []
    while not listener._blocks.empty():
        kind, item = listener._blocks.get_nowait()
        if kind == "expect":
            out.append(item)
    return out


def test_the_ear_is_told_the_cards_word_while_the_card_is_in_play(tmp_path, spotter):
    shell, ear, listener, clock = card_table(tmp_path, spotter)
    from hardware.buttons import ButtonEvent

    ear.step()
    assert _expects(listener) == []  # between cards: nothing awaited
    for t, down in ((11.0, True), (11.1, False)):  # the revealer shows D24 (a Russian drinker)
        clock[0] = t
        shell.button(ButtonEvent(t, down, station=1))
    ear.step()
    assert _expects(listener) == [frozenset({"na zdorovie"})]
    ear.step()
    assert _expects(listener) == []  # told once, not every frame


def test_the_host_may_turn_listening_for_the_card_off(tmp_path, spotter):
    shell, ear, listener, clock = card_table(tmp_path, spotter, listen_for_card=False)
    from hardware.buttons import ButtonEvent

    for t, down in ((11.0, True), (11.1, False)):
        clock[0] = t
        shell.button(ButtonEvent(t, down, station=1))
    assert shell.listening_for() == frozenset({"na zdorovie"})  # a card is in play
    ear.step()
    assert _expects(listener) == []
