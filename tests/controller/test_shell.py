"""The box's own menus, driven with the pad as a host would."""

from __future__ import annotations

import flows_for_tests  # noqa: F401  (registers "countdown-test")

from controller.flow import Input
from controller.games import FLOWS
from controller.journal import Journal
from controller.shell import Shell
from hardware.buttons import ButtonEvent
from hardware.display.widgets import Menu


def nav(shell: Shell, *buttons: str, t: float = 0.0) -> None:
    for b in buttons:
        shell.button(ButtonEvent(t, True, nav=b))
        shell.button(ButtonEvent(t + 0.05, False, nav=b))


def menu_of(shell: Shell) -> Menu:
    return next(w for w in shell.scene().widgets if isinstance(w, Menu))


def test_the_main_menu_offers_the_three_games_settings_and_shut_down(tmp_path):
    shell = Shell(Journal(tmp_path / "j"))
    assert menu_of(shell).items == ("Tchin Tchin", "Cheers", "Raise Your Goblets", "Settings", "Shut down")
    nav(shell, "next", "next")
    assert menu_of(shell).cursor == 2
    nav(shell, "prev", "prev", "prev")
    assert menu_of(shell).cursor == 4, "the menu wraps round"


def test_settings_change_with_ok_and_are_kept(tmp_path):
    path = tmp_path / "settings.json"
    shell = Shell(Journal(tmp_path / "j"), settings_path=path)
    nav(shell, "prev", "prev", "ok")  # Settings
    assert shell.mode == "settings"
    nav(shell, "ok")  # Volume: its choices, medium under the cursor
    assert menu_of(shell).items[menu_of(shell).cursor] == "medium"
    nav(shell, "next", "ok")  # loud
    assert shell.settings["volume"] == 1.0
    assert "Volume: loud" in menu_of(shell).items[0]
    nav(shell, "back")
    assert shell.mode == "main"
    again = Shell(Journal(tmp_path / "j2"), settings_path=path)
    assert again.settings["volume"] == 1.0


def test_a_game_is_set_up_with_the_pad_and_played(tmp_path, monkeypatch):
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: 100.0)
    shell.begin_setup("countdown-test")
    assert shell.mode == "setup" and menu_of(shell).title == "How many players?"
    assert menu_of(shell).items[menu_of(shell).cursor] == "4", "the usual number of players comes first"
    nav(shell, "next", "ok")  # 5 players
    assert shell.mode == "game" and shell.session is not None
    assert shell.session.header["players"] == 5
    shell.button(ButtonEvent(101.0, True, station=2))
    shell.tick(103.5)
    events = [e["event"] for e in shell.session.events]
    assert events == ["ready", "armed", "ring"]
    assert shell.session.events[1]["t"] == 1.0, "game time counts from the start of the game"


def test_a_game_in_progress_is_offered_for_resume(tmp_path):
    journal = Journal(tmp_path / "j")
    shell = Shell(journal, clock=lambda: 0.0)
    shell.begin_setup("countdown-test")
    nav(shell, "ok")
    shell.button(ButtonEvent(1.0, True, station=1))
    journal.close()  # the power goes

    again = Shell(Journal(tmp_path / "j"))
    assert again.mode == "resume"
    nav(again, "ok")
    assert again.mode == "game" and again.session is not None
    assert [e["event"] for e in again.session.events] == ["ready", "armed"]


def test_start_afresh_abandons_the_saved_game(tmp_path):
    journal = Journal(tmp_path / "j")
    shell = Shell(journal)
    shell.begin_setup("countdown-test")
    nav(shell, "ok")
    journal.close()
    again = Shell(Journal(tmp_path / "j"))
    nav(again, "next", "ok")
    assert again.mode == "main" and again.journal.in_progress() is None


def test_holding_back_for_five_seconds_returns_to_the_main_menu(tmp_path):
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: 0.0)
    shell.begin_setup("countdown-test")
    nav(shell, "ok")
    assert shell.mode == "game"
    shell.button(ButtonEvent(10.0, True, nav="back"))
    shell.tick(14.9)
    assert shell.mode == "game"
    shell.tick(15.0)
    assert shell.mode == "main"
    assert shell.journal.in_progress() is None, "the game is kept as abandoned"


