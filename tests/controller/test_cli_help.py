"""``clinkbox``'s own parser knows every option of its speech tools, so their --help lists them
and what is typed after the tool's name reaches it whole."""

from __future__ import annotations

import pytest

import controller.speech_cli
from controller.cli import build_parser, main


@pytest.mark.parametrize("argv, options", [
    (["speech", "classify", "--help"], ["--engine", "--data-dir", "--enrol", "--expect", "files"]),
    (["mic-test", "--help"], ["--engine", "--data-dir", "--device", "--seconds"]),
])
def test_each_speech_tool_s_help_lists_all_its_options(argv, options, capsys):
    with pytest.raises(SystemExit) as end:
        main(argv)
    assert end.value.code == 0
    shown = capsys.readouterr().out
    assert all(o in shown for o in options), shown


def test_the_tools_get_every_argument_typed_after_their_name(monkeypatch):
    got: dict[str, list[str]] = {}
    monkeypatch.setattr(controller.speech_cli, "mic_test_main", lambda a: got.setdefault("mic", a) and 0)
    monkeypatch.setattr(controller.speech_cli, "classify_main", lambda a: got.setdefault("cl", a) and 0)
    main(["-v", "mic-test", "--device", "2", "--seconds", "1.5"])
    main(["speech", "classify", "a.wav", "--expect", "salud", "--engine", "spotter"])
    assert got == {"mic": ["--device", "2", "--seconds", "1.5"],
                   "cl": ["a.wav", "--expect", "salud", "--engine", "spotter"]}


def test_a_mistyped_option_is_named_before_any_engine_loads(capsys):
    with pytest.raises(SystemExit) as end:
        build_parser().parse_args(["mic-test", "--seconds", "soon"])
    assert end.value.code == 2
    assert "--seconds" in capsys.readouterr().err
