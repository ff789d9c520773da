"""Listening for the card's word, measured on the families left out, claim by claim.

The referee never needs to know *which* toast was said: a claim wins only if the word the card
asks for is heard (the card's drinker's toast), and any other toast or none is the same mistake.
So while a card is in play the spotter may lower that toast's threshold
(:meth:`hardware.speech.spotter.SpotterEngine.expect`). Each toast's *expected threshold* is
chosen on a fold's validation voices (:func:`bench.spotter_lofo.expected_thresholds`, as
``make spotter`` chooses the shipped ones), and the claims are then
judged on the family that fold left out, as the game judges them: the first toast the stream
fires decides (:func:`bench.spotter_lofo.first_verdicts`).

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
from bench.spotter_lofo import CLAIM_FA_BUDGET, claims, expected_thresholds


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
