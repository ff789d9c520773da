"""The spotter on real people talking: ``python -m bench.real_speech``.

Every other measure of the ear is on synthesized voices.  The one real human speech the package
registries carry that this project can use is a handful of recordings shipped as examples in the
``moonshine-voice`` wheel (MIT; readings of Dickens and Beckett and a short spoken sentence,
about 87 seconds in all, none of them a toast): they are read here, never trained or tuned on,
and every toast the spotter fires in them is a false accept on real speech.  The spotter judges
each file as ``clinkbox speech classify`` does (after a lead-in of the file's own quiet), so a
fire anywhere in a file counts, where the live box would judge only the seconds after a press.

Writes ``bench/real_speech.json``; returns ``speech_real_fires_per_min`` for
``bench/results.json`` (no target: a measure of what the box will meet, not of a toast).

``python -m bench.real_speech --people`` (:func:`people_run`) measures the spotter on the real
people of Debian's ``klettres-data`` and ``gcin-voice`` (:mod:`bench.people`) that no fit has
heard (:data:`bench.people.HELD_OUT`): strings of each speaker's letters and syllables, no
toast, clean and in pink noise at 10 dB (every toast fired a false accept:
``speech_people_false_accept``), and the two toasts spliced from the Mandarin speakers'
syllables (kàn pái, qìn qìn: ``speech_people_spliced_accuracy``), each judged as ``clinkbox
speech classify`` judges a file.  It measures too the real people *talking* that no fit has
heard (:data:`bench.people.TALK_HELD_OUT`: KTuberling's names in six languages, Fish Fillets's
Dutch dialogue), every toast fired a false accept (``speech_people_talk_false_accept``).  Writes
``bench/people.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

RECORDINGS = ("beckett.wav", "two_cities.wav", "endgame_nagg_nell.wav", "clone-test.wav")


def recordings() -> list[Path]:
    """The real recordings, where the ``moonshine-voice`` wheel is installed (``make bench``'s
    ``voices`` extra); its code is never imported, only its files read."""
    spec = importlib.util.find_spec("moonshine_voice")
    if spec is None or not spec.submodule_search_locations:
        return []
    assets = Path(next(iter(spec.submodule_search_locations))) / "assets"
    return [assets / name for name in RECORDINGS if (assets / name).exists()]


def run(out: Path = Path("bench/real_speech.json"), lexicon: str | Path = "spotter-en"
        ) -> dict[str, Any]:
    from hardware.speech.audio import RATE, read_wav
    from hardware.speech.spotter import SpotterEngine

    files = recordings()
    if not files:
        raise RuntimeError("no real recordings here: pip install moonshine-voice "
                           "(make bench's voices extra)")
    spotter = SpotterEngine(lexicon)
    per_file, seconds, fires = [], 0.0, 0
    for path in files:
        pcm = read_wav(path)
        heard = [h for h in spotter.classify(pcm) if h.toast]
        per_file.append({"file": path.name, "seconds": round(len(pcm) / RATE, 1),
                         "fired": [{"toast": h.toast, "at_s": round(h.start, 2),
                                    "confidence": round(h.confidence, 3)} for h in heard]})
        seconds += len(pcm) / RATE
        fires += len(heard)
    rate = round(fires / (seconds / 60), 2)
    report = {"fires": fires, "seconds": round(seconds, 1), "fires_per_min": rate,
              "files": per_file}
    out.write_text(json.dumps(report, indent=1) + "\n")
    return {"speech_real_fires_per_min": rate, "speech_real": {"fires": fires,
                                                               "seconds": round(seconds, 1)}}


#: strings of no toast judged per held-out speaker, in each condition
PEOPLE_STRINGS = 30
#: strings judged per held-out talking speaker (KTuberling's names), in each condition
TALK_STRINGS = 40
#: lines judged of each held-out dub of Fish Fillets, in each condition
TALK_LINES = 200
PEOPLE_CONDS = ("clean", "pink")


def judged_clip(speech: np.ndarray, cond: str, seed: int) -> np.ndarray:
    """``speech`` as the acceptance corpus has it (:func:`bench.spotter_data.corpus_clip`),
    clean or with pink noise at 10 dB; int16."""
    from bench.corpus import pink_noise
    from bench.spotter_data import corpus_clip
    from hardware.speech.audio import RATE

    if cond not in PEOPLE_CONDS:
        raise ValueError(f"unknown condition {cond!r}: clean or pink")
    noise = (pink_noise(len(speech) + RATE, np.random.default_rng([seed, 1]))
             if cond == "pink" else None)
    return corpus_clip(speech, noise, np.random.default_rng(seed))


def most_confident(spotter: Any, speech: np.ndarray, cond: str, seed: int) -> Any:
    """The most confident toast the spotter hears in ``speech`` judged in ``cond`` (None:
    none), as ``clinkbox speech classify`` judges a file."""
    heard = [h for h in spotter.classify(judged_clip(speech, cond, seed)) if h.toast]
    return max(heard, key=lambda h: h.confidence) if heard else None


def people_run(out: Path = Path("bench/people.json"), lexicon: str | Path = "spotter-en"
               ) -> dict[str, Any]:
    """The spotter on the held-out real people (module doc); returns the keys for
    ``bench/results.json``."""
    import zlib
    from collections import Counter

    from bench import people
    from hardware.speech.spotter import SpotterEngine

    speakers = [s for s in people.HELD_OUT if people.available(s)]
    if not speakers:
        raise RuntimeError("no real people's recordings here: apt-get install klettres-data "
                           "gcin-voice (make bench installs them)")
    spotter = SpotterEngine(lexicon)
    per_speaker: dict[str, Any] = {}
    fired_as: Counter[str] = Counter()
    fa = {c: [0, 0] for c in PEOPLE_CONDS}
    right = {c: [0, 0] for c in PEOPLE_CONDS}

    def judge_strings(speaker: str, n: int, fa: dict[str, list[int]],
                      fired_as: Counter[str]) -> dict[str, Any]:
        row: dict[str, Any] = {"strings": 0, "fired": []}
        for text in people.strings(speaker, n, seed=1):
            speech = people.say(speaker, text)
            seed = zlib.crc32(f"{speaker} {text}".encode())
            for cond in PEOPLE_CONDS:
                best = most_confident(spotter, speech, cond, seed)
                fa[cond][0] += best is not None
                fa[cond][1] += 1
                if best is not None:
                    fired_as[str(best.toast)] += 1
                    row["fired"].append({"text": text, "cond": cond, "toast": best.toast,
                                         "confidence": best.confidence})
            row["strings"] += 1
        return row

    for speaker in speakers:
        row = judge_strings(speaker, PEOPLE_STRINGS, fa, fired_as)
        row["spliced"] = []
        for toast, text in people.spliced(speaker) if speaker.startswith("gcin") else ():
            speech = people.say(speaker, text, most_gap_ms=40)
            seed = zlib.crc32(f"{speaker} {text}".encode())
            for cond in PEOPLE_CONDS:
                best = most_confident(spotter, speech, cond, seed)
                heard = best.toast if best is not None else None
                right[cond][0] += heard == toast
                right[cond][1] += 1
                row["spliced"].append({"toast": toast, "text": text, "cond": cond,
                                       "heard": heard})
        per_speaker[speaker] = row
    talk_fa = {c: [0, 0] for c in PEOPLE_CONDS}
    talk_fired_as: Counter[str] = Counter()
    talking = {s: judge_strings(s, TALK_LINES if people.says_lines(s) else TALK_STRINGS,
                                talk_fa, talk_fired_as)
               for s in people.TALK_HELD_OUT if people.available(s)}

    def rate(counts: dict[str, list[int]]) -> float | None:
        n = sum(c[1] for c in counts.values())
        return round(sum(c[0] for c in counts.values()) / n, 3) if n else None

    report = {
        "lexicon": str(lexicon),
        "false_accept": rate(fa), "false_accept_by_cond": {c: rate({c: fa[c]}) for c in fa},
        "fired_as": dict(fired_as.most_common()),
        "spliced_accuracy": rate(right),
        "spliced_accuracy_by_cond": {c: rate({c: right[c]}) for c in right},
        "speakers": per_speaker,
        "talk_false_accept": rate(talk_fa) if talking else None,
        "talk_false_accept_by_cond": {c: rate({c: talk_fa[c]}) for c in talk_fa},
        "talk_fired_as": dict(talk_fired_as.most_common()),
        "talking": talking,
    }
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return {"speech_people_false_accept": report["false_accept"],
            "speech_people_spliced_accuracy": report["spliced_accuracy"],
            "speech_people_talk_false_accept": report["talk_false_accept"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.real_speech", description=__doc__)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--lexicon", default="spotter-en",
                    help="the spotter's lexicon: a name or a path to its json")
    ap.add_argument("--people", action="store_true",
                    help="the held-out real people of Debian's packages (bench/people.json)")
    args = ap.parse_args(argv)
    if args.people:
        json.dump(people_run(args.out or Path("bench/people.json"), args.lexicon), sys.stdout)
    else:
        json.dump(run(args.out or Path("bench/real_speech.json"), args.lexicon), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
