"""Listening for the card's word: the spotter's expected thresholds, and the game's words."""

import numpy as np
import pytest

from bench.spotter_lofo import expected_thresholds, first_verdicts
from hardware.speech.spotter import SpotterEngine


def test_expecting_a_toast_lowers_only_its_threshold_and_undoing_restores_all():
    e = SpotterEngine()
    base = e.thresholds.copy()
    k = e.toasts.index("kanpai") + 1
    assert e.expected_thresholds[k] < base[k]
    e.expect({"kanpai"})
    assert e.thresholds[k] == e.expected_thresholds[k]
    others = [i for i in range(1, len(base)) if i != k]
    assert np.array_equal(e.thresholds[others], base[others])
    e.expect(None)
    assert np.array_equal(e.thresholds, base)


def test_a_word_the_spotter_has_no_toast_for_is_refused_by_name():
    e = SpotterEngine()
    with pytest.raises(ValueError, match="gesundheit"):
        e.expect({"gesundheit"})


def test_a_fairly_sure_expected_toast_fires_where_it_did_not_before():
    e = SpotterEngine()
    k = e.toasts.index("salud") + 1
    p = np.zeros(len(e.thresholds), np.float32)
    p[k] = (e.expected_thresholds[k] + e.base_thresholds[k]) / 2
    p[0] = 1 - p[k]
    assert e.fires(p) == 0
    e.expect({"salud"})
    assert e.fires(p) == k


def test_the_first_fired_toast_decides_a_claim():
    p = np.zeros((1, 3, 3), np.float32)
    p[0, 1, 2], p[0, 2, 1] = 0.5, 0.9  # toast 2 fires first, toast 1 later and surer
    assert first_verdicts(p, np.array([np.inf, 0.4, 0.4])).tolist() == [2]
    assert first_verdicts(p, np.array([np.inf, 0.4, 0.6])).tolist() == [1]


def test_an_expected_threshold_stops_where_other_clips_would_be_heard_as_it():
    class J:  # three clips: toast 1 (p 0.35), another toast's clip that looks like 1 (p 0.25)
        p = np.array([[[0.65, 0.35]], [[0.75, 0.25]], [[1.0, 0.0]]], np.float32)
        label = np.array([1, 0, 0])
        clean = np.array([True, True, True])

    out = expected_thresholds(J, np.array([np.inf, 0.5]), budget=0.0)
    assert out[1] == 0.3  # 0.2 would hear the look-alike as toast 1
