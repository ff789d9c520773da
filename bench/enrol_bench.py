"""What the table's own toasts teach the ear: ``python -m bench.enrol_bench``.

For every held-out voice: each toast said once more in another take (8 % slower, as a player says
it again at the introduction) is enrolled (:func:`hardware.speech.enrol.make_template`); then the
voice's toasts at 10 dB (pink and babble) and its look-alike words and chatter (clean and 10 dB)
are classified by the toast spotter three ways: without enrolment, with the same voice's
clips, and with another voice's clips (someone else at the table said that toast at the
introduction).

Two sets of voices, neither used to choose the enrolment's numbers:

- ``accents``: espeak-ng's Italian, Polish, Portuguese, Dutch and Swedish voices and festival's
  Italian ``pc_diphone`` saying the toasts as written (the spotter was trained on English voices
  saying respellings; these say them their own way). The numbers were chosen on espeak-ng's
  Spanish, German and French voices and festival's ``lp_diphone`` (``--split dev``).
- ``report``: the corpus's report voices (``make corpus``), robotic ones excluded.

The keys go to ``bench/results.json`` under ``enrolment`` (``make bench`` does not run this one:
about 10 minutes on two cores).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import tempfile
import wave
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench.results_file import merge

TOASTS = ("prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie")
#: (id, synthesizer, voice, split): dev voices choose the numbers, report voices are measured
ACCENT_VOICES = (
    ("es", "espeak", "es", "dev"), ("de", "espeak", "de", "dev"), ("fr", "espeak", "fr", "dev"),
    ("fest-lp", "festival", "lp_diphone", "dev"),
    ("it", "espeak", "it", "report"), ("pl", "espeak", "pl", "report"), ("pt", "espeak", "pt", "report"),
    ("nl", "espeak", "nl", "report"), ("sv", "espeak", "sv", "report"),
    ("fest-pc", "festival", "pc_diphone", "report"),
)
TAKE_RATE = 0.92


def _say(synth: str, name: str, text: str, rate: float) -> np.ndarray:
    from bench.corpus import RATE, trim

    with tempfile.TemporaryDirectory() as tmp:
        raw, conv = Path(tmp) / "r.wav", Path(tmp) / "c.wav"
        if synth == "espeak":
            cmd = ["espeak-ng", "-v", name, "-s", str(int(160 * rate)), "-w", str(raw), text]
            subprocess.run(cmd, check=True, capture_output=True)
        else:
            (Path(tmp) / "t.txt").write_text(text + "\n")
            cmd = ["text2wave", "-eval", f"(voice_{name})", "-eval",
                   f"(Parameter.set 'Duration_Stretch {1 / rate:.3f})", "-o", str(raw), str(Path(tmp) / "t.txt")]
            subprocess.run(cmd, check=True, capture_output=True, timeout=60)
        subprocess.run(["sox", "-R", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(conv)],
                       check=True, capture_output=True)
        with wave.open(str(conv)) as w:
            x = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768
    return trim(x)


def make_accents(out: Path) -> list[dict[str, Any]]:
    """Write the accented voices' clips and takes under ``out``; their manifest rows."""
    from bench.corpus import PAD_S, RATE, make_babble, mix, pink_noise, write_wav
    from bench.voices import CHATTER_SENTENCES, DISTRACTOR_WORDS

    babble = make_babble(60.0, 77)
    utts = [(t, t, "toast") for t in TOASTS] + [(None, w, "distractor") for w in DISTRACTOR_WORDS] \
        + [(None, c, "chatter") for c in CHATTER_SENTENCES]
    rows: list[dict[str, Any]] = []
    for vi, (vid, synth, name, split) in enumerate(ACCENT_VOICES):
        for ui, (toast, text, kind) in enumerate(utts):
            speech = _say(synth, name, text, 1.0)
            rng = np.random.default_rng(1000 * vi + ui)
            span = len(speech) + 2 * int(PAD_S * RATE)
            for noise, snr in (("clean", None), ("pink", 10.0), ("babble", 10.0)):
                at = int(rng.integers(0, len(babble) - span))
                nz = None if snr is None else pink_noise(span, rng) if noise == "pink" else babble[at: at + span]
                rel = f"{vid}/{ui:02d}__{noise}{'' if snr is None else int(snr)}.wav"
                write_wav(out / rel, mix(speech, nz, snr, rng))
                rows.append({"file": rel, "voice": vid, "split": split, "toast": toast, "kind": kind,
                             "noise": noise, "snr_db": snr})
            if toast:
                rel = f"{vid}/take{ui:02d}.wav"
                write_wav(out / rel, mix(_say(synth, name, text, TAKE_RATE), None, None, np.random.default_rng(9)))
                rows.append({"file": rel, "voice": vid, "split": "take", "toast": toast, "kind": "take",
                             "noise": "clean", "snr_db": None})
    (out / "manifest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows


def make_report_takes(corpus: Path, out: Path) -> list[dict[str, Any]]:
    """Another take of each toast by each non-robotic report voice of the corpus."""
    from bench.corpus import mix, synthesize, write_wav
    from bench.voices import ALL_VOICES, TOAST_SPELLINGS

    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines()]
    rows = [{**r, "file": str(corpus / r["file"])} for r in rows
            if r["split"] == "report" and not r["robotic"]
            and (r["noise"] == "clean" or r["snr_db"] == 10.0)]
    for v in ALL_VOICES:
        if v.split != "report" or v.robotic or not v.available():
            continue
        for tid, text in TOAST_SPELLINGS.items():
            f = out / f"{v.id}__{tid.replace(' ', '_')}.wav"
            write_wav(f, mix(synthesize(dataclasses.replace(v, rate=v.rate * TAKE_RATE), text), None, None,
                             np.random.default_rng(9)))
            rows.append({"file": str(f), "voice": v.id, "split": "take", "toast": tid, "kind": "take",
                         "noise": "clean", "snr_db": None})
    return rows


