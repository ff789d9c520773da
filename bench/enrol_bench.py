"""What the table's own toasts teach the ear: ``python -m bench.enrol_bench``.

For every held-out voice: each toast said once more in another take (8 % slower, as a player says
it again at the introduction) is enrolled (:func:`hardware.speech.enrol.make_template`); then the
voice's toasts at 10 dB (pink and babble) and its look-alike words and chatter (clean and 10 dB)
are classified by the toast spotter five ways (:data:`MODES`): without enrolment, with the same
voice's clips, and with another voice's clips (someone else at the table said that toast at the
introduction), the clips said either clean or in the room's noise (the same kind and level of
noise as the file judged, another stretch of it: the live box learns from the listener's ring,
so in a noisy room its clips are noisy too).

Two sets of voices, neither used to choose the enrolment's numbers:

- ``accents``: espeak-ng's Italian, Polish, Portuguese, Dutch and Swedish voices and festival's
  Italian ``pc_diphone`` saying the toasts as written (the spotter was trained on English voices
  saying respellings; these say them their own way). The numbers were chosen on ten other voices
  (``--split dev``: espeak-ng's Spanish, German, French, Romanian, Hungarian, Danish, Norwegian,
  Croatian and Afrikaans voices and festival's ``lp_diphone``).
- ``report``: the corpus's report voices (``make corpus``), robotic ones excluded.

The keys go to ``bench/results.json`` under ``enrolment`` (``--split dev``: ``dev_accents``), with
the rule's numbers under ``enrolment.rule``, and the held-out accented voices' gain with the same
speaker's clean clips and its change in false accepts as ``enrolment_gain_10db`` and
``enrolment_false_accept_change`` (the README's table). Each file's speech embeddings are computed once and
every mode replays the spotter's own stream on them. ``make bench`` does not run this one: about
15 minutes on two shared cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import tempfile
import wave
import zlib
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
    # more dev voices (the first four were too few to choose numbers that carry over)
    ("ro", "espeak", "ro", "dev"), ("hu", "espeak", "hu", "dev"), ("da", "espeak", "da", "dev"),
    ("nb", "espeak", "nb", "dev"), ("hr", "espeak", "hr", "dev"), ("af", "espeak", "af", "dev"),
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


def room_noises(take: np.ndarray, babble: np.ndarray, rng: np.random.Generator
                ) -> list[tuple[str, float | None, np.ndarray | None]]:
    """The conditions an enrolment take is said in: clean, and the room's noise of each kind at
    10 dB (pink noise of its own; ``babble`` a track other than the one the tests are mixed with)."""
    from bench.corpus import PAD_S, RATE, pink_noise

    span = len(take) + 2 * int(PAD_S * RATE)
    at = int(rng.integers(0, len(babble) - span))
    return [("clean", None, None), ("pink", 10.0, pink_noise(span, rng)), ("babble", 10.0, babble[at: at + span])]


def make_accents(out: Path, have: tuple[dict[str, Any], ...] = ()) -> list[dict[str, Any]]:
    """Write the accented voices' clips and takes under ``out`` (those of voices not already in
    the manifest rows ``have``); all their manifest rows."""
    from bench.corpus import PAD_S, RATE, make_babble, mix, pink_noise, write_wav
    from bench.voices import CHATTER_SENTENCES, DISTRACTOR_WORDS

    babble = make_babble(60.0, 77)
    room = make_babble(60.0, 78)  # the introduction's babble: the same kind, another stretch
    utts = [(t, t, "toast") for t in TOASTS] + [(None, w, "distractor") for w in DISTRACTOR_WORDS] \
        + [(None, c, "chatter") for c in CHATTER_SENTENCES]
    rows: list[dict[str, Any]] = list(have)
    done = {r["voice"] for r in have}
    for vi, (vid, synth, name, split) in enumerate(ACCENT_VOICES):
        if vid in done:
            continue
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
                take = _say(synth, name, text, TAKE_RATE)
                for noise, snr, nz in room_noises(take, room, np.random.default_rng(5000 + 100 * vi + ui)):
                    rel = f"{vid}/take{ui:02d}{'' if snr is None else f'__{noise}{int(snr)}'}.wav"
                    write_wav(out / rel, mix(take, nz, snr, np.random.default_rng(9)))
                    rows.append({"file": rel, "voice": vid, "split": "take", "toast": toast, "kind": "take",
                                 "noise": noise, "snr_db": snr})
    (out / "manifest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows


def make_report_takes(corpus: Path, out: Path) -> list[dict[str, Any]]:
    """Another take of each toast by each non-robotic report voice of the corpus."""
    from bench.corpus import make_babble, mix, synthesize, write_wav
    from bench.voices import ALL_VOICES, TOAST_SPELLINGS

    room = make_babble(60.0, 2025)  # the corpus's babble is seed 2024: another stretch of talk

    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines()]
    rows = [{**r, "file": str(corpus / r["file"])} for r in rows
            if r["split"] == "report" and not r["robotic"]
            and (r["noise"] == "clean" or r["snr_db"] == 10.0)]
    for v in ALL_VOICES:
        if v.split != "report" or v.robotic or not v.available():
            continue
        for ti, (tid, text) in enumerate(TOAST_SPELLINGS.items()):
            take = synthesize(dataclasses.replace(v, rate=v.rate * TAKE_RATE), text)
            for noise, snr, nz in room_noises(take, room, np.random.default_rng(zlib.crc32(v.id.encode()) + ti)):
                f = out / f"{v.id}__{tid.replace(' ', '_')}{'' if snr is None else f'__{noise}{int(snr)}'}.wav"
                write_wav(f, mix(take, nz, snr, np.random.default_rng(9)))
                rows.append({"file": str(f), "voice": v.id, "split": "take", "toast": tid, "kind": "take",
                             "noise": noise, "snr_db": snr})
    return rows


_engine: Any = None
_enrolments: dict[tuple[tuple[str, str], ...], tuple[Any, list[str]]] = {}
#: how each file is judged: the enrolment clips' voice (none, the same, the next) and the
#: condition they were said in ("clean", or "room": the same noise as the file's, another stretch)
MODES = (("none", None, None), ("same", "same", "clean"), ("same_room", "same", "room"),
         ("other", "other", "clean"), ("other_room", "other", "room"))


class _Memo:
    """The spotter's feature networks with their answers kept for the file being judged: each
    mode replays the same stream, so the embeddings are computed once and the decisions (the
    part enrolment changes) run as in the box."""

    #: window by window (the very same embeddings as a live stream's), so that they can be kept
    streams = False

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.kept: dict[tuple[str, bytes], np.ndarray] = {}

    def _get(self, kind: str, fn: Any, a: np.ndarray) -> np.ndarray:
        key = (kind, np.ascontiguousarray(a).tobytes())
        if key not in self.kept:
            self.kept[key] = fn(a)
        return self.kept[key]

    def mel(self, pcm: np.ndarray) -> np.ndarray:
        return self._get("mel", self.inner.mel, pcm)

    def embed(self, windows: np.ndarray) -> np.ndarray:
        return self._get("embed", self.inner.embed, windows)

    def embeddings(self, pcm: np.ndarray, batch: int | None = None) -> np.ndarray:
        return self.inner.embeddings(pcm, batch)


def _init() -> None:
    global _engine
    from hardware.speech.spotter import SpotterEngine

    _engine = SpotterEngine()
    _engine.embedder = _Memo(_engine.embedder)


def _enrolment(enrol: list[tuple[str, str]]) -> tuple[Any, list[str]]:
    """One voice's clips (path, toast), learned once per worker."""
    from hardware.speech.audio import read_wav
    from hardware.speech.enrol import Enrolment, EnrolRefused, make_template

    key = tuple(enrol)
    if key not in _enrolments:
        enrolment, refused = Enrolment(), []
        for clip, toast in enrol:
            try:
                enrolment.add(make_template(_engine, read_wav(clip), toast))
            except EnrolRefused as err:
                refused.append(f"{clip}: {err}")
        _enrolments[key] = (enrolment, refused)
    return _enrolments[key]


