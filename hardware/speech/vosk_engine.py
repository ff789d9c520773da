"""Vosk as a toast judge: grammar mode restricted to the toasts' spellings.

The grammar holds every spelling of the lexicon (``lexicons/vosk-<lang>.json``) plus
``[unk]`` when the model has it.  Each spelling must use words the model knows: they are checked
at load against ``graph/words.txt`` or, for models without it, against the word symbols of
``graph/Gr.fst``.  Every stretch of speech the voice detector finds is fed to the recogniser in
fixed-size chunks (the same input decodes identically only with the same chunk size) and decided
by ``FinalResult()`` at the end of the stretch, never by Vosk's own endpointer, which can wait
seconds in steady noise.  A toast is heard when the result is exactly one of its spellings
(``[unk]`` around it is allowed).
"""

from __future__ import annotations

import json
import logging
import struct
import threading
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from hardware.speech.audio import RATE, to_float, to_int16
from hardware.speech.denoise import suppress_noise
from hardware.speech.heard import Heard, SpeechModelError
from hardware.speech.lexicon import load_lexicon
from hardware.speech.vad import SpeechSpan, find_speech

log = logging.getLogger(__name__)

CHUNK_BYTES = 8000  # fixed: Vosk's results depend on the chunk size
_FST_MAGIC = 2125659606
_SYMBOLS_MAGIC = 2125658996
_UNKNOWN = {"[unk]", "<unk>", "<UNK>"}


def _read_string(f: BinaryIO) -> str:
    (n,) = struct.unpack("<i", f.read(4))
    return f.read(n).decode("utf-8", errors="replace")


def fst_output_symbols(path: Path) -> set[str]:
    """The output (word) symbols stored in an OpenFst binary file's header."""
    with open(path, "rb") as f:
        (magic,) = struct.unpack("<i", f.read(4))
        if magic != _FST_MAGIC:
            raise SpeechModelError(f"{path} is not an OpenFst file")
        _read_string(f)  # fst type
        _read_string(f)  # arc type
        _version, flags = struct.unpack("<ii", f.read(8))
        f.read(8 + 8 + 8 + 8)  # properties, start, number of states, number of arcs
        tables: list[set[str]] = []
        for bit in (1, 2):  # input symbols, then output symbols
            if not flags & bit:
                continue
            (smagic,) = struct.unpack("<i", f.read(4))
            if smagic != _SYMBOLS_MAGIC:
                raise SpeechModelError(f"{path}: unreadable symbol table")
            _read_string(f)  # table name
            _available, size = struct.unpack("<qq", f.read(16))
            words = set()
            for _ in range(size):
                words.add(_read_string(f))
                f.read(8)
            tables.append(words)
    if not tables:
        raise SpeechModelError(f"{path} carries no symbol table: cannot list the model's words")
    return tables[-1]


def model_vocabulary(model_path: Path) -> set[str]:
    """Every word the model can output: ``graph/words.txt``, else the symbols of ``Gr.fst``."""
    words_txt = model_path / "graph" / "words.txt"
    if words_txt.exists():
        return {line.split()[0] for line in words_txt.read_text(encoding="utf-8").splitlines()
                if line.strip()}
    gr = model_path / "graph" / "Gr.fst"
    if gr.exists():
        return fst_output_symbols(gr)
    raise SpeechModelError(f"Vosk model {model_path} has neither graph/words.txt nor graph/Gr.fst")


class VoskEngine:
    """Toast judge on a Vosk model in grammar mode (see the module docstring)."""

    name = "vosk"

    def __init__(self, model_path: str | Path, lexicon: str | Path = "vosk-en", *,
                 suppress: bool = True, pad_s: float = 0.25) -> None:
        import vosk

        vosk.SetLogLevel(-1)
        self.model_path = Path(model_path)
        if not (self.model_path / "am" / "final.mdl").exists():
            raise SpeechModelError(f"{self.model_path} is not a Vosk model (no am/final.mdl)")
        self.lexicon = load_lexicon(lexicon)
        vocab = model_vocabulary(self.model_path)
        self.spelling_toast: dict[str, str] = {}
        for entry in self.lexicon.entries:
            usable = []
            for spelling in entry.forms:
                missing = [w for w in spelling.split() if w not in vocab]
                if missing:
                    log.warning("%s: spelling %r of %r dropped, %s not in the model",
                                self.model_path.name, spelling, entry.toast, missing)
                else:
                    usable.append(spelling)
            if not usable:
                raise SpeechModelError(
                    f"Vosk model {self.model_path.name} knows no spelling of {entry.toast!r}: "
                    f"missing words in {list(entry.forms)}")
            for spelling in usable:
                self.spelling_toast[spelling] = entry.toast
        grammar = list(self.spelling_toast) + (["[unk]"] if "[unk]" in vocab else [])
        try:
            self._model = vosk.Model(str(self.model_path))
        except Exception as err:
            raise SpeechModelError(f"Vosk could not load {self.model_path}: {err}") from err
        self._grammar = json.dumps(grammar, ensure_ascii=False)
        self._vosk = vosk
        self.suppress = suppress
        self.pad = int(pad_s * RATE)
        self._lock = threading.Lock()

    def _decode(self, pcm: bytes) -> dict[str, Any]:
        # a fresh recogniser per stretch: one kept across stretches adapts to the earlier
        # audio, and the same stretch would not always be judged the same way
        rec = self._vosk.KaldiRecognizer(self._model, RATE, self._grammar)
        rec.SetWords(True)
        for i in range(0, len(pcm), CHUNK_BYTES):
            rec.AcceptWaveform(pcm[i: i + CHUNK_BYTES])
        result: dict[str, Any] = json.loads(rec.FinalResult())
        return result

    def judge(self, x: np.ndarray, span: SpeechSpan) -> Heard:
        """Decide one speech span of float samples ``x``."""
        a, b = max(0, span.start - self.pad), min(len(x), span.end + self.pad)
        with self._lock:
            result = self._decode(to_int16(x[a:b]).tobytes())
        words = [w for w in result.get("result", []) if isinstance(w, dict)]
        said = [w for w in words if w.get("word") not in _UNKNOWN]
        text = " ".join(str(w["word"]) for w in said)
        toast = self.spelling_toast.get(text)
        confidence = float(np.mean([float(w.get("conf", 0.0)) for w in said])) if said else 0.0
        return Heard(toast, span.start / RATE, span.end / RATE,
                     round(confidence, 3) if toast else 0.0)

    def classify(self, samples: np.ndarray) -> list[Heard]:
        """Judge every stretch of speech in 16 kHz mono int16 ``samples``."""
        x = to_float(np.asarray(samples, dtype=np.int16))
        spans = find_speech(x)
        if self.suppress and spans:
            x = suppress_noise(x, spans)
        return [self.judge(x, s) for s in spans]
