"""The recipe's half of the shipped toast spotter: ``python -m bench.fit_spotter [--out DIR]``.

``make spotter`` runs :mod:`bench.train_spotter` (the first two networks, on espeak-ng English,
flite and festival voices), then this with ``--out hardware/speech/lexicons``: four more networks
fitted on the seven voice families of :mod:`bench.spotter_data` that are trained on (Kokoro's
neural speakers among them; SVOX Pico's voices are only ever measured), averaged with the first
two, and a threshold per toast chosen on the whole ensemble.  On the voice families the first two
never heard, each left out of this fit in turn, the six heard 0.688 clean, 0.431 at 10 dB at
0.030 false accepts against the first two's 0.664 / 0.428 / 0.055 (``make bench``:
``speech_lofo_*``); docs/speech.md has the figures, docs/speech-lab.md how each was reached.

1. Every voice of :mod:`bench.spotter_data` says its toasts and negatives; each utterance's
   training examples (tempo, pitch, rooms, microphones, noise, babble, music) and held-out
   examples become speech embeddings, kept per voice under ``.cache/spotter/`` (a progress bar
   counts the voices; a voice already there is not made again unless what it says changed):
   about 20 to 25 minutes here, once (Kokoro's speakers 10 of them).
2. The recipe of :func:`bench.spotter_lofo.fit_recipe` is fitted on every family's voices but
   the validation voices (:data:`bench.spotter_data.VALIDATION_IDS`, one or more per family),
   which choose the thresholds of the recipe's networks averaged with ``--with`` (default: the
   first two, :data:`bench.spotter_lofo.BASE`; none for the recipe alone), and from them each
   toast's threshold while a card waits for it (:func:`bench.spotter_lofo.expected_thresholds`,
   the lexicon's ``expected_thresholds``): a minute or two.
3. The networks go to ``--out`` (default ``.cache/spotter-candidate/``), their names and the
   thresholds into ``spotter-en.json`` beside them (``SpotterEngine(path to that json)`` loads
   them); what was chosen and why, and the releases the fit ran on, into ``fit.json`` there
   (``--report``).

Everything is seeded: the same machine packages give the same examples and the same weights.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import spotter_lofo
from bench.spotter_data import VOICES, build_cache, default_cache
from bench.spotter_lofo import fit_recipe, load_family_examples, split, toast_thresholds
from hardware.speech.lexicon import LEXICON_DIR
from hardware.speech.spotter import save_net

CANDIDATE = Path(".cache/spotter-candidate")


def refitted_lexicon(lex: dict[str, Any], weights: list[str], threshold: float,
                     thresholds: dict[str, float] | None,
                     expected: dict[str, float] | None = None) -> dict[str, Any]:
    """``lex`` with a fit's networks and thresholds, every key where it stood (so a fit that
    chooses what ships writes the shipped file byte for byte); ``thresholds`` None: no
    threshold per toast; ``expected`` None: no threshold while a card waits for a toast."""
    out = dict(lex)
    out["weights"] = weights
    out["threshold"] = threshold
    for key, value in (("thresholds", thresholds), ("expected_thresholds", expected)):
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def train(out_dir: Path = CANDIDATE, cache: Path | None = None, workers: int = 2,
          lexicon_name: str = "spotter-en", report: Path | None = None,
          without: tuple[str, ...] = (), with_: tuple[str, ...] = spotter_lofo.BASE) -> dict:
    """Make the examples (if not cached), fit, write the weights and the lexicon's threshold."""
    t0 = time.time()
    out_dir.mkdir(parents=True, exist_ok=True)
    report = report or out_dir / "fit.json"
    cache = cache or default_cache()
    voices = build_cache(cache, workers=workers,
                         voices=tuple(v for v in VOICES if v.family not in without))
    print(f"examples ready after {time.time() - t0:.0f} s", file=sys.stderr)
    data = load_family_examples(cache, voices)
    fit, val, _ = split(data, None)
    nets, thr, curve, expected = fit_recipe(fit, val, progress=True, with_=with_)
    threshold = float(np.max(thr[1:]))
    lex_path = out_dir / f"{lexicon_name}.json"
    lex = json.loads((LEXICON_DIR / f"{lexicon_name}.json").read_text())
    kept = list(with_)  # networks averaged with the recipe's, copied as they are
    for old in out_dir.glob(f"{lexicon_name}*.npz"):
        if old.name not in kept:
            old.unlink()
    for name in kept:
        if (out_dir / name).resolve() != (LEXICON_DIR / name).resolve():
            shutil.copyfile(LEXICON_DIR / name, out_dir / name)
    names = [f"{lexicon_name}.npz"] + [f"{lexicon_name}-{k + 1}.npz" for k in range(1, 9)]
    files = [n for n in names if n not in kept][: len(nets)]
    for name, net in zip(files, nets):
        save_net(out_dir / name, net)
    files = kept + files
    per_toast = spotter_lofo.PER_TOAST
    lex = refitted_lexicon(lex, files, threshold, toast_thresholds(thr) if per_toast else None,
                           toast_thresholds(expected) if per_toast else None)
    lex_path.write_text(json.dumps(lex, indent=2, ensure_ascii=False) + "\n")
    result = {"threshold": threshold, "thresholds": toast_thresholds(thr),
              "expected_thresholds": toast_thresholds(expected), "networks": files,
              "voices": len(voices),
              "families": sorted(f for f in data if f not in spotter_lofo.MEASURE_ONLY),
              "measured_only": sorted(f for f in data if f in spotter_lofo.MEASURE_ONLY),
              "validation_curve": curve, "seconds": round(time.time() - t0),
              "versions": fit_versions()}
    report.write_text(json.dumps(result, indent=1) + "\n")
    print(f"trained in {time.time() - t0:.0f} s; threshold {threshold}", file=sys.stderr)
    return result


def fit_versions() -> dict[str, str | None]:
    """The releases a fit ran on (a fit is made again byte for byte with the same ones; a
    release of numpy or scikit-learn may move it by about half a point)."""
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, str | None] = {"python": sys.version.split()[0]}
    for dist in ("numpy", "scikit-learn", "openwakeword", "onnxruntime"):
        try:
            found[dist] = version(dist)
        except PackageNotFoundError:
            found[dist] = None
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.fit_spotter", description=__doc__)
    ap.add_argument("--out", type=Path, default=CANDIDATE)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--report", type=Path, default=None)
    ap.add_argument("--without", nargs="*", help="voice families not fitted on (an experiment)")
    ap.add_argument("--with", dest="with_", nargs="*", default=list(spotter_lofo.BASE),
                    help="average the recipe's networks with these weights files of the lexicon "
                         "(default: bench.train_spotter's two; none: the recipe alone)")
    args = ap.parse_args(argv)
    r = train(args.out, args.cache, args.workers, report=args.report,
              without=tuple(args.without or ()), with_=tuple(args.with_))
    print(json.dumps({k: v for k, v in r.items() if k != "validation_curve"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
