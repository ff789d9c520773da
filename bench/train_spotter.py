"""Train the toast spotter: ``python -m bench.train_spotter`` (``make spotter``).

The training set is made here, from scratch, with the machine's speech synthesizers:

- voices: the benchmark's ``tune`` voices and :data:`~bench.voices.SPOTTER_EXTRA_VOICES`
  (espeak-ng variants no reported voice uses, and other speeds); the benchmark's ``report`` and
  babble voices are never used, so ``make bench`` measures voices the spotter has not heard;
- what they say: each toast's ``spellings`` and the ``negatives`` of
  ``hardware/speech/lexicons/spotter-en.json`` (near misses, party words and sentences; not the
  benchmark's chatter sentences), sometimes with a negative word said just before the toast;
  look-alike words (negatives of one or two words) get twice the examples of a sentence;
- noise: none, pink noise at 0-25 dB signal-to-noise, or babble of 1, 2, 4 or 6 training voices
  saying :data:`BABBLE_LINES` (neither the benchmark's babble nor its chatter) at 0-20 dB; speech levels
  varied by ±8 dB, speed by ±12 % and spectral tilt at random (:func:`perturb`).

Each example becomes a row per 80 ms step: the last ``window`` embeddings, labelled with the toast
when the step ends 0-0.32 s after the toast ends, "none" when it ends before the toast is nearly
over (so half a "chin chin" does not fire), and left out in between.  One network (two
hidden layers, scikit-learn) is trained per noise mix of :data:`MIXES`, then (the second) trained
on with its hard negatives weighted (:data:`HARD`, :func:`fit_member`).  Which of these networks the box
averages, and its firing threshold, are chosen on the
:data:`~bench.voices.SPOTTER_VALIDATION_IDS` voices, which no network trains on
(:func:`choose_ensemble`).  The weights go to ``hardware/speech/lexicons/spotter-en*.npz``,
their names and the threshold into the JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench.corpus import FLOOR_DBFS, SPEECH_DBFS, active_power, babble_lane, pink_noise, synthesize
from bench.voices import ALL_VOICES, SPOTTER_EXTRA_VOICES, SPOTTER_VALIDATION_IDS, Voice
from hardware.speech.audio import RATE
from hardware.speech.lexicon import LEXICON_DIR
from hardware.speech.spotter import EMB_DIM, EMB_SPAN, STEP, Embedder, Net, save_net

#: the hard-negative pass of :func:`fit_member`
HARD: dict[str, float] = {"cut": 0.2, "weight": 4.0, "epochs": 20}
#: how each network's training set mixes its noise: babble tracks (talkers each), the highest
#: babble signal-to-noise ratio, how many babble examples each toast utterance gets, and how
#: many examples each look-alike word gets; then its hard-negative pass, if any.  The mixes
#: differ on purpose: an ensemble is only as good as its members' disagreements.  The first
#: mix's hard-negative sequel is not trained: when the shipped networks were made, with it among
#: the candidates, the validation voices chose the first mix's plain network and the second's
#: sequel; leaving it out saves a tenth of ``make spotter``.
MIXES: tuple[dict[str, Any], ...] = (
    {"talkers": (1, 3, 6), "babble_snr": 25.0, "babble_examples": 2, "word_examples": 4,
     "hard": None},
    {"talkers": (1, 2, 4, 4, 6), "babble_snr": 20.0, "babble_examples": 3, "word_examples": 4,
     "hard": HARD},
)
#: the least share of the validation voices' toasts the chosen networks and threshold must hear
#: right: what the previous spotter heard there (two plain networks at 0.6), so that a retraining
#: buys its fewer false accepts with no toast lost (:func:`choose_ensemble`)
ACCURACY_FLOOR = 0.82
#: the firing thresholds :func:`choose_ensemble` tries
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
POSITIVE_S = (0.0, 0.32)  # a step ending this long after a toast's end is labelled with it
NOT_YET_S = 0.2  # a step ending more than this before a toast's end is labelled "none"

_embedder: Embedder | None = None
_babble: list[np.ndarray] = []  # babble tracks of the member's mix
_mix: dict[str, Any] = {}


def training_voices() -> list[Voice]:
    """The voices the spotter learns from (and is validated on), installed ones only."""
    voices = [v for v in ALL_VOICES if v.split == "tune"] + list(SPOTTER_EXTRA_VOICES)
    return [v for v in voices if v.available()]


#: what the training babble's talkers say (neither the benchmark's babble nor its chatter)
BABBLE_LINES: tuple[str, ...] = (
    "so we drove all the way up to the lake and it rained the whole time",
    "honestly I do not know why he keeps buying those shoes",
    "the new place on the corner does a really good curry",
    "are you still working at the same office as last year",
    "my sister has two cats and a very loud parrot",
    "we missed the last train and had to walk home",
    "I keep forgetting to call the plumber about the sink",
    "they are thinking about moving to the coast next spring",
    "it took me three hours to finish that puzzle",
    "the band played until almost two in the morning",
    "have you tried the cake that Anna brought",
    "he told me the whole story twice before dinner",
    "we could go hiking on sunday if the weather holds",
    "nobody knows where the remote control went",
    "she was laughing so hard she nearly dropped her glass",
    "the kids are staying with their grandparents this weekend",
)


def make_training_babble(voices: list[Voice], seconds: float, seed: int,
                         talkers: int) -> np.ndarray:
    """``talkers`` overlapping talkers drawn from ``voices`` saying :data:`BABBLE_LINES`,
    unit power."""
    rng = random.Random(seed)
    pool = [(v, s) for v in voices if v.synth != "festival" for s in BABBLE_LINES]
    picked = rng.sample(pool, min(120, len(pool)))
    clips = [synthesize(v, s) for v, s in picked]
    n = int(seconds * RATE)
    track = np.zeros(n, np.float32)
    for talker in range(talkers):
        lane = babble_lane(lambda: rng.choice(clips), n, rng, RATE // 2)
        track += lane * (0.7 + 0.3 * talker / max(1, talkers - 1) if talkers == 4
                         else rng.uniform(0.5, 1.0))
    return track / np.sqrt(np.mean(track**2))


def _init(babble: list[np.ndarray], mix: dict[str, Any]) -> None:
    global _embedder, _babble, _mix
    _embedder = Embedder()
    _babble = babble
    _mix = mix


def perturb(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another speaker from the same voice: speed (and so pitch) changed by up to 12 %, and
    a random spectral tilt (a brighter or duller microphone)."""
    from hardware.speech.audio import resample

    y = resample(x, int(RATE * rng.uniform(0.88, 1.12)), RATE)
    a = rng.uniform(-0.6, 0.6)
    y = y.copy()
    y[1:] += a * y[:-1]
    return y.astype(np.float32)


