"""Generate the synthetic toast corpus: ``python -m bench.corpus [--out corpus/]``.

Every voice in :mod:`bench.voices` says the six toasts, the distractor words and the party
chatter.  Each utterance gets 0.5 s of near-silence on both sides (a -65 dBFS noise floor, never
digital zeros, which break the decoders), and is written clean and mixed with pink noise and with
babble (other synthetic speech) at 20, 10 and 5 dB signal-to-noise.  ``manifest.jsonl`` lists
every clip with its voice, split, words and where the speech lies in it.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import wave
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from bench.voices import (
    ALL_VOICES,
    BABBLE_SENTENCES,
    BABBLE_VOICES,
    CHATTER_SENTENCES,
    DISTRACTOR_WORDS,
    TOAST_SPELLINGS,
    Voice,
)
from hardware.speech.audio import active_power, pink_noise

RATE = 16000
PAD_S = 0.5
FLOOR_DBFS = -65.0
SPEECH_DBFS = -23.0
SNRS_DB = (20, 10, 5)
NOISES = ("pink", "babble")


@dataclass(frozen=True)
class Utterance:
    """What a voice is asked to say: a toast (with its id), a distractor or chatter."""

    kind: str
    text: str
    toast: str | None


UTTERANCES: tuple[Utterance, ...] = (
    *(Utterance("toast", spoken, tid) for tid, spoken in TOAST_SPELLINGS.items()),
    *(Utterance("distractor", w, None) for w in DISTRACTOR_WORDS),
    *(Utterance("chatter", s, None) for s in CHATTER_SENTENCES),
)


def synthesize(voice: Voice, text: str) -> np.ndarray:
    """``text`` spoken by ``voice`` as float32 at 16 kHz mono, trimmed to the speech."""
    with tempfile.TemporaryDirectory() as tmp:
        raw, conv = Path(tmp) / "raw.wav", Path(tmp) / "conv.wav"
        voice.say(text, raw)
        # -R: sox seeds its dither with a fixed number, so the same voice and text give the same
        # samples on every run (a corpus and a training set can be made again, byte for byte)
        subprocess.run(["sox", "-R", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(conv)],
                       check=True, capture_output=True)
        with wave.open(str(conv)) as w:
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    x = pcm.astype(np.float32) / 32768.0
    return trim(x)


def trim(x: np.ndarray, rel_db: float = -45.0) -> np.ndarray:
    """Cut leading and trailing silence: 10 ms frames below ``rel_db`` of the loudest frame."""
    n = len(x) // 160
    if n == 0:
        return x
    e = 10 * np.log10(np.mean(x[: n * 160].reshape(n, 160) ** 2, axis=1) + 1e-12)
    loud = np.flatnonzero(e > e.max() + rel_db)
    return x[loud[0] * 160: (loud[-1] + 1) * 160]


def babble_lane(pick: Callable[[], np.ndarray], n: int, rng: random.Random,
                longest_gap: int = RATE // 3) -> np.ndarray:
    """One talker of a babble track, ``n`` samples: ``pick()``'s clips at unit active power, one
    after another from a random start, with a pause of 0.1 s up to ``longest_gap`` between them."""
    pos, lane = rng.randrange(RATE), np.zeros(n, np.float32)
    while pos < n:
        c = pick()
        c = c / np.sqrt(active_power(c))
        take = min(len(c), n - pos)
        lane[pos: pos + take] += c[:take]
        pos += take + rng.randrange(RATE // 10, longest_gap)
    return lane


def make_babble(seconds: float, seed: int) -> np.ndarray:
    """A track of four overlapping talkers saying the babble sentences, unit power."""
    rng = random.Random(seed)
    voices = [v for v in BABBLE_VOICES if v.available()] or [ALL_VOICES[0]]
    clips = {(v.id, s): synthesize(v, s) for v in voices for s in BABBLE_SENTENCES}
    n = int(seconds * RATE)
    track = np.zeros(n, np.float32)
    for talker in range(4):
        lane = babble_lane(lambda: clips[(rng.choice(voices).id, rng.choice(BABBLE_SENTENCES))], n, rng)
        track += lane * (0.7 + 0.3 * talker / 3)
    return track / np.sqrt(np.mean(track**2))


def mix(speech: np.ndarray, noise: np.ndarray | None, snr_db: float | None,
        rng: np.random.Generator) -> np.ndarray:
    """Pad, level and mix one clip; the noise spans the whole clip."""
    pad = int(PAD_S * RATE)
    s = speech * (10 ** (SPEECH_DBFS / 20) / np.sqrt(active_power(speech)))
    clip = np.concatenate([np.zeros(pad, np.float32), s, np.zeros(pad, np.float32)])
    clip += rng.standard_normal(len(clip)).astype(np.float32) * 10 ** (FLOOR_DBFS / 20)
    if noise is not None and snr_db is not None:
        gain = np.sqrt(active_power(s) / 10 ** (snr_db / 10))
        clip += noise[: len(clip)] * gain
    peak = float(np.max(np.abs(clip)))
    return clip * (0.95 / peak) if peak > 0.95 else clip


def write_wav(path: Path, x: np.ndarray) -> None:
    """Write float samples in [-1, 1] as 16-bit 16 kHz mono WAV."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes((np.clip(x, -1, 1) * 32767).astype(np.int16).tobytes())


