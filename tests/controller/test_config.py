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
