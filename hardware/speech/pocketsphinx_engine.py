"""PocketSphinx as a closed-set toast judge, with the English model from its wheel.

For each stretch of speech the voice detector finds in a window:

1. steady noise measured in the window's quiet part is subtracted (:mod:`denoise`);
2. one grammar decodes the stretch as *either* one toast pronunciation, *or* one near-miss
   word ("cheese", "post", "salad"...), *or* a free loop of phones whose every phone costs the
   lexicon's ``garbage_penalty`` (the rejection model for anything else);
3. a toast is heard when a toast pronunciation wins the whole stretch.

Other rejection scores were measured and dropped (docs/speech-lab.md): the likelihood ratio of
separate toast and phone-loop decodes, and keyword spotting, separated toasts from near
misses worse than this single decode.

The lexicon (``lexicons/pocketsphinx-en.json``) holds every number that was tuned.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import numpy as np

from hardware.speech.audio import RATE, to_float, to_int16
from hardware.speech.denoise import suppress_noise
from hardware.speech.heard import Heard, SpeechModelError
from hardware.speech.lexicon import Lexicon, load_lexicon
from hardware.speech.vad import SpeechSpan, find_speech

PHONES = ("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T "
          "TH UH UW V W Y Z ZH").split()


def model_dir() -> Path:
    """Where the PocketSphinx wheel keeps its English model."""
    import pocketsphinx

    return Path(pocketsphinx.get_model_path()) / "en-us"


def cmudict(words: set[str]) -> dict[str, list[str]]:
    """Pronunciations of ``words`` from the wheel's CMU dictionary (all variants)."""
    found: dict[str, list[str]] = {}
    with open(model_dir() / "cmudict-en-us.dict", encoding="utf-8") as f:
        for line in f:
            head, _, phones = line.strip().partition(" ")
            word = head.split("(")[0]
            if word in words:
                found.setdefault(word, []).append(phones.strip())
    return found