def slug(text: str) -> str:
    """A file-name-safe form of an utterance."""
    return "".join(c if c.isalnum() else "_" for c in text.lower())[:40]


def generate(out: Path, seed: int = 2024, voices: tuple[Voice, ...] = ALL_VOICES) -> int:
    """Write the corpus and its manifest under ``out``; returns the number of clips."""
    usable = [v for v in voices if v.available()]
    missing = [v.id for v in voices if not v.available()]
    if missing:
        print(f"skipping voices whose synthesizer is not installed: {missing}", file=sys.stderr)
    babble = make_babble(60.0, seed)
    jobs = [(v, u) for v in usable for u in UTTERANCES]
    with ThreadPoolExecutor(max_workers=4) as pool:
        spoken = list(pool.map(lambda vu: synthesize(vu[0], vu[1].text), jobs))
    rows: list[dict[str, object]] = []
    for i, ((voice, utt), speech) in enumerate(zip(jobs, spoken)):
        rng = np.random.default_rng(seed * 100003 + i)
        conditions: list[tuple[str, float | None, np.ndarray | None]] = [("clean", None, None)]
        span = len(speech) + 2 * int(PAD_S * RATE)
        for snr in SNRS_DB:
            conditions.append(("pink", float(snr), pink_noise(span, rng)))
            start = int(rng.integers(0, len(babble) - span))
            conditions.append(("babble", float(snr), babble[start: start + span]))
        for noise_name, snr, noise in conditions:
            cond = noise_name if snr is None else f"{noise_name}{int(snr)}"
            rel = Path(voice.id) / f"{slug(utt.text)}__{cond}.wav"
            write_wav(out / rel, mix(speech, noise, snr, rng))
            rows.append({
                "file": str(rel), "voice": voice.id, "family": voice.family,
                "split": voice.split, "robotic": voice.robotic, **asdict(utt),
                "noise": noise_name, "snr_db": snr,
                "speech_start": PAD_S, "speech_end": PAD_S + len(speech) / RATE,
            })
    with open(out / "manifest.jsonl", "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: generate the corpus."""
    ap = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__)
    ap.add_argument("--out", type=Path, default=Path("corpus"), help="output folder")
    ap.add_argument("--seed", type=int, default=2024, help="noise and babble seed")
    args = ap.parse_args(argv)
    n = generate(args.out, args.seed)
    print(f"wrote {n} clips and {args.out / 'manifest.jsonl'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
