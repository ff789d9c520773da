"""When the live listener would have decided a recording's toast: after the word, not the file's
processing time."""

from __future__ import annotations

import numpy as np
import pytest
from speech_clips import RATE, floor_noise, say

from controller.speech_cli import best_toast
from hardware.speech.pocketsphinx_engine import PocketSphinxEngine
from hardware.speech.timing import decided_at


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, float]:
    """Cheers with 2 s of room before it and 1.5 s after; where the word ends."""
    word = say(tmp_path_factory.mktemp("timing"), "flite", "kal", "cheers")
    pcm = np.concatenate([floor_noise(1.5, 3), word, floor_noise(1.0, 4)])
    return pcm, (len(pcm) - 1.5 * RATE) / RATE


@pytest.mark.parametrize("name", ["spotter", "pocketsphinx"])
def test_a_toast_is_decided_shortly_after_its_word_ends(name: str, clip: tuple[np.ndarray, float]) -> None:
    if name == "spotter":
        from hardware.speech.spotter import SpotterEngine

        engine = SpotterEngine()
    else:
        engine = PocketSphinxEngine()
    pcm, word_end = clip
    heard = best_toast(engine.classify(pcm))
    assert heard is not None and heard.toast == "cheers"
    # where in the audio the decision falls, whatever this CPU's speed (a slow Pi, an emulator)
    decided = decided_at(engine, pcm, heard, decoding=False)
    assert word_end - 0.3 < decided < word_end + 0.8
    if name == "pocketsphinx":  # it waits for the voice detector to hear the speech end
        assert decided > word_end + 0.05  # (the clip ends with its synthesizer's own quiet)
        # then decodes the stretch: that time is added to the audio's
        assert decided_at(engine, pcm, heard) > decided
    else:  # a streaming engine has decoded as it went: nothing to add
        assert decided_at(engine, pcm, heard) == decided