def test_shut_down_asks_first_and_cancel_goes_back(tmp_path):
    requests: list[str] = []
    shell = Shell(Journal(tmp_path / "j"), on_request=requests.append)
    nav(shell, "prev", "ok")
    assert shell.mode == "shutdown" and requests == []
    nav(shell, "ok")  # cursor starts on Cancel
    assert shell.mode == "main"
    nav(shell, "ok", "prev", "prev", "prev", "ok")  # the cursor stayed on Shut down
    assert requests == ["poweroff"]


def test_a_stuck_buzzer_at_start_is_told_to_the_table(tmp_path):
    shell = Shell(Journal(tmp_path / "j"), stuck=[3], disabled={3})
    assert "station 3 disabled" in shell.scene().footer


def test_every_registered_game_has_a_setup(tmp_path):
    for game, cls in FLOWS.items():
        qs = cls.setup_questions({})
        assert qs, f"{game} asks nothing before it starts"


def test_the_volume_setting_acts_at_once(tmp_path):
    from hardware.sound import Speaker

    speaker = Speaker(enabled=False)
    shell = Shell(Journal(tmp_path / "j"), sound=speaker)
    nav(shell, "prev", "prev", "ok", "ok", "next", "ok")  # Settings, Volume: medium -> loud
    assert speaker.volume == 1.0


TCHIN = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
         "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24", "D08"], "first": 1}


def live_tchin(tmp_path, lag: float) -> tuple[Shell, list[float]]:
    clock = [0.0]
    shell = Shell(Journal(tmp_path / "j"), decision_lag_s=lag, clock=lambda: clock[0])
    shell.start_game(dict(TCHIN))
    return shell, clock


def play_late_toast(shell: Shell, clock: list[float]) -> None:
    for t, station, down in ((1.0, 1, True), (1.1, 1, False), (2.0, 3, True), (2.2, 3, False)):
        clock[0] = t
        shell.button(ButtonEvent(t, down, station=station))
    clock[0] = 4.7
    shell.tick(4.7)  # the window (2.0 + 2.5) has closed in real time...
    clock[0] = 4.8
    shell.toast("na zdorovie", 3.9, 4.4)  # ...but this toast ended in time and is reported now
    clock[0] = 9.0
    shell.tick(9.0)


def test_a_toast_reported_after_the_window_still_counts_within_the_decision_lag(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.5)
    play_late_toast(shell, clock)
    assert shell.session is not None
    events = [e["event"] for e in shell.session.events]
    assert "correct" in events and "mistake" not in events


def test_without_the_lag_the_same_late_toast_is_too_late(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.0)
    play_late_toast(shell, clock)
    assert shell.session is not None
    mistakes = [e for e in shell.session.events if e["event"] == "mistake"]
    assert mistakes and mistakes[0]["reason"] == "no toast"


def test_a_resumed_game_replays_a_late_toast_exactly_as_it_was_played(tmp_path):
    for lag in (0.0, 0.5):
        shell, clock = live_tchin(tmp_path / str(lag), lag=lag)
        play_late_toast(shell, clock)
        assert shell.session is not None
        live = shell.session.events
        shell.journal.close()
        again = Shell(Journal(tmp_path / str(lag) / "j"))
        again.resume_game()
        assert again.session is not None
        assert again.session.events == [e for e in live if e["t"] <= again.session.clock.now()]


def claim_by_3(shell: Shell, clock: list[float]) -> None:
    for t, station, down in ((1.0, 1, True), (1.1, 1, False), (2.0, 3, True), (2.2, 3, False)):
        clock[0] = t
        shell.button(ButtonEvent(t, down, station=station))


def decisions(shell: Shell) -> list[tuple[str, float]]:
    assert shell.session is not None
    return [(e["event"], e["t"]) for e in shell.session.events if e["event"] in ("correct", "mistake")]


def test_a_heard_toast_is_decided_as_soon_as_it_is_reported_not_after_the_lag(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.5)
    claim_by_3(shell, clock)
    clock[0] = 3.0
    shell.tick(3.0)
    clock[0] = 3.05  # the toast ended 0.25 s ago; the timers still stand 0.5 s behind
    shell.toast("na zdorovie", 2.3, 2.8)
    assert decisions(shell) == [("correct", 2.8)]


