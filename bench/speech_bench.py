"""Toast recognition benchmark: ``python -m bench.speech_bench [--corpus corpus/]``.

Each clip of the corpus (``python -m bench.corpus`` makes it) is fed to the recogniser the way
the listener does it live: a streaming speech detector sees 20 ms blocks; when a stretch of
speech ends, the engine judges the window from 1.5 s before it up to that moment.  The decision
time is measured from the true end of the word: the detector's wait for silence plus the
decoding time.

The top-level numbers are for the default engine (PocketSphinx) on the held-back ``report``
voices, robotic espeak-ng voices excluded (they appear in the table, not in the targets).
The keys are merged into ``bench/results.json`` (:mod:`bench.results_file`), keeping the keys of
other benchmarks; ``make bench`` calls :func:`run`.  About 1,900 clips (the report voices, all
conditions) take about 2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench.results_file import merge

BLOCK = 320
CONTEXT = 24000  # 1.5 s of audio before a stretch of speech goes to the engine

_engine: Any = None
#: the spotter's lexicon measured (a name in the lexicon folder, or a .json path: a candidate)
LEXICON = "spotter-en"


def _make_engine(name: str) -> Any:
    if name == "spotter":
        from hardware.speech.spotter import SpotterEngine

        return SpotterEngine(LEXICON)
    if name == "pocketsphinx":
        from hardware.speech.pocketsphinx_engine import PocketSphinxEngine

        return PocketSphinxEngine()
    from hardware.speech.select import default_data_dir, find_vosk_model
    from hardware.speech.vosk_engine import VoskEngine

    model = find_vosk_model(default_data_dir())
    assert model is not None
    return VoskEngine(model, "vosk-en")


def _init(name: str) -> None:
    global _engine
    _engine = _make_engine(name)


def judge_clip(args: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """Stream one clip through the detector and the engine; the decision and its timing."""
    from hardware.speech.audio import read_wav, to_float
    from hardware.speech.vad import VoiceActivity

    corpus, row = args
    pcm = read_wav(Path(corpus) / row["file"])
    if getattr(_engine, "streaming", False):
        return judge_clip_streaming(pcm, row)
    vad = VoiceActivity()
    decided: list[tuple[str | None, float]] = []
    latencies: list[float] = []
    compute = 0.0
    for pos in range(0, len(pcm), BLOCK):
        block = pcm[pos: pos + BLOCK]
        now = pos + len(block)
        ended = vad.feed(to_float(block)) if len(block) else []
        if now >= len(pcm):
            ended += vad.flush()
        for span in ended:
            first = max(0, span.start - CONTEXT)
            t0 = time.perf_counter()
            verdicts = _engine.classify(pcm[first:now])
            spent = time.perf_counter() - t0
            compute += spent
            s0, s1 = (span.start - first) / 16000, (span.end - first) / 16000
            best = max(verdicts, key=lambda h: min(h.end, s1) - max(h.start, s0), default=None)
            if best is not None and best.toast is not None:
                decided.append((best.toast, best.confidence))
            if span.end / 16000 >= row["speech_end"] - 0.15 and not latencies:
                latencies.append((now / 16000 - row["speech_end"]) + spent)
    toast = max(decided, key=lambda d: d[1])[0] if decided else None
    return {**row, "heard": toast, "latency_s": latencies[0] if latencies else None,
            "compute_s": compute, "audio_s": len(pcm) / 16000}


def judge_clip_streaming(pcm: np.ndarray, row: dict[str, Any]) -> dict[str, Any]:
    """A streaming engine (the spotter) hears the clip in 20 ms blocks after a lead-in of the
    clip's own quiet (live, the stream has been running long before anyone toasts); its first
    toast is the decision, timed from the end of the word to the end of the block that fired
    it plus the time spent on that block."""
    from hardware.speech.spotter import LEAD_S, TAIL_S, quiet_part

    stream = _engine.stream()
    stream.feed(quiet_part(pcm, int(LEAD_S * 16000)))
    audio = np.concatenate([pcm, quiet_part(pcm, int(TAIL_S * 16000))])
    first: tuple[str, float] | None = None
    compute = 0.0
    for pos in range(0, len(audio), BLOCK):
        t0 = time.perf_counter()
        spots = stream.feed(audio[pos: pos + BLOCK])
        spent = time.perf_counter() - t0
        if pos < len(pcm):
            compute += spent
        if spots and first is None:
            now = min(pos + BLOCK, len(audio)) / 16000
            first = (spots[0].toast, now - row["speech_end"] + spent)
    return {**row, "heard": first[0] if first else None,
            "latency_s": first[1] if first else None,
            "compute_s": compute, "audio_s": len(pcm) / 16000}


def condition(row: dict[str, Any]) -> str:
    """"clean", or the noise and its SNR, e.g. "babble10"."""
    return row["noise"] if row["snr_db"] is None else f"{row['noise']}{int(row['snr_db'])}"


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy on toasts and false accepts on everything else, for a set of judged clips."""
    toasts = [r for r in rows if r["toast"]]
    others = [r for r in rows if not r["toast"]]
    return {
        "accuracy": round(sum(r["heard"] == r["toast"] for r in toasts) / len(toasts), 3)
        if toasts else None,
        "false_accept": round(sum(r["heard"] is not None for r in others) / len(others), 3)
        if others else None,
        "n_toasts": len(toasts), "n_others": len(others),
    }


