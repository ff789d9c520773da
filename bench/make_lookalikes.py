"""The look-alike words a learned toast must beat: ``python -m bench.make_lookalikes``.

Writes ``hardware/speech/lexicons/lookalikes-en.npz``: for each toast, words that sound near it
("solid", "salute", "saloon"... for salud), said by four of the spotter's own tuning voices (two
flite, one espeak-ng, one festival), each kept as its speech's normalised log-mel frames, as
:func:`hardware.speech.enrol.make_template` keeps a player's toast.  A learned toast fires only
when the recent audio matches the table's template clearly better than every look-alike of that
toast (:class:`hardware.speech.enrol.Enrolment`).

None of these words is one of the benchmark's look-alike words (``bench.voices.DISTRACTOR_WORDS``:
cheese, salad, post, can't pay...), so the false accepts measured on those stay a measure of
words the bank has never held; no benchmark, dev or held-out voice says them.  The synthesizers
are deterministic, so the file is the same on every run on the same packages.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

#: words near each toast (from the spotter's look-alike negatives, bench/spotter_data.py)
LOOKALIKES: dict[str, tuple[str, ...]] = {
    "prost": ("most", "frost", "roast", "past", "pressed", "pro", "protest", "prosper", "prom", "broad"),
    "cheers": ("chairs", "cheer up", "chess", "cheap", "cheeks", "jeans", "cheddar", "cheerful", "children",
               "chilly"),
    "tchin tchin": ("kitchen", "chin up", "chinchilla", "gin", "chin", "chilling", "ginger", "chain", "chop chop"),
    "kanpai": ("compile", "campaign", "company", "pay", "can I pay", "can't buy", "canopy", "campus", "pie",
               "panda"),
    "salud": ("solid", "salute", "saloon", "sally", "salsa", "the lewd", "solitude", "sale", "slide", "sold"),
    "na zdorovie": ("nasty", "story", "zero", "nasdaq", "nostalgia", "zebra", "the door", "adore"),
}
#: the benchmark's tuning voices that say them (never a report, dev, held-out or reserved voice)
VOICES = ("flite-kal", "flite-awb", "espeak-en-us-140", "festival-kal")
OUT = Path(__file__).resolve().parents[1] / "hardware" / "speech" / "lexicons" / "lookalikes-en.npz"


def build(out: Path = OUT) -> int:
    from bench.corpus import mix, synthesize
    from bench.voices import ALL_VOICES, DISTRACTOR_WORDS
    from hardware.speech.enrol import MEL_HOP, check_clip, normalise
    from hardware.speech.spotter import Embedder

    assert not {w for ws in LOOKALIKES.values() for w in ws} & set(DISTRACTOR_WORDS)
    voices = {v.id: v for v in ALL_VOICES}
    embedder = Embedder()
    toasts: list[str] = []
    mels: list[np.ndarray] = []
    for vid in VOICES:
        v = voices[vid]
        assert v.split == "tune", vid
        for toast, words in LOOKALIKES.items():
            for word in words:
                x = mix(synthesize(v, word), None, None, np.random.default_rng(0))
                pcm = (np.clip(x, -1, 1) * 32767).astype(np.int16)
                spans = check_clip(pcm)
                start, end = spans[0][0], spans[-1][1]
                mel = normalise(embedder.mel(pcm))[start // MEL_HOP: end // MEL_HOP]
                toasts.append(toast)
                mels.append(mel.astype(np.float16))
    lengths = np.array([len(m) for m in mels], np.int32)
    np.savez_compressed(out, toasts=np.array(toasts), lengths=lengths, mel=np.concatenate(mels))
    return len(mels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.make_lookalikes", description=__doc__)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    n = build(args.out)
    print(f"{n} look-alike templates -> {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
