"""Choosing the recogniser, and judging a WAV file with it.

The default on every machine is the engine measured best on voices held out of training: the
toast spotter (zero download: its networks are in the repository, its speech-embedding model in
the ``openwakeword`` wheel; docs/speech.md has the figures), and PocketSphinx when the spotter
cannot run (no onnxruntime for this machine).  Vosk is used only when asked for
(``speech_engine = "vosk"`` or ``--engine vosk``) and its small English model sits in the data
folder (``<data_dir>/models/vosk-model-small-en-us*``, fetched once by ``make model``): it has
not been measured on held-out voices, so having it is no reason to switch.  Every choice comes
with the reason, so ``clinkbox doctor`` and the log can say why.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from hardware.speech.audio import read_wav
from hardware.speech.heard import Heard, SpeechModelError, ToastEngine

log = logging.getLogger(__name__)

ENGINES = ("spotter", "pocketsphinx", "vosk")


def default_data_dir() -> Path:
    """The user's data folder for clinkbox (``$XDG_DATA_HOME/clinkbox``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "clinkbox"


def find_vosk_model(data_dir: Path) -> Path | None:
    """The newest-named small English Vosk model folder under ``data_dir/models``, if any."""
    found = sorted((data_dir / "models").glob("vosk-model-small-en-us*"))
    found = [p for p in found if p.is_dir()]
    return found[-1] if found else None


def _pocketsphinx() -> ToastEngine:
    from hardware.speech.pocketsphinx_engine import PocketSphinxEngine

    return PocketSphinxEngine()


def _spotter_or_pocketsphinx(why: str) -> tuple[ToastEngine, str]:
    """The toast spotter, or PocketSphinx when the spotter cannot run; ``why`` says why."""
    try:
        from hardware.speech.spotter import SpotterEngine

        return SpotterEngine(), f"toast spotter: {why}"
    except (SpeechModelError, ImportError) as err:
        log.warning("toast spotter unusable (%s); using PocketSphinx", err)
        return _pocketsphinx(), f"PocketSphinx: {why}, and the toast spotter cannot run ({err})"


def choose_engine(preference: str | None, data_dir: str | Path | None = None
                  ) -> tuple[ToastEngine, str]:
    """The engine to listen with and why: ``preference`` is "spotter", "pocketsphinx", "vosk"
    or None (the default: the spotter, measured best on held-out voices).

    Vosk asked for with its model missing or corrupt falls back to the spotter, a spotter that
    cannot run to PocketSphinx, each time with the reason given.
    """
    if preference not in (None, *ENGINES):
        raise ValueError(f"unknown speech engine {preference!r}: choose one of {ENGINES}")
    data = Path(data_dir) if data_dir is not None else default_data_dir()
    if preference == "pocketsphinx":
        return _pocketsphinx(), "PocketSphinx, as configured"
    if preference == "spotter":
        return _spotter_or_pocketsphinx("as configured")
    model = find_vosk_model(data)
    if preference is None:
        why = "the engine measured best on held-out voices"
        if model is not None:
            why += f"; the Vosk model {model.name} is used only when asked for (engine vosk)"
        return _spotter_or_pocketsphinx(why)
    if model is None:
        why = f"Vosk asked for, but no Vosk English model in {data / 'models'} (run `make model`)"
        log.warning("%s", why)
        return _spotter_or_pocketsphinx(why)
    try:
        from hardware.speech.vosk_engine import VoskEngine

        return VoskEngine(model, "vosk-en"), f"Vosk with {model.name}, as configured"
    except SpeechModelError as err:
        log.warning("Vosk model unusable (%s)", err)
        return _spotter_or_pocketsphinx(f"the Vosk model is unusable ({err})")


def recognise_file(path: str | Path, engine: ToastEngine | None = None) -> list[Heard]:
    """Judge every stretch of speech in a WAV file (any rate or channel count).

    Raises :class:`~hardware.speech.audio.NotAWavFile` for a file that is not a readable WAV.
    """
    samples = read_wav(path)
    if engine is None:
        engine, _ = choose_engine(None)
    return engine.classify(samples)
