"""The steady-pitch veto on the voice families, judged as files: ``python -m bench.steady_check``.

The spotter drops a toast whose stretch holds one pitch like a string of beeps
(:mod:`hardware.speech.steady`).  Its number was set on beep strings and voices no measure uses;
this measures what it costs on voices: every voice of the families the benchmark leaves out
(:data:`bench.spotter_lofo.SHIPPED_NEVER_HEARD`, SVOX Pico among them) says every toast and
measured look-alike (:func:`bench.spotter_data.judged_clips`: clean, pink noise and 5-talker
babble at 10 dB), and the shipped spotter judges each clip as ``clinkbox speech classify`` does,
with the veto and without it.  Reported per family: the figures with the veto (right toasts clean
and at 10 dB, false accepts), every clip whose verdict the veto changed, and how steady the
stretches that fired were.  Writes ``bench/steady_check.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench.results_file import share
from bench.spotter_data import CLASSES, VOICES, SpotVoice, held_out_babble, judged_clips
from bench.spotter_lofo import SHIPPED_NEVER_HEARD
from hardware.speech.audio import RATE

_with: Any = None
_without: Any = None
_babble: np.ndarray | None = None
_limit: int | None = None


def _init(babble: np.ndarray, limit: int | None) -> None:
    global _with, _without, _babble, _limit
    from hardware.speech.spotter import SpotterEngine

    _with = SpotterEngine()
    _without = SpotterEngine(embedder=_with.embedder)
    _without.steady_veto = None
    _babble, _limit = babble, limit


def _best(spotter: Any, pcm: np.ndarray) -> Any:
    heard = [h for h in spotter.classify(pcm) if h.toast]
    return max(heard, key=lambda h: h.confidence) if heard else None


def judge_voice(v: SpotVoice) -> list[dict[str, Any]]:
    """Each of ``v``'s clips judged with the veto and without it."""
    from hardware.speech.steady import steady_share

    assert _with is not None and _without is not None and _babble is not None
    rows = []
    for u, cond, pcm in judged_clips(v, _babble, limit=_limit):
        without, with_veto = _best(_without, pcm), _best(_with, pcm)
        row: dict[str, Any] = {"voice": v.id, "family": v.family, "text": u.text,
                               "label": u.label, "cond": cond,
                               "without": without and without.toast,
                               "with": with_veto and with_veto.toast}
        if without is not None:
            row["share"] = steady_share(pcm[int(without.start * RATE): int(without.end * RATE)])
        rows.append(row)
    return rows


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Right toasts (clean, at 10 dB: pink and babble) and false accepts, with the veto."""
    right: dict[str, list[bool]] = {"clean": [], "pink": [], "babble": []}
    fa: list[bool] = []
    for r in rows:
        if r["label"]:
            right[r["cond"]].append(r["with"] == CLASSES[r["label"] - 1])
        else:
            fa.append(r["with"] is not None)

    return {"accuracy_clean": share(right["clean"]),
            "accuracy_10db": share(right["pink"] + right["babble"]),
            "accuracy_pink10": share(right["pink"]), "accuracy_babble10": share(right["babble"]),
            "false_accept": share(fa), "toasts": sum(map(len, right.values())), "others": len(fa),
            "changed": [{k: r[k] for k in ("voice", "text", "cond", "without", "with")}
                        for r in rows if r["with"] != r["without"]]}


def run(out: Path = Path("bench/steady_check.json"), workers: int = 2,
        families: tuple[str, ...] = SHIPPED_NEVER_HEARD, limit: int | None = None,
        voices: tuple[str, ...] | None = None) -> dict[str, Any]:
    t0 = time.time()
    chosen = [v for v in VOICES if v.family in families and v.available()
              and (voices is None or v.id in voices)]
    if not chosen:
        raise ValueError(f"no voice of {families} here (make bench installs them)")
    with ProcessPoolExecutor(workers, initializer=_init,
                             initargs=(held_out_babble(12), limit)) as pool:
        rows = [r for rs in pool.map(judge_voice, chosen) for r in rs]
    shares = [r["share"] for r in rows if r.get("share") is not None]
    report = {
        "clips": len(rows),
        "changed": sum(r["with"] != r["without"] for r in rows),
        "steadiest_fired": round(max(shares), 3) if shares else None,
        "fired_share_quantiles": {str(q): round(float(np.quantile(shares, q)), 3)
                                  for q in (0.5, 0.9, 0.99)} if shares else {},
        "per_family": {fam: figures([r for r in rows if r["family"] == fam])
                       for fam in sorted({r["family"] for r in rows})},
        "voices": [v.id for v in chosen], "seconds": round(time.time() - t0),
    }
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.steady_check", description=__doc__)
    ap.add_argument("--out", type=Path, default=Path("bench/steady_check.json"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--families", nargs="*", default=list(SHIPPED_NEVER_HEARD))
    args = ap.parse_args(argv)
    r = run(args.out, args.workers, tuple(args.families))
    json.dump({k: v for k, v in r.items() if k not in ("per_family", "voices")}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