def _judge(job: tuple[str, dict[str, list[tuple[str, str]]]]) -> dict[str, tuple[str | None, list[str]]]:
    """The first toast heard in a file with each mode's enrolment clips (path, toast)."""
    from hardware.speech.audio import read_wav

    path, modes = job
    pcm = read_wav(path)
    out: dict[str, tuple[str | None, list[str]]] = {}
    for mode, enrol in modes.items():
        enrolment, refused = _enrolment(enrol) if enrol else (None, [])
        _engine.enrolment = enrolment
        heard = [h for h in _engine.classify(pcm) if h.toast]
        out[mode] = (heard[0].toast if heard else None), refused
    _engine.embedder.kept.clear()
    _engine.enrolment = None
    return out


def _jobs(rows: list[dict[str, Any]], split: str, base: Path | None
          ) -> tuple[list[dict[str, Any]], list[tuple[str, dict[str, list[tuple[str, str]]]]]]:
    """The ``split`` rows, and for each its file with each mode's enrolment clips (path, toast)."""
    def path(r: dict[str, Any]) -> str:
        return str(base / r["file"]) if base is not None else r["file"]

    takes: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for r in rows:
        if r["split"] == "take":
            takes[(r["voice"], r["noise"])].append((path(r), r["toast"]))
    tested = [r for r in rows if r["split"] == split]
    voices = sorted({r["voice"] for r in tested})
    jobs = []
    for r in tested:
        modes: dict[str, list[tuple[str, str]]] = {}
        for mode, who, said in MODES:
            if who is None:
                modes[mode] = []
                continue
            v = r["voice"] if who == "same" else voices[(voices.index(r["voice"]) + 1) % len(voices)]
            modes[mode] = takes[(v, r["noise"] if said == "room" else "clean")]
        jobs.append((path(r), modes))
    return tested, jobs


