"""The toast spotter's training recipe: how steps are labelled and the firing rule it chooses
thresholds with (the same rule as the live stream's)."""

from __future__ import annotations

import numpy as np

from bench.train_spotter import first_fire, labels


def test_steps_are_labelled_by_where_they_end_against_the_toast() -> None:
    ends = np.array([-1.0, -0.3, -0.1, 0.0, 0.2, 0.32, 0.5])
    assert labels(3, ends).tolist() == [0, 0, -1, 3, 3, 3, -1]
    assert labels(0, ends).tolist() == [0] * 7


def test_a_toast_fires_on_its_first_step_over_the_threshold_and_only_when_confirmed() -> None:
    p = np.array([[0.9, 0.1, 0.0], [0.3, 0.7, 0.0], [0.5, 0.0, 0.5], [0.1, 0.0, 0.9]])
    assert first_fire(p, 0.6, 1) == 1
    assert first_fire(p, 0.6, 2) == 0  # never two steps in a row over 0.6
    assert first_fire(p, 0.5, 2) == 2
    assert first_fire(p, 0.95, 1) == 0