class PocketSphinxEngine:
    """Toast judge on PocketSphinx (see the module docstring for how it decides)."""

    name = "pocketsphinx"

    def __init__(self, lexicon: str | Path = "pocketsphinx-en", *, suppress: bool = True,
                 pad_s: float = 0.2, garbage_penalty: float | None = None) -> None:
        from pocketsphinx import Decoder

        self.lexicon: Lexicon = load_lexicon(lexicon)
        self.suppress = suppress
        self.pad = int(pad_s * RATE)
        extra = self.lexicon.extra
        penalty = float(garbage_penalty or extra.get("garbage_penalty", 1e-2))
        self._word_toast: dict[str, str | None] = {}
        lines: list[str] = []
        for entry in self.lexicon.entries:
            for phones in entry.forms:
                self._check_phones(entry.toast, phones)
                word = f"toast{len(self._word_toast)}"
                self._word_toast[word] = entry.toast
                lines.append(f"{word} {phones}")
        for phones in self._near_miss_pronunciations():
            word = f"other{len(self._word_toast)}"
            self._word_toast[word] = None
            lines.append(f"{word} {phones}")
        lines += [f"ph_{p.lower()} {p}" for p in PHONES]
        words = " | ".join(self._word_toast)
        phone_words = " | ".join(f"ph_{p.lower()}" for p in PHONES)
        grammar = (f"#JSGF V1.0;\ngrammar toasts;\npublic <said> = <word> | <phone>+ ;\n"
                   f"<word> = {words} ;\n<phone> = {phone_words} ;\n")
        with tempfile.NamedTemporaryFile("w", suffix=".dict", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            # wip is paid per word: once by a toast, once per phone by the phone loop
            self._decoder = Decoder(hmm=str(model_dir() / "en-us"), dict=f.name, lm=None,
                                    loglevel="FATAL", bestpath=False, wip=penalty)
        except Exception as err:
            raise SpeechModelError(f"PocketSphinx could not load its English model: {err}") from err
        finally:
            Path(f.name).unlink(missing_ok=True)
        self._decoder.add_jsgf_string("toasts", grammar)
        self._decoder.activate_search("toasts")
        self._lock = threading.Lock()

    def _check_phones(self, what: str, phones: str) -> None:
        unknown = [p for p in phones.split() if p not in PHONES]
        if unknown:
            raise SpeechModelError(
                f"pronunciation {phones!r} of {what!r} uses phones {unknown} the model lacks")

    def _near_miss_pronunciations(self) -> list[str]:
        """Each near-miss entry (one or more dictionary words; every dictionary variant of a
        single word) and each explicit near-miss pronunciation, as phone strings."""
        entries = [str(e).lower() for e in self.lexicon.extra.get("near_misses", [])]
        vocab = cmudict({w for e in entries for w in e.split()})
        out: list[str] = []
        for e in entries:
            missing = [w for w in e.split() if w not in vocab]
            if missing:
                raise SpeechModelError(
                    f"near-miss {e!r} in the PocketSphinx lexicon: {missing} not in the dictionary")
            if len(e.split()) == 1:
                out += vocab[e]
            else:
                out.append(" ".join(vocab[w][0] for w in e.split()))
        for phones in self.lexicon.extra.get("near_miss_pronunciations", []):
            self._check_phones("a near miss", phones)
            out.append(phones)
        return list(dict.fromkeys(out))

    def winner(self, x: np.ndarray, a: int, b: int) -> tuple[str, str | None]:
        """What wins samples ``x[a:b]`` (float) in the grammar: ("toast", its id),
        ("near miss", None), ("phones", None) when the phone loop explains it, or ("nothing",
        None) when the decoder found no path.  The second opinion on a toast another engine
        heard asks this."""
        with self._lock:
            d = self._decoder
            d.start_utt()
            d.process_raw(to_int16(x[max(0, a): min(len(x), b)]).tobytes(), False, True)
            d.end_utt()
            segs = list(d.seg() or []) if d.hyp() is not None else []
        words = [seg.word for seg in segs]
        for w in words:
            if w in self._word_toast:
                toast = self._word_toast[w]
                return ("toast", toast) if toast is not None else ("near miss", None)
        return ("phones", None) if any(w.startswith("ph_") for w in words) else ("nothing", None)

    def candidate(self, x: np.ndarray, span: SpeechSpan) -> tuple[str | None, float]:
        """The toast one span was decoded as (None: a near miss or the phone loop won) and the
        share of the span's frames the toast word covers."""
        a, b = max(0, span.start - self.pad), min(len(x), span.end + self.pad)
        with self._lock:
            d = self._decoder
            d.start_utt()
            d.process_raw(to_int16(x[a:b]).tobytes(), False, True)
            d.end_utt()
            segs = list(d.seg() or []) if d.hyp() is not None else []
        for seg in segs:
            toast = self._word_toast.get(seg.word)
            if toast is not None:
                frames = seg.end_frame - seg.start_frame + 1
                return toast, min(1.0, frames * 160 / max(1, span.end - span.start))
        return None, 0.0

    def judge(self, x: np.ndarray, span: SpeechSpan) -> Heard:
        """Decide one speech span of float samples ``x`` (already denoised).

        The confidence is the share of the speech the toast word covers: a toast decoded over
        a stretch it only partly explains is less sure.
        """
        toast, cover = self.candidate(x, span)
        start, end = span.start / RATE, span.end / RATE
        if toast is None or cover < self.lexicon.entry(toast).min_score:
            return Heard(None, start, end, 0.0)
        return Heard(toast, start, end, round(cover, 3))

    def prepare(self, samples: np.ndarray) -> tuple[np.ndarray, list[SpeechSpan]]:
        """Float samples, denoised when the room is noisy, and their speech spans."""
        x = to_float(np.asarray(samples, dtype=np.int16))
        spans = find_speech(x)
        if self.suppress and spans:
            x = suppress_noise(x, spans)
        return x, spans

    def classify(self, samples: np.ndarray) -> list[Heard]:
        """Judge every stretch of speech in 16 kHz mono int16 ``samples``."""
        x, spans = self.prepare(samples)
        return [self.judge(x, s) for s in spans]

    def candidates(self, samples: np.ndarray) -> list[tuple[str | None, float]]:
        """For tuning the thresholds: each span's decoded toast and its score."""
        x, spans = self.prepare(samples)
        return [self.candidate(x, s) for s in spans]