def measure(rows: list[dict[str, Any]], split: str, base: Path | None = None,
            workers: int = 2) -> dict[str, Any]:
    """Accuracy at 10 dB and false accepts, without enrolment, with the same voice's clips and
    with the next voice's, the clips said clean or in the file's own kind of noise."""
    tested, jobs = _jobs(rows, split, base)
    with ProcessPoolExecutor(workers, initializer=_init) as pool:
        judged_all = list(pool.map(_judge, jobs, chunksize=8))
    out: dict[str, Any] = {"voices": sorted({r["voice"] for r in tested})}
    for mode, _, _ in MODES:
        judged = [j[mode] for j in judged_all]
        toasts = [(r, h) for r, (h, _) in zip(tested, judged) if r["toast"] and r["snr_db"] == 10.0]
        others = [(r, h) for r, (h, _) in zip(tested, judged) if not r["toast"]]
        by_noise = {n: round(float(np.mean([h == r["toast"] for r, h in toasts if r["noise"] == n])), 3)
                    for n in ("pink", "babble")}
        out[mode] = {"accuracy_10db": round(float(np.mean([h == r["toast"] for r, h in toasts])), 3),
                     **{f"accuracy_{n}10": a for n, a in by_noise.items()},
                     "false_accept": round(float(np.mean([h is not None for _, h in others])), 3),
                     "n_toasts": len(toasts), "n_others": len(others),
                     "false_accepts": sorted(f"{Path(r['file']).parent.name}/{Path(r['file']).name}: {h}"
                                             for r, h in others if h is not None),
                     "refused": sorted({x for _, refused in judged for x in refused})}
    for mode, who, _ in MODES:
        if who is not None:
            out[f"gain_{mode}"] = round(out[mode]["accuracy_10db"] - out["none"]["accuracy_10db"], 3)
    return out