_engine: Any = None
_enrolments: dict[tuple[tuple[str, str], ...], tuple[Any, list[str]]] = {}


def _init() -> None:
    global _engine
    from hardware.speech.spotter import SpotterEngine

    _engine = SpotterEngine()


def _judge(job: tuple[str, list[tuple[str, str]]]) -> tuple[str | None, list[str]]:
    """The first toast heard in a file with the given enrolment clips (path, toast)."""
    from hardware.speech.audio import read_wav
    from hardware.speech.enrol import Enrolment, EnrolRefused, make_template

    path, enrol = job
    key = tuple(enrol)
    if key not in _enrolments:  # one voice's clips, learned once per worker
        enrolment, refused = Enrolment(), []
        for clip, toast in enrol:
            try:
                enrolment.add(make_template(_engine, read_wav(clip), toast))
            except EnrolRefused as err:
                refused.append(f"{clip}: {err}")
        _enrolments[key] = (enrolment, refused)
    enrolment, refused = _enrolments[key]
    _engine.enrolment = enrolment if enrol else None
    heard = [h for h in _engine.classify(read_wav(path)) if h.toast]
    return (heard[0].toast if heard else None), refused


def measure(rows: list[dict[str, Any]], split: str, base: Path | None = None,
            workers: int = 2) -> dict[str, Any]:
    """Accuracy at 10 dB and false accepts, without enrolment, with the same voice's clips and
    with the next voice's."""
    def path(r: dict[str, Any]) -> str:
        return str(base / r["file"]) if base is not None else r["file"]

    takes: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in rows:
        if r["split"] == "take":
            takes[r["voice"]].append((path(r), r["toast"]))
    tested = [r for r in rows if r["split"] == split]
    voices = sorted({r["voice"] for r in tested})
    out: dict[str, Any] = {"voices": voices}
    for mode in ("none", "same", "other"):
        jobs = []
        for r in tested:
            v = r["voice"] if mode == "same" else voices[(voices.index(r["voice"]) + 1) % len(voices)]
            jobs.append((path(r), takes[v] if mode != "none" else []))
        with ProcessPoolExecutor(workers, initializer=_init) as pool:
            judged = list(pool.map(_judge, jobs, chunksize=16))
        toasts = [(r, h) for r, (h, _) in zip(tested, judged) if r["toast"] and r["snr_db"] == 10.0]
        others = [(r, h) for r, (h, _) in zip(tested, judged) if not r["toast"]]
        by_noise = {n: round(float(np.mean([h == r["toast"] for r, h in toasts if r["noise"] == n])), 3)
                    for n in ("pink", "babble")}
        out[mode] = {"accuracy_10db": round(float(np.mean([h == r["toast"] for r, h in toasts])), 3),
                     **{f"accuracy_{n}10": a for n, a in by_noise.items()},
                     "false_accept": round(float(np.mean([h is not None for _, h in others])), 3),
                     "n_toasts": len(toasts), "n_others": len(others),
                     "refused": sorted({x for _, refused in judged for x in refused})}
    for mode in ("same", "other"):
        out[f"gain_{mode}"] = round(out[mode]["accuracy_10db"] - out["none"]["accuracy_10db"], 3)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.enrol_bench", description=__doc__)
    ap.add_argument("--work", type=Path, default=Path("corpus") / "enrol")
    ap.add_argument("--corpus", type=Path, default=Path("corpus"))
    ap.add_argument("--split", default="report", help="report (the measure) or dev (to choose numbers)")
    ap.add_argument("--sets", default="accents,report")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    results: dict[str, Any] = {}
    if "accents" in args.sets:
        acc = args.work / "accents"
        manifest = acc / "manifest.jsonl"
        rows = ([json.loads(x) for x in manifest.read_text().splitlines()] if manifest.exists()
                else make_accents(acc))
        results["accents"] = measure(rows, args.split, acc, args.workers)
        print(json.dumps({"accents": results["accents"]}, indent=1))
    if "report" in args.sets and args.split == "report":
        if not (args.corpus / "manifest.jsonl").exists():
            from bench.corpus import generate

            generate(args.corpus)
        takes = args.work / "report-takes"
        takes.mkdir(parents=True, exist_ok=True)
        results["report"] = measure(make_report_takes(args.corpus, takes), "report", None, args.workers)
        print(json.dumps({"report": results["report"]}, indent=1))
    if not args.no_write and args.split == "report":
        merge({"enrolment": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