def compose(speech: np.ndarray, before: np.ndarray | None, noise: str, snr_db: float,
            rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """One example as int16: noise-only lead-in, maybe another word, the speech, a tail.
    Returns the samples and where the speech starts and ends."""
    speech = perturb(speech, rng)
    level = 10 ** ((SPEECH_DBFS + rng.uniform(-8, 8)) / 20)
    s = speech * (level / np.sqrt(active_power(speech)))
    parts = [np.zeros(int(rng.uniform(1.4, 2.4) * RATE), np.float32)]
    if before is not None:
        parts += [before * (level / np.sqrt(active_power(before))),
                  np.zeros(int(rng.uniform(0.25, 0.6) * RATE), np.float32)]
    start = sum(len(p) for p in parts)
    parts += [s, np.zeros(int(rng.uniform(0.7, 1.0) * RATE), np.float32)]
    x = np.concatenate(parts)
    end = start + len(s)
    x += rng.standard_normal(len(x)).astype(np.float32) * 10 ** (FLOOR_DBFS / 20)
    if noise != "clean":
        if noise == "pink":
            n = pink_noise(len(x), rng)
        else:
            track = _babble[int(rng.integers(0, len(_babble)))]
            at = int(rng.integers(0, len(track) - len(x)))
            n = track[at: at + len(x)]
        x += n * np.sqrt(active_power(s) / 10 ** (snr_db / 10))
    peak = float(np.max(np.abs(x)))
    if peak > 0.95:
        x *= 0.95 / peak
    return np.clip(np.round(x * 32767), -32768, 32767).astype(np.int16), start, end


def rows_of(pcm: np.ndarray, end: int, window: int) -> tuple[np.ndarray, np.ndarray]:
    """The example's steps: flattened windows and their end times (s after the speech's end;
    :func:`labels` turns these into labels at training time)."""
    assert _embedder is not None
    emb = _embedder.embeddings(pcm)
    n = len(emb) - window + 1
    if n <= 0:
        return np.zeros((0, window * EMB_DIM), np.float16), np.zeros(0)
    idx = np.arange(window)[None, :] + np.arange(n)[:, None]
    x = emb[idx].reshape(n, -1)
    ends = (np.arange(window - 1, len(emb)) * STEP + EMB_SPAN - end) / RATE
    return x.astype(np.float16), ends


def labels(label: int, ends: np.ndarray, positive: tuple[float, float] = POSITIVE_S
           ) -> np.ndarray:
    """Each step's label: the toast when the step ends ``positive`` seconds after the toast's
    end, "none" (0) well before it, left out (-1) in between; always 0 for a non-toast."""
    y = np.zeros(len(ends), np.int8)
    if label:
        y[:] = -1
        y[ends < -NOT_YET_S] = 0
        y[(ends >= positive[0]) & (ends <= positive[1])] = label
    return y


def examples(job: tuple[Voice, str, int, list[str], int, int]) -> dict[str, Any]:
    """Synthesize one voice saying one text, and make its noisy examples' rows."""
    voice, text, label, before_words, window, seed = job
    rng = np.random.default_rng(seed)
    try:
        speech = synthesize(voice, text)
    except Exception as err:  # a synthesizer that fails on a word: skip the word
        return {"error": f"{voice.id} {text!r}: {err}"}
    conds = (["clean", "clean", "pink", "pink"] + ["babble"] * int(_mix["babble_examples"])
             if label
             else [str(rng.choice(["clean", "pink", "babble"])), "babble"])
    if not label and len(text.split()) <= 2:  # look-alike words: the hardest to refuse
        conds += [str(rng.choice(["clean", "pink", "babble"]))
                  for _ in range(int(_mix.get("word_examples", 2)) - 2)]
    if voice.synth != "espeak":  # fewer voices than espeak-ng has: twice the examples each
        conds = conds + conds
    xs, ends, cond_of = [], [], []
    for i, cond in enumerate(conds):
        before = None
        if label and before_words and rng.random() < 0.3:
            before = synthesize(voice, str(rng.choice(before_words)))
        snr = float(rng.uniform(0, _mix["babble_snr"]) if cond == "babble" else rng.uniform(0, 25))
        pcm, _, s1 = compose(speech, before, cond, snr, rng)
        x, e = rows_of(pcm, s1, window)
        xs.append(x)
        ends.append(e)
        cond_of.append(np.full(len(e), i, np.int8))
    return {"voice": voice.id, "text": text, "label": label, "conds": conds,
            "x": np.concatenate(xs), "ends": np.concatenate(ends),
            "example": np.concatenate(cond_of)}


def first_fire(p: np.ndarray, threshold: float, confirm: int) -> int:
    """The class the stream would fire first (0: none) for one example's step probabilities:
    the first toast whose probability is at least ``threshold`` on ``confirm`` steps in a row
    (as :class:`~hardware.speech.spotter.SpotStream` decides)."""
    for t in range(confirm - 1, len(p)):
        q = p[t - confirm + 1: t + 1].min(axis=0)
        best = int(np.argmax(q[1:])) + 1
        if q[best] >= threshold:
            return best
    return 0


def choose_ensemble(nets: list[Net], val: list[dict[str, Any]], confirm: int,
                    floor: float = ACCURACY_FLOOR
                    ) -> tuple[list[int], float, list[dict[str, Any]]]:
    """The networks to average and the threshold, on the validation voices (each example
    judged as the stream would): the fewest false accepts among the choices that hear at least
    ``floor`` of the toasts right; among equal false accepts the best accuracy, then fewer
    networks, then the lower threshold.  When no choice reaches ``floor``, the best accuracy.
    Returns their indices, the threshold and every choice's numbers."""
    from itertools import combinations

    probs = [[n.probabilities(r["x"].astype(np.float32)) for r in val] for n in nets]
    curve = []
    for k in range(1, len(nets) + 1):
        for members in combinations(range(len(nets)), k):
            judged = []
            for j, r in enumerate(val):
                p = np.mean([probs[m][j] for m in members], axis=0)
                judged += [(r["label"], p[r["example"] == i]) for i in range(len(r["conds"]))]
            for thr in THRESHOLDS:
                fired = [(lab, first_fire(p, float(thr), confirm)) for lab, p in judged]
                acc = float(np.mean([f == lab for lab, f in fired if lab]))
                fa = float(np.mean([f != 0 for lab, f in fired if not lab]))
                curve.append({"members": list(members), "threshold": round(float(thr), 2),
                              "accuracy": round(acc, 3), "false_accept": round(fa, 3)})
    enough = [c for c in curve if c["accuracy"] >= floor]
    if enough:
        best = min(enough, key=lambda c: (c["false_accept"], -c["accuracy"], len(c["members"]),
                                          c["threshold"]))
    else:
        print(f"no choice hears {floor} of the validation toasts: taking the best accuracy",
              file=sys.stderr)
        best = max(curve, key=lambda c: (c["accuracy"], -c["false_accept"], -len(c["members"])))
    return best["members"], best["threshold"], curve


def make_examples(lex: dict[str, Any], voices: list[Voice], window: int, seed: int,
                  workers: int, mix: dict[str, Any]) -> list[dict[str, Any]]:
    """Every training example's rows (see the module docstring)."""
    classes: list[str] = lex["classes"]
    negatives: list[str] = lex["negatives"]
    words = [n for n in negatives if len(n.split()) == 1]
    babble = [make_training_babble(voices, 200.0, seed + k, k) for k in mix["talkers"]]
    jobs = []
    for v in voices:
        for tid, entry in lex["toasts"].items():
            for sp in entry["spellings"]:
                jobs.append((v, sp, 1 + classes.index(tid), words, window, len(jobs) + seed))
        for neg in negatives:
            jobs.append((v, neg, 0, [], window, len(jobs) + seed))
    print(f"{len(voices)} voices, {len(jobs)} utterances", file=sys.stderr)
    with ProcessPoolExecutor(workers, initializer=_init, initargs=(babble, mix)) as pool:
        from tqdm import tqdm  # the progress bar of `make spotter`: utterances done of all

        made = list(tqdm(pool.map(examples, jobs, chunksize=4), total=len(jobs),
                         desc="utterances", unit="utt",
                         file=sys.stderr))
    for m in [m for m in made if "error" in m][:10]:
        print("skipped:", m["error"], file=sys.stderr)
    return [m for m in made if "error" not in m]


def training_rows(made: list[dict[str, Any]], positive: tuple[float, float]
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The labelled steps of the training voices' examples (validation voices left out, and
    the steps between "none" and the toast)."""
    fit = [m for m in made if m["voice"] not in SPOTTER_VALIDATION_IDS]
    x = np.concatenate([m["x"] for m in fit]).astype(np.float32)
    y = np.concatenate([labels(m["label"], m["ends"], positive) for m in fit]).astype(np.int64)
    keep = y >= 0
    return x[keep], y[keep]


class _PassBar(io.TextIOBase):
    """scikit-learn's verbose lines, one a pass through the data, as a progress bar."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar

    def write(self, text: str) -> int:
        if text.startswith("Iteration"):  # "Iteration 3, loss = 0.04211"
            self.bar.update(1)
            self.bar.set_postfix_str(text.split(",", 1)[-1].strip())
        return len(text)


def fit_passes(clf: Any, x: np.ndarray, y: np.ndarray, desc: str, **fit_args: Any) -> None:
    """``clf.fit`` with a progress bar of its passes (at most ``max_iter``; early stopping may
    end it sooner).  Only what is printed changes: the fit is the same."""
    from tqdm import tqdm

    clf.set_params(verbose=True)
    try:
        with tqdm(total=int(clf.max_iter), desc=desc, unit="pass", file=sys.stderr) as bar, \
                contextlib.redirect_stdout(_PassBar(bar)):
            clf.fit(x, y, **fit_args)
    finally:
        clf.set_params(verbose=False)


def fit_member(made: list[dict[str, Any]], hidden: tuple[int, ...], alpha: float, seed: int,
               positive: tuple[float, float], hard: dict[str, float] | None = None
               ) -> list[Net]:
    """Train one network on the examples of the training voices.  With ``hard``, train it on
    for up to ``hard["epochs"]`` more passes with the "no toast" steps it still gives a toast a
    probability above ``hard["cut"]`` weighted ``hard["weight"]`` times (hard negatives:
    mostly the look-alike words).  Returns the network, then its hard-negative sequel."""
    from sklearn.neural_network import MLPClassifier

    x, y = training_rows(made, positive)
    print(f"{len(y)} training rows, per class {np.bincount(y).tolist()}", file=sys.stderr)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    x -= mean
    x /= scale
    clf = MLPClassifier(hidden, alpha=alpha, batch_size=256, learning_rate_init=1e-3,
                        max_iter=60, early_stopping=True, n_iter_no_change=6,
                        random_state=seed)
    fit_passes(clf, x, y, "network")

    def net() -> Net:
        return Net(mean.astype(np.float32), scale.astype(np.float32),
                   tuple((w.astype(np.float32), b.astype(np.float32))
                         for w, b in zip(clf.coefs_, clf.intercepts_)))

    nets = [net()]
    if hard:
        p = clf.predict_proba(x)
        is_hard = (y == 0) & (p[:, 1:].max(axis=1) > hard["cut"])
        print(f"{int(is_hard.sum())} hard negative rows", file=sys.stderr)
        # warm start: the network goes on from where it is, with a fresh optimiser, up to
        # ``epochs`` passes, early stopping as before (on the weighted held-out tenth)
        clf.set_params(warm_start=True, max_iter=int(hard["epochs"]))
        fit_passes(clf, x, y, "hard negatives", sample_weight=np.where(is_hard, hard["weight"], 1.0))
        nets.append(net())
    return nets


def train(out_dir: Path, lexicon_name: str = "spotter-en", workers: int = 2,
          seed: int = 7, hidden: tuple[int, ...] = (256, 128), limit_voices: int | None = None,
          cache: Path | None = None, alpha: float = 1e-2,
          positive: tuple[float, float] = POSITIVE_S) -> dict[str, Any]:
    """For each of :data:`MIXES`: make its training set (or read it from ``cache``), train a
    network. Then choose the ensemble's threshold on the validation voices of every mix, and
    write the weights and the JSON."""
    import pickle

    lex_path = LEXICON_DIR / f"{lexicon_name}.json"
    lex = json.loads(lex_path.read_text())
    window = int(lex["window"])
    voices = training_voices()
    if limit_voices:
        keep_val = [v for v in voices if v.id in SPOTTER_VALIDATION_IDS][:1]
        voices = voices[:limit_voices] + keep_val
    t0 = time.time()
    nets: list[Net] = []
    kinds: list[str] = []
    val: list[dict[str, Any]] = []
    for i, mix in enumerate(MIXES):
        part = cache.with_name(f"{cache.stem}-{i + 1}{cache.suffix}") if cache else None
        if part is not None and part.exists():
            made = pickle.loads(part.read_bytes())
        else:
            made = make_examples(lex, voices, window, seed, workers, mix)
            if part is not None:
                part.write_bytes(pickle.dumps(made, protocol=5))
        print(f"mix {i + 1}: features after {time.time() - t0:.0f} s", file=sys.stderr)
        trained = fit_member(made, hidden, alpha, seed, positive, mix.get("hard"))
        nets += trained
        kinds += [f"mix {i + 1} {kind}" for kind in ("plain", "hard")[:len(trained)]]
        val += [m for m in made if m["voice"] in SPOTTER_VALIDATION_IDS]
        del made
    members, threshold, curve = choose_ensemble(nets, val, int(lex.get("confirm", 1)))
    for old in out_dir.glob(f"{lexicon_name}*.npz"):
        old.unlink()
    files = [f"{lexicon_name}.npz"] + [f"{lexicon_name}-{k + 1}.npz" for k in range(1, len(members))]
    for name, m in zip(files, members):
        save_net(out_dir / name, nets[m])
    lex["weights"] = files
    lex["threshold"] = threshold
    lex.pop("thresholds", None)  # the per-toast ones are the whole ensemble's (bench.fit_spotter)
    (out_dir / f"{lexicon_name}.json").write_text(json.dumps(lex, indent=2) + "\n")
    print(f"trained in {time.time() - t0:.0f} s; networks {[kinds[m] for m in members]}, "
          f"threshold {threshold}", file=sys.stderr)
    return {"threshold": threshold, "members": [kinds[m] for m in members], "curve": curve,
            "voices": len(voices)}


def main(argv: list[str] | None = None) -> int:
    """Command line: train and print the validation curve."""
    ap = argparse.ArgumentParser(prog="python -m bench.train_spotter", description=__doc__)
    ap.add_argument("--out", type=Path, default=LEXICON_DIR)
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 128],
                    help="units of each hidden layer")
    ap.add_argument("--limit-voices", type=int, help="train on the first N voices only (a quick try)")
    ap.add_argument("--alpha", type=float, default=1e-2, help="L2 penalty of the network")
    ap.add_argument("--cache", type=Path, help="keep the training set in this file and reuse it")
    ap.add_argument("--positive", type=float, nargs=2, default=POSITIVE_S,
                    help="label a step with the toast when it ends this long after the toast")
    args = ap.parse_args(argv)
    result = train(args.out, workers=args.workers, hidden=tuple(args.hidden),
                   limit_voices=args.limit_voices, cache=args.cache, alpha=args.alpha,
                   positive=tuple(args.positive))
    for c in result["curve"]:
        print(json.dumps(c))
    print(json.dumps({k: v for k, v in result.items() if k != "curve"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