def test_a_no_toast_verdict_still_waits_for_the_recognisers_lag(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.5)
    claim_by_3(shell, clock)
    clock[0] = 4.9
    shell.tick(4.9)  # the window closed at 4.5, but a toast that ended in time may be on its way
    assert decisions(shell) == []
    clock[0] = 5.05
    shell.tick(5.05)
    assert decisions(shell) == [("mistake", 4.5)]


def test_a_toast_reported_too_late_decides_no_toast_at_once(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.5)
    claim_by_3(shell, clock)
    clock[0] = 4.8
    shell.tick(4.8)
    clock[0] = 4.9  # this one ended after the window: nothing that ended in time can still come
    shell.toast("na zdorovie", 4.2, 4.6)
    assert decisions(shell) == [("mistake", 4.5)]


def test_a_resumed_game_replays_a_toast_decided_at_once_exactly(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.5)
    claim_by_3(shell, clock)
    clock[0] = 3.05
    shell.toast("na zdorovie", 2.3, 2.8)
    clock[0] = 9.0
    shell.tick(9.0)
    assert shell.session is not None
    live = shell.session.events
    shell.journal.close()
    again = Shell(Journal(tmp_path / "j"))
    again.resume_game()
    assert again.session is not None
    assert again.session.events == [e for e in live if e["t"] <= again.session.clock.now()]


def test_a_notice_shows_for_a_while_then_clears(tmp_path):
    clock = [0.0]
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: clock[0])
    shell.notices.append("Microphone: lost")
    assert shell.scene().footer == "Microphone: lost"
    clock[0] = 25.0
    assert shell.scene().footer != "Microphone: lost"
    shell.notices.append("Microphone: back")
    assert shell.scene().footer == "Microphone: back"


def test_a_notice_in_a_game_gives_the_footer_back_to_the_game_soon(tmp_path):
    clock = [0.0]
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: clock[0])
    shell.begin_setup("countdown-test")
    nav(shell, "ok")
    assert shell.mode == "game" and shell.session is not None
    own = shell.scene().footer
    shell.notices.append("Microphone: no microphone")
    assert shell.scene().footer == "Microphone: no microphone"
    clock[0] = Shell.GAME_NOTICE_S + 0.5
    assert shell.scene().footer == own, "the game's own words on who acts and how are back"
    assert Shell.GAME_NOTICE_S < Shell.NOTICE_S


def test_choosing_the_options_asks_each_in_turn(tmp_path):
    shell = Shell(Journal(tmp_path / "j"))
    shell.begin_setup("raise-your-goblets" if "raise-your-goblets" in FLOWS else "goblets")
    nav(shell, "ok", "next", "ok")  # 4 players, the options first
    titles = []
    while shell.mode == "setup":
        titles.append(menu_of(shell).title)
        if menu_of(shell).title == "Character cards?":
            assert menu_of(shell).items == ("off", "on"), "on and off in one order in every game"
            nav(shell, "prev", "ok")  # off
        else:
            nav(shell, "ok")
    assert "Character cards?" in titles and "Seats the box plays?" in titles
    assert not any("Legacy" in t for t in titles), "no Legacy without character cards"


def test_tchin_tchin_set_up_with_the_defaults_starts_with_the_introduction(tmp_path):
    shell = Shell(Journal(tmp_path / "j"))
    shell.begin_setup("tchin-tchin")
    titles = []
    while shell.mode == "setup":
        titles.append(menu_of(shell).title)
        nav(shell, "ok")
    assert titles == ["How many players?", "Start now with the usual options?"], "two screens to a game"
    assert shell.session is not None and shell.session.header.get("intro") is True
    assert shell.session.events[0]["event"] == "intro", "the first player is introduced"


def test_without_speech_a_tchin_tchin_claim_goes_to_the_veto_vote(tmp_path):
    shell = Shell(Journal(tmp_path / "j"), speech_available=False, clock=lambda: 0.0)
    shell.start_game(dict(TCHIN))
    assert shell.session is not None and shell.session.header["options"]["speech"] is False
    shell.button(ButtonEvent(1.0, True, station=1))
    shell.button(ButtonEvent(2.0, True, station=3))
    correct = [e for e in shell.session.events if e["event"] == "correct"]
    assert correct and correct[0]["word"] is None and correct[0]["t"] == 2.0


