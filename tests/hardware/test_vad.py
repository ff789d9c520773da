"""The voice detector's noise floor: the same percentile numpy gives, kept up frame by frame."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from hardware.speech.vad import FRAME, VoiceActivity, band_energy_db, percentile_of_sorted


@given(st.lists(st.floats(-120, 20, allow_nan=False), min_size=1, max_size=500),
       st.sampled_from([0.0, 10.0, 33.3, 50.0, 90.0, 100.0]))
def test_the_percentile_of_sorted_values_is_numpys_to_the_last_bit(
        values: list[float], percent: float) -> None:
    assert percentile_of_sorted(sorted(values), percent) == float(np.percentile(values, percent))


def test_the_floor_is_the_low_percentile_of_the_last_four_seconds() -> None:
    rng = np.random.default_rng(4)
    level = np.repeat(rng.uniform(0.0005, 0.3, 60), 16000 * 10 // 60)  # the room changes
    x = (rng.standard_normal(len(level)) * level).astype(np.float32)
    x[:3 * FRAME] = 0.0  # digital silence first: the floor's lower bound
    energies = band_energy_db(x)
    vad = VoiceActivity()
    for i in range(len(energies)):
        vad.feed(x[i * FRAME: (i + 1) * FRAME])
        last = energies[max(0, i + 1 - 400): i + 1]
        floor = float(np.percentile(last, 10.0)) if len(last) >= 10 else float(last.min())
        assert vad.floor_db == max(floor, vad.min_floor_db), i
    assert len(energies) > 2 * 400
