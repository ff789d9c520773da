"""Threshold rules compared on the families left out, each fold fitted once.

A fold's networks do not depend on how its thresholds are chosen, so each fold of
:mod:`bench.spotter_lofo` (the five families each left out, and the fold ``make spotter`` makes,
measured on Pico's and MBROLA's voices) is fitted once and the ensemble's step probabilities on
its validation and held-out examples are kept under ``--keep``; every rule then chooses its
thresholds on a fold's validation examples and is scored on its held-out ones in seconds instead
of a fit per rule.  With the rule that ships (:func:`bench.spotter_lofo.steady_toast_thresholds`)
the figures are those of ``python -m bench.spotter_lofo``.

    python -m bench.threshold_rules --keep /tmp/folds --out bench/threshold-rules.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench import spotter_lofo as L
from bench.spotter_data import build_cache, default_cache, families

Rule = Callable[[L.Judged], np.ndarray]


def one_threshold(judged: L.Judged, budget: float = L.FA_BUDGET) -> np.ndarray:
    """The lowest threshold of :data:`bench.spotter_lofo.TOAST_GRID`, the same for every toast,
    whose false accepts are within ``budget`` (else the highest)."""
    ok = [t for t in L.TOAST_GRID if judged.rates(t)[1] <= budget]
    return L.per_class(ok[0] if ok else L.TOAST_GRID[-1])


def on_grid(per_toast: np.ndarray) -> np.ndarray:
    """Per-toast thresholds, each moved to the nearest of the grid's, as per-class ones."""
    grid = np.array(L.TOAST_GRID)
    out = L.per_class(np.inf)
    out[1:] = [grid[np.argmin(abs(grid - v))] for v in per_toast]
    return out


def halfway(judged: L.Judged, budget: float = L.FA_BUDGET) -> np.ndarray:
    """Each toast's single choice and the one threshold for all averaged, on the grid."""
    a, b = L.choose_toast_thresholds(judged, budget)[0], one_threshold(judged, budget)
    return on_grid((a[1:] + b[1:]) / 2)


def resampled_mean(judged: L.Judged, budget: float = L.FA_BUDGET) -> np.ndarray:
    """The resamplings' choices averaged instead of their median, on the grid."""
    moves = L.steady_toast_thresholds(judged, budget)[1]
    return on_grid(np.mean([m["thresholds"] for m in moves[:-1]], axis=0))


RULES: dict[str, tuple[str, Rule]] = {
    "once": ("each toast's threshold chosen once on the validation examples (shipped before)",
             lambda j: L.choose_toast_thresholds(j)[0]),
    "median": (f"the median of {L.THRESHOLD_RESAMPLES} resamplings' choices (ships)",
               lambda j: L.steady_toast_thresholds(j)[0]),
    "mean": (f"the mean of the same {L.THRESHOLD_RESAMPLES} choices", resampled_mean),
    "one": ("one threshold for every toast", one_threshold),
    "halfway": ("halfway between each toast's choice and the one threshold", halfway),
    "once-0.025": ("chosen once within 0.025 false accepts",
                   lambda j: L.choose_toast_thresholds(j, 0.025)[0]),
    "median-0.025": (f"the median of {L.THRESHOLD_RESAMPLES} resamplings' choices within 0.025",
                     lambda j: L.steady_toast_thresholds(j, 0.025)[0]),
}

_keep: Path = Path()


def _fold(fams: tuple[str, ...]) -> tuple[str, ...]:
    """Fit the recipe without ``fams`` and keep its step probabilities."""
    fit, val, _ = L.split(L._data, fams[0])
    nets = L.fit_members(fit, f"[without {' '.join(fams)}] ")
    ens = L.Ensemble(nets + L.lexicon_nets(L.BASE))
    kept: dict[str, Any] = {"val": [(m, p) for (_, m), p in zip(val, L.step_probabilities(ens, val))],
                            "test": {}}
    for f in fams:
        test = L.split(L._data, f)[2]
        kept["test"][f] = [(m, p) for (_, m), p in zip(test, L.step_probabilities(ens, test))]
    (_keep / ("fold-" + "+".join(fams) + ".pkl")).write_bytes(pickle.dumps(kept))
    return fams


def _init(cache: Path, voices: list, keep: Path) -> None:
    global _keep
    _keep = keep
    L._init(cache, voices)


def fit_folds(cache: Path, keep: Path, workers: int = 2) -> None:
    """Each fold of :func:`bench.spotter_lofo.run` fitted once, its probabilities under ``keep``
    (a fold already kept there is not fitted again)."""
    voices = build_cache(cache, workers=min(workers, 3))
    fams = [f for f in families() if any(v.family == f for v in voices)]
    jobs = [j for j in L.shipped_folds(fams) if not (keep / ("fold-" + "+".join(j) + ".pkl")).exists()]
    keep.mkdir(parents=True, exist_ok=True)
    if jobs:
        with ProcessPoolExecutor(workers, initializer=_init, initargs=(cache, voices, keep)) as pool:
            for fams_ in pool.map(_fold, jobs):
                print(f"kept the fold without {' '.join(fams_)}", file=sys.stderr)


def compare(keep: Path, rules: list[str]) -> dict[str, Any]:
    """Each rule's figures on the kept folds: the five families' mean, Pico's and MBROLA's, and
    each toast's threshold in each fold with its spread over the folds."""
    folds = {p.stem: pickle.loads(p.read_bytes()) for p in sorted(keep.glob("fold-*.pkl"))}
    if not folds:
        raise SystemExit(f"no fold kept under {keep}: run without --compare-only first")
    out = {}
    for name in rules:
        what, rule = RULES[name]
        scores, thresholds = {}, {}
        for fold, kept in folds.items():
            thr = rule(L.Judged([(None, m) for m, _ in kept["val"]], [p for _, p in kept["val"]]))
            thresholds[fold] = L.toast_thresholds(thr)
            for fam, rows in kept["test"].items():
                scores[fam] = L.score([(None, m) for m, _ in rows], [p for _, p in rows], thr)
        spread = np.array([list(t.values()) for t in thresholds.values()]).std(axis=0)
        out[name] = {
            "what": what,
            "left_out_family": L.summary({f: s for f, s in scores.items()
                                          if f in L.SHIPPED_NEVER_HEARD}),
            **{f: {k: scores[f][k] for k in ("accuracy_clean", "accuracy_10db", "false_accept",
                                             "per_toast_clean")}
               for f in ("pico", *L.ALSO_MEASURED) if f in scores},
            "thresholds": thresholds,
            "spread": {t: round(float(s), 3) for t, s in zip(L.CLASSES, spread)},
        }
        s = out[name]["left_out_family"]
        print(f"{name:13} {s['accuracy_clean']} / {s['accuracy_10db']} / {s['false_accept']}"
              f"  mean spread {np.mean(spread):.3f}  ({what})", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.threshold_rules", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--keep", type=Path, required=True,
                    help="folder for each fold's probabilities (a few MB each)")
    ap.add_argument("--out", type=Path, default=Path("bench/threshold-rules.json"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rules", nargs="*", choices=list(RULES), default=list(RULES))
    ap.add_argument("--compare-only", action="store_true", help="only the folds already kept")
    args = ap.parse_args(argv)
    if not args.compare_only:
        fit_folds(args.cache or default_cache(), args.keep, args.workers)
    report = compare(args.keep, args.rules)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
