"""Sound cues a party hears over music: a glass clink, a penalty buzzer, a countdown tick."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.sound import CUES, RATE, synth


def spectrum_share_above(samples: np.ndarray, hz: float) -> float:
    power = np.abs(np.fft.rfft(samples)) ** 2
    freqs = np.fft.rfftfreq(len(samples), 1 / RATE)
    return float(power[freqs >= hz].sum() / power.sum())


def test_a_win_is_a_bright_glass_clink_that_rings_then_dies_away():
    win = synth("win", 1.0)
    assert spectrum_share_above(win, 2000) > 0.9, "above the bulk of the music"
    tail = win[-int(RATE * 0.1):]
    ring = win[int(RATE * 0.3):int(RATE * 0.4)]
    assert np.abs(tail).max() < 0.5 * np.abs(ring).max(), "the glass rings down"


def test_a_penalty_is_a_low_rough_buzzer_not_a_tone():
    buzz = synth("penalty", 1.0)
    assert spectrum_share_above(buzz, 2000) < 0.2
    power = np.abs(np.fft.rfft(buzz)) ** 2
    freqs = np.fft.rfftfreq(len(buzz), 1 / RATE)
    strong = freqs[power > power.max() * 0.01]
    assert len({round(f / 100) for f in strong}) >= 5, "many harmonics: a buzz"


def test_the_countdown_tick_is_short():
    assert len(synth("tick")) < RATE * 0.05


@pytest.mark.parametrize("cue", sorted(CUES))
def test_every_cue_peaks_at_the_volume_setting(cue):
    for volume in (0.3, 1.0):
        assert np.abs(synth(cue, volume)).max() == pytest.approx(volume, rel=1e-3)
    assert not synth(cue, 0.0).any(), "volume off is silence"


def test_an_unknown_cue_is_named():
    with pytest.raises(KeyError, match="unknown sound cue 'trumpet'"):
        synth("trumpet")

