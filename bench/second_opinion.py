"""PocketSphinx as a second opinion on the spotter's toasts, on voices it never trained on.

``python -m bench.second_opinion``: the voices of the families the shipped spotter never heard
(:data:`bench.spotter_lofo.SHIPPED_NEVER_HEARD`) say every toast and their measured look-alike
words and sentences (:func:`bench.spotter_data.utterances_for`), made like the held-out examples
(speech at -26 dBFS; clean, pink noise and 5-talker babble of the benchmark's babble voices at
10 dB).  The spotter judges each clip as ``clinkbox speech classify`` does; when it hears a
toast, PocketSphinx's English model (trained on real speech) decodes the stretch the toast
covers with its grammar (every toast's pronunciations, the near-miss words, a free phone loop),
and these rules are measured:

- ``spotter``: the spotter alone (the box today);
- ``veto near misses``: the toast is dropped when a near-miss word ("cheese", "salad", "can't
  pay"...) wins the stretch;
- ``veto other toasts``: dropped when a near-miss word or *another* toast wins;
- ``must agree``: kept only when PocketSphinx decodes the same toast;
- ``rescue`` (``--rescue``): the other way round, PocketSphinx lets through a toast the spotter
  nearly heard: when the spotter hears nothing at its own thresholds, the toast it hears at its
  expected thresholds (those a card's awaited word gets, chosen on the validation voices) is
  kept if PocketSphinx decodes that same toast over its stretch; ``rescue from 0.1``: the same
  from any toast whose probability reaches 0.1.

No rule has a number chosen on these voices (PocketSphinx's lexicon is as shipped); the first
two of the spotter's networks never heard them either (the recipe's four, fitted on every
family but Pico, did).  Results go to ``bench/second_opinion.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench.results_file import share
from bench.spotter_data import CLASSES, VOICES, SpotVoice, held_out_babble, judged_clips
from bench.spotter_lofo import SHIPPED_NEVER_HEARD
from hardware.speech.audio import RATE

RULES = ("spotter", "veto near misses", "veto other toasts", "must agree")
RESCUES = ("rescue", "rescue from 0.1")
RESCUE_FLOOR = 0.1
PAD_S = 0.25  # audio around the spotter's stretch that PocketSphinx hears

_spotter: Any = None
_sphinx: Any = None
_babble: np.ndarray | None = None
_nearly: dict[str, Any] = {}  # rescue rule: a spotter listening lower down


def _init(babble: np.ndarray, rescue: bool = False) -> None:
    global _spotter, _sphinx, _babble
    from hardware.speech.pocketsphinx_engine import PocketSphinxEngine
    from hardware.speech.spotter import SpotterEngine

    _spotter, _sphinx, _babble = SpotterEngine(), PocketSphinxEngine(), babble
    _nearly.clear()
    if rescue:
        expected = SpotterEngine()
        expected.expect(expected.toasts)
        _nearly.update({"rescue": expected,
                        "rescue from 0.1": SpotterEngine(threshold=RESCUE_FLOOR)})


def keep(rule: str, toast: str, second: tuple[str, str | None]) -> bool:
    """Whether ``rule`` keeps the spotter's ``toast`` given PocketSphinx's ``second`` opinion."""
    kind, other = second
    if rule == "spotter":
        return True
    if rule == "veto near misses":
        return kind != "near miss"
    if rule == "veto other toasts":
        return kind != "near miss" and not (kind == "toast" and other != toast)
    if rule == "must agree":
        return kind == "toast" and other == toast
    raise ValueError(f"unknown rule {rule!r}")


def judge_voice(v: SpotVoice, seed: int = 3) -> list[dict[str, Any]]:
    """Every measured utterance of ``v`` in every held-out condition, judged."""
    assert _spotter is not None and _sphinx is not None and _babble is not None
    rows = []
    for u, cond, pcm in judged_clips(v, _babble, seed):
        heard = [h for h in _spotter.classify(pcm) if h.toast]
        row: dict[str, Any] = {"voice": v.id, "family": v.family, "text": u.text,
                               "label": u.label, "cond": cond}
        x, _ = _sphinx.prepare(pcm)  # denoised as PocketSphinx hears it
        if heard:
            toast, second = _opinion(x, heard)
            row.update(spotter=toast, second=second)
        for rule, lower in _nearly.items() if not heard else ():
            nearly = [h for h in lower.classify(pcm) if h.toast]
            if nearly:
                row[rule] = list(_opinion(x, nearly))
        rows.append(row)
    return rows


def _opinion(x: np.ndarray, heard: list[Any]) -> tuple[str, list[str | None]]:
    """The most confident of the spotter's ``heard`` toasts, and what wins its stretch of
    ``x`` (PocketSphinx's samples) for PocketSphinx, as [kind, toast]."""
    assert _sphinx is not None
    best = max(heard, key=lambda h: h.confidence)
    a, b = int((best.start - PAD_S) * RATE), int((best.end + PAD_S) * RATE)
    return best.toast, list(_sphinx.winner(x, a, b))


def verdicts(rows: list[dict[str, Any]], rule: str) -> list[int]:
    """Each row's verdict under ``rule`` (0: no toast)."""
    out = []
    for r in rows:
        t = r.get("spotter")
        if rule in RESCUES:
            t = t or rescued(r.get(rule))
            out.append(1 + CLASSES.index(t) if t else 0)
            continue
        out.append(1 + CLASSES.index(t) if t and keep(rule, t, tuple(r["second"])) else 0)
    return out


def rescued(nearly: list[Any] | None) -> str | None:
    """The toast a rescue rule lets through from what the spotter nearly heard (``[toast,
    [kind, toast]]``: the toast and PocketSphinx's opinion of its stretch), or None."""
    if not nearly:
        return None
    toast, (kind, other) = nearly
    return toast if kind == "toast" and other == toast else None


def figures(rows: list[dict[str, Any]], rule: str) -> dict[str, Any]:
    v = verdicts(rows, rule)
    right: dict[str, list[bool]] = defaultdict(list)
    fa: list[bool] = []
    for r, got in zip(rows, v):
        if r["label"]:
            right["clean" if r["cond"] == "clean" else "10db"].append(got == r["label"])
            right[r["cond"]].append(got == r["label"])
        else:
            fa.append(got != 0)

    return {"accuracy_clean": share(right["clean"]), "accuracy_10db": share(right["10db"]),
            "accuracy_pink10": share(right["pink"]), "accuracy_babble10": share(right["babble"]),
            "false_accept": share(fa), "toasts": len(right["clean"]) + len(right["10db"]),
            "others": len(fa)}


def run(out: Path = Path("bench/second_opinion.json"), workers: int = 2,
        families: tuple[str, ...] = SHIPPED_NEVER_HEARD, rescue: bool = False) -> dict[str, Any]:
    t0 = time.time()
    voices = [v for v in VOICES if v.family in families and v.available()]
    with ProcessPoolExecutor(workers, initializer=_init,
                             initargs=(held_out_babble(12), rescue)) as pool:
        rows = [r for rs in pool.map(judge_voice, voices) for r in rs]
    rules = RULES + (RESCUES if rescue else ())
    by_family: dict[str, dict[str, Any]] = {}
    for fam in sorted({r["family"] for r in rows}):
        fr = [r for r in rows if r["family"] == fam]
        by_family[fam] = {rule: figures(fr, rule) for rule in rules}
    keys = ("accuracy_clean", "accuracy_10db", "accuracy_pink10", "accuracy_babble10",
            "false_accept")
    mean = {rule: {k: round(float(np.mean([by_family[f][rule][k] for f in by_family])), 3)
                   for k in keys}
            for rule in rules}
    report = {"mean_over_families": mean, "per_family": by_family,
              "voices": [v.id for v in voices], "seconds": round(time.time() - t0)}
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.second_opinion", description=__doc__)
    ap.add_argument("--out", type=Path, default=Path("bench/second_opinion.json"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--families", nargs="*", default=list(SHIPPED_NEVER_HEARD))
    ap.add_argument("--rescue", action="store_true",
                    help="also measure PocketSphinx letting through toasts the spotter nearly heard")
    args = ap.parse_args(argv)
    r = run(args.out, args.workers, tuple(args.families), args.rescue)
    json.dump(r["mean_over_families"], sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