class _Recorder:
    """Stands where a table's enrolment does and keeps every step it is asked about: the
    network's own choice, its probabilities and each toast's similarity to this enrolment's
    templates; it lets the network decide, so the steps are those of a table without templates."""

    def __init__(self, enrolment: Any) -> None:
        self.enrolment = enrolment
        self.steps: list[tuple[int, np.ndarray, np.ndarray]] = []

    def decide(self, fired: int, p: np.ndarray, heard: np.ndarray, toasts: tuple[str, ...]) -> int:
        self.steps.append((fired, np.array(p, np.float32), self.enrolment.similarities(heard, toasts)))
        return fired


def _record(job: tuple[str, dict[str, list[tuple[str, str]]]]) -> dict[str, list[tuple[int, np.ndarray, np.ndarray]]]:
    """Every step of a file heard with each mode's enrolment clips (:class:`_Recorder`)."""
    from hardware.speech.audio import read_wav

    path, modes = job
    pcm = read_wav(path)
    out = {}
    for mode, enrol in modes.items():
        if not enrol:
            continue
        recorder = _Recorder(_enrolment(enrol)[0])
        _engine.enrolment = recorder
        _engine.classify(pcm)
        out[mode] = recorder.steps
    _engine.embedder.kept.clear()
    _engine.enrolment = None
    return out


#: the rule's numbers tried by ``--grid`` (every combination)
GRID = {"min_similarity": (0.85, 0.88, 0.9, 0.93, 0.95), "margin": (0.02, 0.05, 0.08),
        "min_probability": (0.0, 0.001, 0.003, 0.01, 0.03), "sure_probability": (0.5, 0.6, 0.7, 0.8),
        "agree_similarity": (0.4, 0.5, 0.6, 0.7)}


def first_heard(steps: list[tuple[int, np.ndarray, np.ndarray]], rule: Any) -> int:
    """The class of the first step ``rule`` (an :class:`~hardware.speech.enrol.Enrolment`, or
    None: the network alone) fires, 0 for none (the steady-tone veto, which only beeps meet, left
    out)."""
    for fired, p, s in steps:
        c = fired if rule is None else rule.choose(fired, p, s)
        if c:
            return c
    return 0


def grid(rows: list[dict[str, Any]], split: str, base: Path | None = None, workers: int = 2,
         values: dict[str, tuple[float, ...]] = GRID) -> dict[str, Any]:
    """Every combination of the rule's numbers in ``values``, replayed on the steps of the
    ``split`` voices' files heard once with each mode's clips; each rule's accuracy at 10 dB and
    false accepts per mode, and the one chosen (:func:`choose_rule`)."""
    import itertools

    from hardware.speech.enrol import Enrolment
    from hardware.speech.spotter import SpotterEngine

    tested, jobs = _jobs(rows, split, base)
    with ProcessPoolExecutor(workers, initializer=_init) as pool:
        recorded = list(pool.map(_record, jobs, chunksize=8))
    toasts = SpotterEngine().toasts
    want = [toasts.index(r["toast"]) + 1 if r["toast"] else 0 for r in tested]
    scored = [r["toast"] is not None and r["snr_db"] == 10.0 for r in tested]
    others = [not r["toast"] for r in tested]

    def score(heard: list[int]) -> dict[str, float]:
        right = [h == w for h, w, k in zip(heard, want, scored) if k]
        return {"accuracy_10db": round(float(np.mean(right)), 3),
                "false_accept": round(float(np.mean([h != 0 for h, o in zip(heard, others) if o])), 3)}

    modes = [m for m, who, _ in MODES if who is not None]
    none = score([first_heard(rec[modes[0]], None) for rec in recorded])
    names = list(values)
    results = []
    for combo in itertools.product(*(values[n] for n in names)):
        rule = Enrolment(**dict(zip(names, combo)))
        row: dict[str, Any] = {"rule": dict(zip(names, combo))}
        for m in modes:
            row[m] = score([first_heard(rec[m], rule) for rec in recorded])
            row[f"gain_{m}"] = round(row[m]["accuracy_10db"] - none["accuracy_10db"], 3)
        results.append(row)
    shipped = {n: getattr(Enrolment(), n) for n in names}
    return {"voices": sorted({r["voice"] for r in tested}), "none": none, "rules": results,
            "shipped": next((r for r in results if r["rule"] == shipped), None),
            "chosen": choose_rule(none, results, shipped=shipped)}