def judge_split(corpus: Path, engine: str, split: str, workers: int) -> list[dict[str, Any]]:
    """Judge every clip of one split with one engine."""
    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["split"] == split]
    with ProcessPoolExecutor(workers, initializer=_init, initargs=(engine,)) as pool:
        return list(pool.map(judge_clip, [(str(corpus), r) for r in rows], chunksize=8))


def default_engine(judged: dict[str, Any]) -> str:
    """The engine the box listens with here (the spotter when it can run, else PocketSphinx):
    the one the top-level keys are about."""
    return "spotter" if "spotter" in judged else "pocketsphinx"


def available_engines() -> list[str]:
    """The engines this machine can run: the spotter (if its packages are installed),
    PocketSphinx, and Vosk when its English model is present."""
    from hardware.speech.select import default_data_dir, find_vosk_model

    engines = []
    try:
        _make_engine("spotter")
        engines.append("spotter")
    except Exception as err:  # SpeechModelError, or an ImportError of onnxruntime
        print(f"toast spotter not measured: {err}")
    engines.append("pocketsphinx")
    if find_vosk_model(default_data_dir()):
        engines.append("vosk")
    return engines


def report(judged: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The top-level keys (default engine, report voices, robotic excluded) and the table."""
    table: dict[str, Any] = {}
    for engine, rows in judged.items():
        by: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
        for r in rows:
            by[r["family"]][condition(r)].append(r)
        table[engine] = {fam: {cond: summarize(rs) for cond, rs in sorted(conds.items())}
                         for fam, conds in sorted(by.items())}
    default = default_engine(judged)
    rows = [r for r in judged[default] if not r["robotic"]]
    toast_rows = [r for r in rows if r["toast"]]
    at10 = [r for r in toast_rows if r["snr_db"] == 10.0]
    clean = [r for r in toast_rows if r["noise"] == "clean"]
    lat = [r["latency_s"] for r in toast_rows
           if r["latency_s"] is not None and (r["snr_db"] in (None, 10.0))]
    return {
        "speech_accuracy": summarize(at10)["accuracy"],
        "speech_accuracy_clean": summarize(clean)["accuracy"],
        "speech_false_accept": summarize([r for r in rows if not r["toast"]])["false_accept"],
        "speech_decision_p95_ms": round(float(np.percentile(lat, 95)) * 1000, 1) if lat else None,
        "speech_rtf": round(sum(r["compute_s"] for r in rows) / sum(r["audio_s"] for r in rows), 4),
        "speech_engine": default,
        "speech_table": table,
    }


def run(corpus: Path = Path("corpus"), split: str = "report",
        workers: int | None = None) -> dict[str, Any]:
    """The benchmark's keys (``make bench`` merges them): the corpus is generated first when
    it is missing."""
    if not (corpus / "manifest.jsonl").exists():
        from bench.corpus import generate

        generate(corpus)
    workers = workers or max(1, min(2, os.cpu_count() or 1))
    engines = available_engines()
    return report({e: judge_split(corpus, e, split, workers) for e in engines})


def print_table(table: dict[str, Any]) -> None:
    """The table as text: accuracy / false accepts by engine, voice family and noise."""
    conds = ["clean", "pink20", "pink10", "pink5", "babble20", "babble10", "babble5"]
    print(f"{'engine':<13}{'voices':<16}" + "".join(f"{c:>14}" for c in conds))
    for engine, fams in table.items():
        for fam, cells in fams.items():
            line = f"{engine:<13}{fam:<16}"
            for c in conds:
                cell = cells.get(c)
                line += f"{cell['accuracy']:>7.2f}/{cell['false_accept']:<6.2f}" if cell else " " * 14
            print(line)
    print("(each cell: right toast / false accepts on other words)")


def main(argv: list[str] | None = None) -> int:
    """Command line: run the benchmark, merge the results, print the table."""
    ap = argparse.ArgumentParser(prog="python -m bench.speech_bench", description=__doc__)
    ap.add_argument("--corpus", type=Path, default=Path("corpus"))
    ap.add_argument("--split", default="report", help="voices to measure (report or tune)")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--engines", help="comma-separated engines to measure (default: all here)")
    ap.add_argument("--no-write", action="store_true", help="do not touch bench/results.json")
    ap.add_argument("--dump", type=Path, help="also write every judged clip to this JSON file")
    ap.add_argument("--lexicon", help="the spotter's lexicon: a name or a .json path (a candidate)")
    args = ap.parse_args(argv)
    global LEXICON
    LEXICON = args.lexicon or LEXICON
    if not (args.corpus / "manifest.jsonl").exists():
        ap.error(f"no corpus at {args.corpus}: run `python -m bench.corpus --out {args.corpus}`")
    engines = args.engines.split(",") if args.engines else available_engines()
    judged = {e: judge_split(args.corpus, e, args.split, args.workers) for e in engines}
    keys = report(judged)
    if args.dump:
        args.dump.write_text(json.dumps(judged))
    if not args.no_write:
        merge(keys)
    print(json.dumps({k: v for k, v in keys.items() if k != "speech_table"}, indent=2))
    print_table(keys["speech_table"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
