import os
from pathlib import Path

import pytest

from controller import config
from controller.config import ConfigError


def test_defaults_are_valid_and_use_twenty_distinct_pins():
    cfg = config.validate(config.Config())
    pins = cfg.pins()
    assert len(pins) == 20
    assert not set(pins) & set(config.RESERVED_GPIOS), "default pins must keep I2C and I2S free"


def test_a_missing_default_file_means_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("CLINKBOX_CONFIG", raising=False)
    assert config.load() == config.Config()


def test_a_named_file_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        config.load(tmp_path / "nope.toml")


def test_a_full_file_is_read_into_frozen_dataclasses(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[tchin_tchin]\nwindow_s = 3\nevents = true\n[display]\nmode = "headless"\n'
                 '[[stations]]\nbutton = 4\nled = 17\n[[stations]]\nbutton = 27\nled = 22\n')
    cfg = config.load(f)
    assert cfg.tchin_tchin.window_s == 3.0 and cfg.tchin_tchin.events is True
    assert cfg.display.mode == "headless"
    assert [s.button for s in cfg.stations] == [4, 27]
    with pytest.raises(AttributeError):
        cfg.display.mode = "window"  # type: ignore[misc]


@pytest.mark.parametrize("text,named", [
    ("colour = 1", "unknown key 'colour'"),
    ("[display]\nbrightness = 3", "unknown key display.brightness"),
    ("[pad]\nok = 4", "GPIO4 is used twice: by stations[1].button and by pad.ok"),
    ("[pad]\nok = 44", "pad.ok = 44: there is no GPIO44"),
    ("[[stations]]\nbutton = 4\nled = 4", "GPIO4 is used twice"),
    ("[[stations]]\nbutton = 4", "stations[1].led is missing"),
    ("[[stations]]\nbutton = 4\nled = 5\nbuzzer = 6", "unknown key stations[1].buzzer"),
    ('[display]\nmode = "tv"', "display.mode = 'tv' is not one of"),
    ('[tchin_tchin]\nwindow_s = "long"', "tchin_tchin.window_s must be a number"),
    ("[tchin_tchin]\nveto_s = -1", "tchin_tchin.veto_s must not be negative"),
    ("[sound]\nvolume = 2.0", "sound.volume = 2.0 must be between 0 and 1"),
    ("[sound]\nenabled = 1", "sound.enabled must be true or false"),
    ("[display\n", "not valid TOML"),
    ('data_dir = "/srv/box\\u0000"', "data_dir = '/srv/box\\x00' holds a NUL character"),
    ('[speech]\ndevice = "USB\\u0000mic"', "speech.device = 'USB\\x00mic' holds a NUL character"),
])
def test_bad_config_is_a_clear_error_naming_it(text, named):
    with pytest.raises(ConfigError) as err:
        config.parse(text, "box.toml")
    assert named in str(err.value)
    assert str(err.value).startswith("box.toml: ")


def test_data_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert config.Config().data_path() == Path(tmp_path) / "clinkbox"
    assert config.Config(data_dir="/srv/box").data_path() == Path("/srv/box")


def test_the_documented_example_config_is_the_default_build():
    example = Path(__file__).resolve().parents[2] / "docs" / "clinkbox.example.toml"
    assert config.parse(example.read_text(), str(example)) == config.Config()


def test_the_documented_example_config_names_every_key():
    import tomllib
    from dataclasses import fields

    text = (Path(__file__).resolve().parents[2] / "docs" / "clinkbox.example.toml").read_text()
    raw = tomllib.loads(text)
    for section, cls in config._SECTIONS.items():
        assert {f.name for f in fields(cls)} == set(raw[section]), section
    assert "# data_dir = " in text and len(raw["stations"]) == len(config.DEFAULT_STATIONS)


