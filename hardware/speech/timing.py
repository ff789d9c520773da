"""When the live listener would have decided a toast heard in a recording.

A recording judged in one go says which toast it holds, not when the box would have known.  Live,
the listener takes the microphone in 20 ms blocks: a streaming engine (the toast spotter) reports
a toast in the block that completes the step that fired it; the other engines wait for the voice
detector to close the stretch of speech, then decode the window up to that moment.
:func:`decided_at` replays that path over the recording and says where in it the decision came.
"""

from __future__ import annotations

import math
import time

import numpy as np

from hardware.speech.audio import RATE, to_float
from hardware.speech.heard import Heard, ToastEngine
from hardware.speech.vad import VoiceActivity

BLOCK = 320  # the listener's 20 ms blocks
CONTEXT = int(1.5 * RATE)  # the audio before a stretch of speech that the engines are given


def decided_at(engine: ToastEngine, pcm: np.ndarray, heard: Heard, *, decoding: bool = True) -> float:
    """Seconds into ``pcm`` at which the live listener would have reported ``heard`` (one of
    ``engine.classify(pcm)``'s verdicts): the audio it had to wait for, plus, for an engine that
    decodes a finished stretch of speech, the time that decoding takes on this machine (left
    out with ``decoding=False``: then the answer depends on the audio alone, not on how fast
    this CPU is)."""
    pcm = np.asarray(pcm, np.int16).reshape(-1)
    if getattr(engine, "streaming", False):
        # the spotter's end is the end of the window that fired it: reported with that block
        return min(math.ceil(round(heard.end * RATE) / BLOCK) * BLOCK, len(pcm)) / RATE
    vad = VoiceActivity()
    for pos in range(0, len(pcm), BLOCK):
        now = min(pos + BLOCK, len(pcm))
        spans = vad.feed(to_float(pcm[pos:now]))
        if now >= len(pcm):
            spans += vad.flush()
        for span in spans:
            if span.start / RATE <= heard.end and span.end / RATE >= heard.start:
                return now / RATE + (_decoding_time(engine, pcm[max(0, span.start - CONTEXT): now])
                                     if decoding else 0.0)
    return len(pcm) / RATE + (_decoding_time(engine, pcm) if decoding else 0.0)


def _decoding_time(engine: ToastEngine, pcm: np.ndarray) -> float:
    """How long ``engine`` takes here to decode ``pcm``, in seconds."""
    t0 = time.perf_counter()
    engine.classify(pcm)
    return time.perf_counter() - t0