def test_a_microphone_lost_mid_game_is_journaled_and_sends_the_live_claim_to_the_vote(tmp_path):
    clock = [0.0]
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: clock[0])
    shell.start_game(dict(TCHIN))
    for t, st in ((1.0, 1), (2.0, 3)):
        clock[0] = t
        shell.button(ButtonEvent(t, True, station=st))
    clock[0] = 2.5
    shell.set_hearing(False, 2.5)
    assert shell.session is not None
    assert [e["event"] for e in shell.session.events][-3:] == ["hearing", "correct", "veto_window"]
    saved = shell.journal.in_progress()
    assert saved is not None and saved.inputs[-1].action == {"type": "hearing", "available": False}
    shell.set_hearing(True, 3.0)
    assert shell.session.events[-1] == {"t": 3.0, "event": "hearing", "available": True}


def test_a_claim_locks_out_at_once_even_while_timers_run_behind(tmp_path):
    shell, clock = live_tchin(tmp_path, lag=0.5)
    for t, station in ((1.0, 1), (2.0, 3)):
        clock[0] = t
        shell.button(ButtonEvent(t, True, station=station))
    assert shell.session is not None
    assert shell.session.events[-1]["event"] == "claim", "decided on the press, not half a second later"


def test_a_press_reaches_its_lock_out_decision_on_its_way_in(tmp_path):
    from controller.session import GameSession

    header = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
              "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24"], "first": 1}
    session = GameSession(header)
    session.feed(Input(0.5, "press", station=1), settle=True)
    assert session.events[-1]["event"] == "reveal", "the reveal is decided inside feed, no timer waited on"
    session.feed(Input(1.0, "press", station=3), settle=True)
    assert session.events[-1]["event"] == "claim" and session.events[-1]["station"] == 3
    due = session.clock.next_due()
    assert due is not None and due > 1.0 + 1e-6, "no timer is left to decide the press"


def test_a_replay_gathers_the_presses_of_one_instant_before_deciding(tmp_path):
    from controller.session import GameSession

    header = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
              "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D05"], "first": 2}
    session = GameSession(header)
    session.feed(Input(0.5, "press", station=2), settle=True)  # D05 invites 1 and 4
    session.feed(Input(1.0, "press", station=4))
    assert session.events[-1]["event"] == "reveal", "4 waits for the other presses of its instant"
    session.feed(Input(1.0, "press", station=1))
    session.advance(1.5)
    claim = next(e for e in session.events if e["event"] == "claim")
    assert claim["station"] == 1 and claim["tied"] == [4], "an exact tie goes to the lower station"


# -- the party around the games ----------------------------------------------------------

def finish_countdown(shell: Shell, t: float = 101.0) -> None:
    """Three presses, three rings: the countdown game is over."""
    for i in range(3):
        shell.button(ButtonEvent(t + i * 0.1, True, station=1))
        shell.button(ButtonEvent(t + i * 0.1 + 0.05, False, station=1))
    shell.tick(t + 5.0)
    assert shell.session is not None and shell.session.finished


def test_every_end_screen_offers_play_again_with_the_same_players(tmp_path):
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: 100.0)
    shell.begin_setup("countdown-test")
    nav(shell, "next", "ok")  # 5 players
    first = shell.session
    finish_countdown(shell)
    assert menu_of(shell).items == ("Play again, same players", "Main menu")
    nav(shell, "ok", t=110.0)
    assert shell.mode == "game" and shell.session is not first and not shell.session.finished
    assert shell.session.header["players"] == 5, "the same players"
    finish_countdown(shell)
    nav(shell, "next", "ok", t=110.0)
    assert shell.mode == "main"


def test_a_key_in_the_games_last_moment_leaves_the_end_screen_up(tmp_path):
    """A double tap on the last move must not start the next game over the final scores."""
    clock = [100.0]
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: clock[0])
    shell.begin_setup("countdown-test")
    nav(shell, "next", "ok")
    first = shell.session
    finish_countdown(shell)  # ends at the tick of t = 106
    ended = shell.session.clock.now()
    nav(shell, "ok", t=100.0 + ended + 0.3)
    assert shell.session is first and shell.session.finished, "the end screen stays"
    nav(shell, "next", t=100.0 + ended + 1.0)
    assert menu_of(shell).cursor == 0, "nothing moved in the guard"
    nav(shell, "next", "ok", t=100.0 + ended + Shell.END_GUARD_S + 0.1)
    assert shell.mode == "main", "after the guard a key is a choice"


