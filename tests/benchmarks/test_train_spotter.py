"""The toast spotter's training recipe: labels, the stream's firing rule and the hard-negative
pass, on small made-up data (the real training takes half an hour)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.train_spotter import first_fire, fit_member, labels, training_rows


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


def _made(rng: np.random.Generator, voices: int = 10) -> list[dict]:
    """Toast 1 around +1, toast 2 around +2.5, silence around -1, and a rare look-alike word
    close to toast 1."""
    def example(voice: str, label: int, centre: float, n: int) -> dict:
        x = (centre + 0.35 * rng.standard_normal((n, 8))).astype(np.float16)
        return {"voice": voice, "label": label, "x": x, "ends": np.full(n, 0.1)}

    made = []
    for v in range(voices):
        made += [example(f"v{v}", 1, 1.0, 300), example(f"v{v}", 2, 2.5, 300),
                 example(f"v{v}", 0, -1.0, 1500), example(f"v{v}", 0, 0.6, 60)]
    return made


def test_the_hard_negative_pass_lowers_the_toast_on_look_alikes() -> None:
    rng = np.random.default_rng(0)
    plain, hard = fit_member(_made(rng), (16,), 1e-3, 1, (0.0, 0.32),
                             {"cut": 0.2, "weight": 4.0, "epochs": 20})
    look_alike = (0.6 + 0.35 * rng.standard_normal((500, 8))).astype(np.float32)
    toast = (1.0 + 0.35 * rng.standard_normal((500, 8))).astype(np.float32)
    before = plain.probabilities(look_alike)[:, 1].mean()
    after = hard.probabilities(look_alike)[:, 1].mean()
    assert after < before - 0.08  # the same passes without the weights: about -0.01
    assert hard.probabilities(toast)[:, 1].mean() > 0.8  # the toast itself still fires


def test_without_a_hard_pass_one_network_comes_back() -> None:
    nets = fit_member(_made(np.random.default_rng(1), voices=2), (8,), 1e-3, 1, (0.0, 0.32))
    assert len(nets) == 1


def test_validation_voices_are_left_out_of_training() -> None:
    made = _made(np.random.default_rng(2), voices=2)
    made[0]["voice"] = "espeak-en-us-Lee-175"  # a validation voice
    x, y = training_rows(made, (0.0, 0.32))
    assert len(x) == len(y) == sum(len(m["ends"]) for m in made[1:])
    assert np.bincount(y).tolist() == [2 * 1560, 300, 2 * 300]


def _linear(logits_of_x0: tuple[float, float], bias: tuple[float, float, float]):
    from hardware.speech.spotter import Net

    w = np.array([[0.0, logits_of_x0[0], 0.0], [0.0, logits_of_x0[1], 0.0]], np.float32)
    return Net(np.zeros(2, np.float32), np.ones(2, np.float32),
               ((w, np.array(bias, np.float32)),))


def test_the_ensemble_is_the_best_subset_of_networks_on_the_validation_voices() -> None:
    from bench.train_spotter import choose_ensemble

    good = _linear((8.0, 0.0), (0.0, -4.0, -10.0))  # toast 1 when x0 is near 1
    eager = _linear((0.0, 0.0), (0.0, 3.0, -10.0))  # toast 1 whatever it hears
    steps = np.zeros((6, 2), np.float16)
    toast = steps.copy()
    toast[4, 0] = 1.0
    val = ([{"label": 1, "x": toast, "conds": ["clean"], "example": np.zeros(6)}] * 4
           + [{"label": 0, "x": steps, "conds": ["clean"], "example": np.zeros(6)}] * 6)
    members, threshold, curve = choose_ensemble([eager, good, good], val, confirm=1)
    assert members == [1]  # the twin adds nothing; the eager one adds false accepts
    assert 0.3 <= threshold <= 0.97
    assert len(curve) == 7 * 13
    best = [c for c in curve if c["members"] == [1] and c["threshold"] == threshold][0]
    assert (best["accuracy"], best["false_accept"]) == (1.0, 0.0)


def test_the_choice_takes_the_fewest_false_accepts_that_keep_the_accuracy_floor() -> None:
    from bench.train_spotter import choose_ensemble

    # x0: how much the step sounds like toast 1; toasts at 1.0 and 0.5, a look-alike at 0.5 too
    # (it cannot be told from the quiet toast), nothing at 0
    net = _linear((10.0, 0.0), (0.0, -4.8, -10.0))  # 0.5 -> p 0.55, 1.0 -> p 0.99
    def val_of(x0s: list[float], label: int) -> list[dict]:
        out = []
        for x0 in x0s:
            x = np.zeros((6, 2), np.float16)
            x[4, 0] = x0
            out.append({"label": label, "x": x, "conds": ["clean"], "example": np.zeros(6)})
        return out

    val = val_of([1.0] * 8 + [0.5] * 2, 1) + val_of([0.5] + [0.0] * 9, 0)
    members, threshold, curve = choose_ensemble([net], val, confirm=1, floor=0.8)
    chosen = [c for c in curve if c["threshold"] == threshold][0]
    assert (chosen["accuracy"], chosen["false_accept"]) == (0.8, 0.0)  # the loud toasts only
    _, low, _ = choose_ensemble([net], val, confirm=1, floor=1.0)
    eager = [c for c in curve if c["threshold"] == low][0]
    assert (eager["accuracy"], eager["false_accept"]) == (1.0, 0.1)  # all, and the look-alike
    assert low < threshold
    _, best, deaf = choose_ensemble([net], val_of([0.0] * 4, 1) + val, confirm=1, floor=0.99)
    top = max(c["accuracy"] for c in deaf)  # no choice reaches the floor: the best accuracy
    assert [c["accuracy"] for c in deaf if c["threshold"] == best] == [top] and top < 0.99


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # a few passes on purpose
def test_a_fit_shows_its_passes_and_trains_the_same_network(
        capsys: pytest.CaptureFixture[str]) -> None:
    from sklearn.neural_network import MLPClassifier

    from bench.train_spotter import fit_passes

    rng = np.random.default_rng(0)
    x = rng.standard_normal((600, 12)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    plain = MLPClassifier((8,), max_iter=5, random_state=1).fit(x, y)
    shown = MLPClassifier((8,), max_iter=5, random_state=1)
    fit_passes(shown, x, y, "network")
    assert all(np.array_equal(a, b) for a, b in zip(plain.coefs_, shown.coefs_))
    out = capsys.readouterr()
    assert "network" in out.err and "5/5" in out.err and out.out == ""
    assert shown.verbose is False
