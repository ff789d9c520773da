"""The whole box, headless, on gpiozero's MockFactory."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys

from controller.app import Box
from controller.config import Config, Display

# only against a hang: the box is stopped by the test as soon as it has seen what it needs
HANG_GUARD_S = 600.0


def headless_config(tmp_path) -> Config:
    return Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"))


def test_the_box_starts_to_the_main_menu_headless_on_mock_pins(tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory,
              frames_dir=tmp_path / "frames")
    result = asyncio.run(box.run(exit_after_menu=True))
    assert result == "menu" and box.menu_shown_at is not None
    assert box.shell.mode == "main"


async def menu_up(box: Box) -> None:
    """Until the running box has drawn its main menu (however long that takes)."""
    while box.menu_shown_at is None:
        await asyncio.sleep(0.01)


def test_buttons_reach_the_menu_through_the_event_loop(tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory)

    async def scenario():
        task = asyncio.create_task(box.run(seconds=HANG_GUARD_S))
        await menu_up(box)
        assert box.shell.main.cursor == 0
        mock_factory.pin(15).drive_low()  # Next: gpiozero's callback queues it on the loop
        mock_factory.pin(15).drive_high()
        await asyncio.sleep(0)  # the loop runs what was queued before this task resumes
        cursor = box.shell.main.cursor
        box.request = "quit"
        assert await task == "quit"
        return cursor

    assert asyncio.run(scenario()) == 1


def test_a_buzzer_stuck_down_for_thirty_seconds_disables_its_station_and_the_table_is_told(
        tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory)
    mock_factory.pin(4).drive_low()  # station 1's buzzer goes down and stays down
    t = box.panel.down_since[1]
    box._watch_stuck(t + 29.0)
    assert 1 not in box.shell.disabled
    box._watch_stuck(t + 30.0)
    assert 1 in box.shell.disabled
    assert "Station 1's buzzer is stuck down" in box.shell.scene().footer
    mock_factory.pin(4).drive_high()
    box._watch_stuck(t + 31.0)
    assert 1 not in box.shell.disabled
    box.close()


def test_clinkbox_help_lists_the_commands():
    out = subprocess.run([sys.executable, "-m", "controller.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for command in ("run", "replay", "doctor", "speech", "mic-test", "screenshots", "journal"):
        assert command in out.stdout


def test_startup_time_is_reported(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--headless", "--simulate",
                          "--exit-after-menu"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])["startup_s"] > 0


def test_a_box_closed_while_its_recogniser_loads_waits_for_the_loader(tmp_path, mock_factory, monkeypatch):
    """Quitting at the menu while speech still loads: the loader is done before the box is
    (a loader left running under the interpreter's shutdown crashed the process on its way out)."""
    import time

    import hardware.speech

    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory)

    def slow_engine(choice, data):  # a recogniser that is still loading when the box closes
        while not box._closed:
            time.sleep(0.01)
        time.sleep(0.2)
        raise RuntimeError("the model finished loading too late")

    monkeypatch.setattr(hardware.speech, "choose_engine", slow_engine)
    assert asyncio.run(box.run(exit_after_menu=True)) == "menu"
    assert box._loader is not None and not box._loader.is_alive()
    assert box.listener is None
    assert not any("No speech" in n for n in box.shell.notices)  # nobody is left to tell


TCHIN = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
         "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24", "D08"], "first": 1}


def typed_claim(tmp_path, toast: str, send: str = "return") -> Box:
    """The simulator with no microphone: 1 reveals D24 (Russian), 3 claims and types ``toast``."""
    import time

    import pygame

    pygame.display.init()
    box = Box(headless_config(tmp_path), simulate=True)
    box._load_speech("no-such-engine")  # the microphone cannot be opened
    box.shell.start_game(dict(TCHIN))

    def key(name: str, down: bool = True, char: str = "") -> None:
        box.key(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP,
                                   key=pygame.key.key_code(name), unicode=char, mod=0))

    for station in ("1", "3"):
        key(station)
        key(station, down=False)
    key("t", char="t")
    for ch in toast:
        key("space" if ch == " " else ch, char=ch)
    key(send)
    box.shell.tick(time.monotonic() + 30.0)  # the window and the veto time pass: no veto
    return box


def test_a_typed_toast_is_heard_as_a_toast_when_the_box_has_no_microphone(tmp_path):
    box = typed_claim(tmp_path, "na zdorovie")
    assert box.shell.speech_available, "the simulator's keyboard still hears"
    events = box.shell.session.events
    heard = [e for e in events if e["event"] == "heard"]
    assert heard and heard[0]["word"] == "na zdorovie"
    assert [e["station"] for e in events if e["event"] == "win"] == [3]
    saved = box.journal.load(box.shell.session.game_id)
    [said] = [i for i in saved.inputs if i.kind == "say"]
    assert said.typed and said.as_dict()["typed"] is True, "the journal says it was typed"
    box.close()


def test_a_wrong_typed_toast_does_not_win_the_card(tmp_path):
    box = typed_claim(tmp_path, "prost")
    events = box.shell.session.events
    assert not [e for e in events if e["event"] == "win"]
    assert [e["station"] for e in events if e["event"] == "mistake"] == [3]
    box.close()