def test_the_last_set_up_is_offered_as_a_quick_start(tmp_path):
    path = tmp_path / "settings.json"
    shell = Shell(Journal(tmp_path / "j"), settings_path=path)
    shell.begin_setup("countdown-test")
    nav(shell, "prev", "ok")  # 3 players
    again = Shell(Journal(tmp_path / "j2"), settings_path=path)
    assert menu_of(again).items[0] == "Quick start: Countdown, 3 players"
    nav(again, "ok")
    assert again.mode == "game" and again.session.header["players"] == 3


def test_a_quick_start_says_how_many_seats_the_box_plays():
    from controller.party import quick_start_label

    assert quick_start_label("Cheers", {"players": 3, "bots": 2}) == "Quick start: Cheers, 3 players, 2 by the box"
    assert quick_start_label("Cheers", {"players": 4, "bots": 0}) == "Quick start: Cheers, 4 players"


def test_back_on_the_table_asks_before_leaving_the_game(tmp_path):
    shell = Shell(Journal(tmp_path / "j"), clock=lambda: 100.0)
    shell.start_game({"game": "countdown-test", "seed": 1, "players": 4})
    game_id = shell.session.game_id
    nav(shell, "back", t=100.5)
    assert shell.mode == "game" and "Leave this game?" in repr(shell.scene())
    nav(shell, "ok", t=101.0)  # No, keep playing (under the cursor)
    assert shell.mode == "game" and "Leave" not in repr(shell.scene())
    nav(shell, "back", "next", "ok", t=101.5)
    assert shell.mode == "main"
    assert (game_id, "countdown-test", "abandoned") in shell.journal.games()


def test_the_game_screen_says_hold_back_to_leave_and_fills_while_it_is_held(tmp_path):
    clock = [100.0]
    shell = Shell(Journal(tmp_path / "j"), long_back_s=5.0, clock=lambda: clock[0])
    shell.start_game({"game": "countdown-test", "seed": 1, "players": 4})
    assert shell.scene().hold == 0.0, "shown, empty"
    shell.button(ButtonEvent(101.0, True, nav="back"))
    clock[0] = 103.5
    assert shell.scene().hold == 0.5
    shell.tick(106.0)
    assert shell.mode == "main", "held to the end: left at once"


def test_a_setting_is_chosen_from_its_own_list_without_wrapping_round(tmp_path):
    shell = Shell(Journal(tmp_path / "j"))
    shell.nav("prev"), shell.nav("prev"), shell.nav("ok")  # Settings
    players = next(i for i, label in enumerate(menu_of(shell).items) if label.startswith("Usual number"))
    for _ in range(players):
        nav(shell, "next")
    nav(shell, "ok", "prev", "ok")  # 4 -> 3 is one press
    assert shell.settings["players"] == 3
    nav(shell, "ok", "prev", "prev", "prev", "prev", "ok")  # 3, 2, and no further
    assert shell.settings["players"] == 2
    assert "Settings" not in menu_of(shell).title, "one title"


def test_the_last_seconds_of_a_game_timer_tick(tmp_path):
    from hardware.sound import Speaker

    clock = [100.0]
    speaker = Speaker(enabled=False)
    shell = Shell(Journal(tmp_path / "j"), sound=speaker, clock=lambda: clock[0])
    shell.start_game({"game": "tchin-tchin", "seed": 1, "players": 4, "options": {"card_timeout_s": 20.0},
                      "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24", "D08"],
                      "first": 1})
    shell.button(ButtonEvent(100.5, True, station=1))  # the card is revealed: 20 s to claim it
    shell.button(ButtonEvent(100.6, False, station=1))
    for t in range(101, 122):
        clock[0] = float(t) + 0.25
        shell.tick(clock[0])
    assert speaker.played.count("tick") == 3, "3, 2, 1"


def test_back_in_the_set_up_goes_to_the_main_menu_as_its_footer_says(tmp_path):
    shell = Shell(Journal(tmp_path / "j"))
    shell.begin_setup("countdown-test")
    assert shell.scene().footer.endswith("Back to the main menu")
    nav(shell, "back")
    assert shell.mode == "main"
