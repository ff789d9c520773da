"""Listening for the card's word, measured on the families left out, claim by claim.

The referee never needs to know *which* toast was said: a claim wins only if the word the card
asks for is heard (the card's drinker's toast), and any other toast or none is the same mistake.
So while a card is in play the spotter may lower that toast's threshold
(:meth:`hardware.speech.spotter.SpotterEngine.expect`). Each toast's *expected threshold* is
chosen on a fold's validation voices (:func:`expected_thresholds`), and the claims are then
judged on the family that fold left out, as the game judges them: the first toast the stream
fires decides (:func:`first_verdicts`).

- **right**: a clip of toast k, with k expected, is heard as k;
- **false accepts**: a clip of anything else (another toast, a look-alike word or sentence, a
  party sound), with k expected, is heard as k, averaged over the six k.

Run on the folds :mod:`bench.threshold_rules` keeps (each fold fitted once):

    python -m bench.threshold_rules --keep /tmp/folds
    python -m bench.expected_word --keep /tmp/folds --out bench/expected-word.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

from bench import spotter_lofo as L

#: a claim's false accepts allowed on the validation voices when a toast's threshold is lowered
CLAIM_FA_BUDGET = 0.03


def first_verdicts(p: np.ndarray, thr: np.ndarray) -> np.ndarray:
    """Each example's first fired toast (1-based; 0 none) under per-class thresholds ``thr``:
    ``p`` is (examples, steps, classes), as :class:`bench.spotter_lofo.Judged` stacks them. At
    the first step where a toast is at or above its threshold, the most probable of those (as
    :func:`hardware.speech.spotter.fires`)."""
    toast_p = p[:, :, 1:]
    over = toast_p >= np.asarray(thr)[1:]
    any_over = over.any(axis=2)
    first = np.argmax(any_over, axis=1)
    fired = any_over[np.arange(len(p)), first]
    at = np.where(over, toast_p, -1.0)[np.arange(len(p)), first]
    return np.where(fired, np.argmax(at, axis=1) + 1, 0)


def claim_rates(judged: L.Judged, thr: np.ndarray, k: int) -> tuple[float, float]:
    """With toast ``k`` expected at thresholds ``thr``: the share of k's clips heard as k, and
    of every other clip heard as k."""
    v = first_verdicts(judged.p, thr)
    mine = judged.label == k
    right = float(np.mean(v[mine] == k)) if mine.any() else float("nan")
    fa = float(np.mean(v[~mine] == k)) if (~mine).any() else 0.0
    return right, fa


def expected_thresholds(judged: L.Judged, base: np.ndarray, budget: float = CLAIM_FA_BUDGET,
                        grid: tuple[float, ...] = L.TOAST_GRID) -> np.ndarray:
    """Each toast's threshold while it is expected: the lowest of ``grid`` (never above its own
    ``base``) at which the other clips of the validation voices are heard as it at most
    ``budget`` of the time, the other toasts keeping their thresholds."""
    out = np.array(base, np.float64).copy()
    for k in range(1, len(base)):
        for g in grid:
            if g >= base[k]:
                break
            trial = np.array(base, np.float64).copy()
            trial[k] = g
            if claim_rates(judged, trial, k)[1] <= budget:
                out[k] = g
                break
    return out


def claims(judged: L.Judged, base: np.ndarray, expected: np.ndarray) -> dict[str, Any]:
    """Claims judged with every toast at its own threshold ("now") and with the card's word at
    its expected one ("expecting"): right clean and at 10 dB, false accepts, per toast."""
    out: dict[str, Any] = {}
    for name, lowered in (("now", False), ("expecting", True)):
        clean_r, noisy_r, fas, per_toast = [], [], [], {}
        for k in range(1, len(base)):
            thr = np.array(base, np.float64).copy()
            if lowered:
                thr[k] = expected[k]
            v = first_verdicts(judged.p, thr)
            mine = judged.label == k
            if not mine.any():
                continue
            clean_r.append(v[mine & judged.clean] == k)
            noisy_r.append(v[mine & ~judged.clean] == k)
            fas.append(float(np.mean(v[~mine] == k)) if (~mine).any() else 0.0)
            per_toast[L.CLASSES[k - 1]] = round(float(np.mean(v[mine & judged.clean] == k)), 3) \
                if (mine & judged.clean).any() else None
        c, n = np.concatenate(clean_r or [[]]), np.concatenate(noisy_r or [[]])
        out[name] = {"right_clean": round(float(c.mean()), 3) if len(c) else None,
                     "right_10db": round(float(n.mean()), 3) if len(n) else None,
                     "false_accept": round(float(np.mean(fas)), 4) if fas else None,
                     "per_toast_clean": per_toast}
    return out


def measure(keep: Path) -> dict[str, Any]:
    """Every kept fold: expected thresholds chosen on its validation voices with the shipped
    threshold rule's own thresholds as the base, its left-out families' claims judged."""
    folds = {p.stem: pickle.loads(p.read_bytes()) for p in sorted(keep.glob("fold-*.pkl"))}
    if not folds:
        raise SystemExit(f"no fold kept under {keep}: run python -m bench.threshold_rules --keep {keep}")
    families: dict[str, Any] = {}
    chosen: dict[str, Any] = {}
    for fold, kept in folds.items():
        val = L.Judged([(None, m) for m, _ in kept["val"]], [p for _, p in kept["val"]])
        base = L.steady_toast_thresholds(val)[0]
        expected = expected_thresholds(val, base)
        chosen[fold] = {"thresholds": L.toast_thresholds(base),
                        "expected_thresholds": L.toast_thresholds(expected)}
        for fam, rows in kept["test"].items():
            test = L.Judged([(None, m) for m, _ in rows], [p for _, p in rows])
            families[fam] = claims(test, base, expected)
            e, n = families[fam]["expecting"], families[fam]["now"]
            print(f"{fam:14} now {n['right_clean']} / {n['right_10db']} / {n['false_accept']}"
                  f"   expecting {e['right_clean']} / {e['right_10db']} / {e['false_accept']}",
                  file=sys.stderr)
    left_out = [f for f in families if f in L.SHIPPED_NEVER_HEARD]
    mean = {name: {key: round(float(np.mean([families[f][name][key] for f in left_out])), 3)
                   for key in ("right_clean", "right_10db", "false_accept")}
            for name in ("now", "expecting")} if left_out else {}
    return {"what": __doc__.split("\n\n")[0], "budget": CLAIM_FA_BUDGET,
            "left_out_family_mean": mean, "families": families, "folds": chosen}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.expected_word", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, required=True, help="the folds bench.threshold_rules kept")
    ap.add_argument("--out", type=Path, default=Path("bench/expected-word.json"))
    opts = ap.parse_args(argv)
    report = measure(opts.keep)
    opts.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(report["left_out_family_mean"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