def choose_rule(none: dict[str, float], results: list[dict[str, Any]],
                shipped: dict[str, float] | None = None) -> dict[str, Any]:
    """The rule with the largest gain with the same speaker's clean clip among those that
    - keep the false accepts no higher than without templates, with that clip clean or said in
      the room's noise (as the live box learns it), and
    - cost another speaker's clip nothing, clean or in the room's noise: in Tchin Tchin the word
      a claim needs is the card's drinker's toast, so a player often says a toast another player
      taught at the introduction
    (if no rule spares another speaker's clip, the best of the first kind). Ties: fewer false
    accepts, then the gain with the clip said in the room's noise, then the numbers nearest
    ``shipped``'s, each moved by a share of its value."""
    fair = [r for r in results if max(r["same"]["false_accept"], r["same_room"]["false_accept"])
            <= none["false_accept"]]
    if not fair:
        raise ValueError("no rule keeps the false accepts as they are without templates")

    def key(r: dict[str, Any]) -> tuple[float, ...]:
        moved = sum(abs(r["rule"][k] - v) / (abs(v) or 1.0) for k, v in (shipped or {}).items())
        return (r["gain_same"], -r["same"]["false_accept"], r["gain_same_room"], -moved)

    harmless = [r for r in fair if min(r["gain_other"], r["gain_other_room"]) >= 0]
    return max(harmless or fair, key=key)


def accent_rows(work: Path) -> tuple[Path, list[dict[str, Any]]]:
    """The accented voices' folder under ``work`` and its manifest rows (clips made if missing)."""
    acc = work / "accents"
    manifest = acc / "manifest.jsonl"
    rows = [json.loads(x) for x in manifest.read_text().splitlines()] if manifest.exists() else []
    if {r["voice"] for r in rows} != {v[0] for v in ACCENT_VOICES}:
        rows = make_accents(acc, tuple(rows))
    return acc, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.enrol_bench", description=__doc__)
    ap.add_argument("--work", type=Path, default=Path("corpus") / "enrol")
    ap.add_argument("--corpus", type=Path, default=Path("corpus"))
    ap.add_argument("--split", default="report", help="report (the measure) or dev (to choose numbers)")
    ap.add_argument("--sets", default="accents,report")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--grid", type=Path, nargs="?", const=Path("bench/enrol-grid.json"),
                    help="choose the rule's numbers on the dev voices instead: every combination "
                         "of GRID replayed, the chosen one and the best 20 written to this file")
    args = ap.parse_args(argv)
    if args.grid:
        acc, rows = accent_rows(args.work)
        found = grid(rows, "dev", acc, args.workers)
        order = sorted(found["rules"], key=lambda r: (-r["gain_same"], r["same"]["false_accept"]))
        found["rules"] = order[:20]
        found["grid"] = GRID
        print(json.dumps({k: found[k] for k in ("none", "shipped", "chosen")}, indent=1))
        if not args.no_write:
            args.grid.write_text(json.dumps(found, indent=1) + "\n")
        return 0
    results: dict[str, Any] = {}
    if "accents" in args.sets:
        acc, rows = accent_rows(args.work)
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
    if not args.no_write:
        from bench.results_file import RESULTS
        from hardware.speech.enrol import Enrolment

        kept = json.loads(RESULTS.read_text()).get("enrolment", {}) if RESULTS.exists() else {}
        if args.split != "report":
            results = {f"{args.split}_{k}": v for k, v in results.items()}
        rule = {k: v for k, v in dataclasses.asdict(Enrolment()).items() if k != "templates"}
        headline: dict[str, Any] = {}
        if args.split == "report" and "accents" in results:  # the README's two rows
            acc = results["accents"]
            headline = {"enrolment_gain_10db": acc["gain_same"],
                        "enrolment_false_accept_change": round(
                            acc["same"]["false_accept"] - acc["none"]["false_accept"], 3)}
        merge({"enrolment": {**kept, **results, "rule": rule}, **headline})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