def test_the_panel_and_the_shell_keep_one_record_of_the_stations(tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory)
    try:
        assert box.shell.stations is box.panel.stations
        assert box.shell.disabled is box.panel.disabled is box.panel.stations.disabled
        box.panel.stations.mark_stuck(4)
        assert 4 in box.shell.disabled and box.shell.stuck == [4]
    finally:
        box.close()


def test_a_games_config_section_reaches_its_set_up_through_its_flow(tmp_path):
    from dataclasses import replace

    from controller.config import TchinTchin

    cfg = replace(headless_config(tmp_path), tchin_tchin=TchinTchin(veto_s=5.0, window_s=3.0))
    box = Box(cfg, simulate=True)
    try:
        assert box.shell.settings["veto_s"] == 5.0 and box.shell.settings["window_s"] == 3.0
        assert box.shell.settings["bounce_s"] == cfg.buttons.bounce_s
    finally:
        box.close()


def stop_a_running_box(tmp_path, sig) -> tuple[int, str]:
    """``clinkbox run`` headless, sent ``sig`` once its main menu is up: its exit status and
    everything it logged."""
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    # a shell's background job inherits Ctrl-C ignored (and Python then keeps it so): the box
    # is started as a terminal would start it
    box = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--headless", "--simulate",
                            "--seconds", "300"], stderr=subprocess.PIPE, text=True, env=env,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = []
    assert box.stderr is not None
    for line in box.stderr:  # the main menu is up: the loop is running
        seen.append(line)
        if "main menu up" in line:
            break
    box.send_signal(sig)
    try:
        seen.append(box.communicate(timeout=HANG_GUARD_S)[1])
    except subprocess.TimeoutExpired:
        box.kill()
        seen.append(box.communicate()[1])
        raise AssertionError(f"the box did not stop on signal {sig}: {''.join(seen)}") from None
    return box.returncode, "".join(seen)


def test_ctrl_c_stops_the_box_with_a_line_not_a_traceback(tmp_path):
    import signal

    status, log = stop_a_running_box(tmp_path, signal.SIGINT)
    assert status == 130, log
    assert "Traceback" not in log, log
    assert "stopped (Ctrl-C)" in log


def test_the_configs_volume_and_speech_engine_are_the_settings_defaults_until_the_host_chooses(tmp_path):
    from dataclasses import replace

    from controller.config import Sound, Speech

    cfg = replace(headless_config(tmp_path), sound=Sound(volume=0.3), speech=Speech(engine="pocketsphinx"))
    box = Box(cfg, simulate=True)
    try:
        assert box.shell.settings["volume"] == 0.3 and box.speaker.volume == 0.3
        assert box.shell.settings["speech"] == "pocketsphinx"
        box.shell.settings["voices"] = "keep"  # the host chooses another setting: the config's stay the config's
        box.shell.chosen.add("voices")
        box.shell._save_settings()
    finally:
        box.close()
    saved = json.loads((tmp_path / "data" / "settings.json").read_text())
    assert saved["voices"] == "keep" and "volume" not in saved and "speech" not in saved
    (tmp_path / "data" / "settings.json").write_text(json.dumps({"volume": 1.0}))  # the host's choice wins
    box = Box(cfg, simulate=True)
    try:
        assert box.shell.settings["volume"] == 1.0 and box.speaker.volume == 1.0
        assert box.shell.settings["speech"] == "pocketsphinx"
    finally:
        box.close()


def test_the_configs_tchin_tchin_events_and_auto_reveal_reach_a_new_game_until_the_host_chooses(tmp_path):
    from dataclasses import replace

    from controller.config import TchinTchin
    from controller.games.tchin_tchin.setup import header_from_answers

    cfg = replace(headless_config(tmp_path), tchin_tchin=TchinTchin(events=True, auto_reveal_s=7.0))
    box = Box(cfg, simulate=True)
    try:
        header = header_from_answers({"players": 6}, seed=1, settings=box.shell.settings)
        assert header["options"]["events"] is True and header["options"]["auto_reveal_s"] == 7.0
        box.shell.settings["voices"] = "keep"
        box.shell.chosen.add("voices")
        box.shell._save_settings()  # the host chose another setting: the config's stay the config's
    finally:
        box.close()
    saved = json.loads((tmp_path / "data" / "settings.json").read_text())
    assert "events" not in saved and "auto_reveal_s" not in saved
    (tmp_path / "data" / "settings.json").write_text(json.dumps({"events": False}))  # the host's choice wins
    box = Box(cfg, simulate=True)
    try:
        assert box.shell.settings["events"] is False and box.shell.settings["auto_reveal_s"] == 7.0
    finally:
        box.close()


def test_sigterm_stops_a_headless_box_and_closes_it(tmp_path):
    import signal

    status, log = stop_a_running_box(tmp_path, signal.SIGTERM)  # systemctl stop
    assert status == 0, log
    assert "stopped by SIGTERM" in log and "Traceback" not in log


def test_a_speaker_lost_mid_game_is_told_to_the_table_once_and_its_return_too(tmp_path):
    box = Box(headless_config(tmp_path), simulate=True)
    try:
        before = list(box.shell.notices)
        box.speaker.problem = "The speaker was lost: the box plays on silently"  # as its player thread sets it
        box._watch_speaker()
        box._watch_speaker()
        assert box.shell.notices[len(before):] == ["The speaker was lost: the box plays on silently"]
        box.speaker.problem = None
        box._watch_speaker()
        assert box.shell.notices[-1] == "The speaker is back."
    finally:
        box.close()