@pytest.mark.parametrize("text,named", [
    ("[display]\nwidth = 100000", "display.width = 100000 must be between 320 and 7680"),
    ("[display]\nheight = 10", "display.height = 10 must be between 240 and 4320"),
    ("[display]\nfps = 0", "display.fps = 0 must be between 1 and 240"),
    ("[tchin_tchin]\ncard_timeout_s = nan", "tchin_tchin.card_timeout_s = nan must be a finite number"),
    ("[tchin_tchin]\nveto_s = inf", "tchin_tchin.veto_s = inf must be a finite number"),
    ("[tchin_tchin]\nwindow_s = 0", "tchin_tchin.window_s = 0.0 must be between 0.5 and 30"),
    ("[buttons]\nbounce_s = nan", "buttons.bounce_s = nan must be a finite number"),
    ("[buttons]\nstuck_s = 0", "buttons.stuck_s = 0.0 must be between 1 and 3600"),
    ("[buttons]\nlong_back_s = 1e9", "buttons.long_back_s = 1000000000.0 must be between 0.5 and 60"),
    ("[sound]\nvolume = nan", "sound.volume = nan must be a finite number"),
    ("[phones]\nmessages_per_s = inf", "phones.messages_per_s = inf must be a finite number"),
])
def test_every_number_is_finite_and_in_range_with_its_key_named(text, named):
    with pytest.raises(ConfigError) as err:
        config.parse(text, "box.toml")
    assert str(err.value) == f"box.toml: {named}"


def test_every_default_is_within_its_range():
    cfg = config.Config()
    for (section, key), (low, high) in config.RANGES.items():
        assert low <= getattr(getattr(cfg, section), key) <= high, f"{section}.{key}"


def test_a_config_path_that_is_a_fifo_or_a_folder_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "clinkbox.toml"
    os.mkfifo(fifo)  # reading it would wait for a writer forever
    with pytest.raises(ConfigError, match="not a regular file"):
        config.load(fifo)
    with pytest.raises(ConfigError, match="a folder, not a config file"):
        config.load(tmp_path)


def test_a_config_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "clinkbox.toml"
    big.write_text("# " + "x" * config.MAX_CONFIG_BYTES + "\n")
    with pytest.raises(ConfigError, match=f"config file {big} is .* bytes; at most {config.MAX_CONFIG_BYTES}"):
        config.load(big)
    big.write_text("[display]\nfps = 25\n")
    assert config.load(big).display.fps == 25


def test_a_window_larger_than_the_screen_is_capped_to_it_keeping_its_shape(monkeypatch):
    import pygame as pg

    from controller.app import fit_screen

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pg.display.init()
    sw, sh = pg.display.get_desktop_sizes()[0]
    w, h = fit_screen((7680, 4320), "window")
    assert w <= sw and h <= sh and abs(w / h - 16 / 9) < 0.01
    assert fit_screen((320, 240), "window") == (320, 240)
    assert fit_screen((7680, 4320), "headless") == (7680, 4320)


def test_a_config_saved_with_a_byte_order_mark_is_read(tmp_path):
    # Notepad and some other editors begin a UTF-8 file with one; TOML itself has none
    path = tmp_path / "clinkbox.toml"
    path.write_bytes(b"\xef\xbb\xbf[buttons]\nstuck_s = 12.0\n")
    assert config.load(path).buttons.stuck_s == 12.0


def test_a_config_named_by_clinkbox_config_that_is_missing_is_an_error_not_the_defaults(tmp_path, monkeypatch):
    missing = tmp_path / "nowhere.toml"
    monkeypatch.setenv("CLINKBOX_CONFIG", str(missing))
    with pytest.raises(ConfigError, match="no such config file"):
        config.load()
    assert config.config_path() == missing, "the doctor reports the file the box reads"
    monkeypatch.delenv("CLINKBOX_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config.load() == config.validate(config.Config()), "no file at the default path: the defaults"


@pytest.mark.parametrize("value,device", [("2", 2), (" 11 ", 11), ("USB PnP", "USB PnP"), ("", None)])
def test_a_device_key_of_digits_is_an_index_and_other_text_a_name(value, device):
    assert config.sound_device(value) == device
