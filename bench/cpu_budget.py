"""What listening costs here, per engine and for learning a toast: ``python -m bench.cpu_budget``.

A minute of the corpus's report clips (toasts, look-alike words, chatter; clean and in noise),
played end to end, goes through the listener's work for each engine here
(:func:`hardware.speech.cost.listening_cost`): CPU seconds of the worker's thread per second of
audio.  Learning a toast (:func:`~hardware.speech.cost.enrolment_cost`) is timed on the report
voices' toasts, and matching against six learned toasts at every step (the worst case) apart.
docs/raspberry-pi.md turns these into a Pi 4's and a Pi 5's budget.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from bench.results_file import merge


def corpus_minute(corpus: Path, seconds: float = 60.0, seed: int = 0) -> tuple[np.ndarray, list[tuple[np.ndarray, str]]]:
    """About ``seconds`` of report clips end to end, and the toast clips among them."""
    from hardware.speech.audio import read_wav

    rows = [json.loads(x) for x in (corpus / "manifest.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["split"] == "report" and not r["robotic"]]
    random.Random(seed).shuffle(rows)
    clips, toasts, total = [], [], 0
    for r in rows:
        pcm = read_wav(corpus / r["file"])
        clips.append(pcm)
        if r["toast"] and r["noise"] == "clean":
            toasts.append((pcm, r["toast"]))
        total += len(pcm)
        if total >= seconds * 16000:
            break
    return np.concatenate(clips), toasts


def run(corpus: Path = Path("corpus")) -> dict[str, Any]:
    from hardware.speech.cost import enrolment_cost, listening_cost, matching_cost
    from hardware.speech.select import default_data_dir, find_vosk_model

    if not (corpus / "manifest.jsonl").exists():
        from bench.corpus import generate

        generate(corpus)
    audio, toasts = corpus_minute(corpus)
    costs: dict[str, float] = {}
    from hardware.speech.spotter import SpotterEngine

    spotter = SpotterEngine()
    costs["spotter"] = listening_cost(spotter, audio)
    from hardware.speech.pocketsphinx_engine import PocketSphinxEngine

    costs["pocketsphinx"] = listening_cost(PocketSphinxEngine(), audio)
    model = find_vosk_model(default_data_dir())
    if model is not None:
        from hardware.speech.vosk_engine import VoskEngine

        costs["vosk"] = listening_cost(VoskEngine(model, "vosk-en"), audio)
    enrol = [enrolment_cost(spotter, pcm, toast) for pcm, toast in toasts[:12]]
    return {"listen_cpu": {
        "per_audio_s": {k: round(v, 4) for k, v in costs.items()},
        "enrol_s_per_toast": round(float(np.median(enrol)), 3) if enrol else None,
        "enrol_match_worst_per_audio_s": round(matching_cost(spotter), 4),
        "audio_s": round(len(audio) / 16000, 1),
        "load_average": round(os.getloadavg()[0], 1),
    }}


if __name__ == "__main__":
    keys = run(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("corpus"))
    merge(keys)
    print(json.dumps(keys, indent=1))
