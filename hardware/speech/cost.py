"""What listening costs: CPU seconds per second of audio, measured on this machine.

The listener's worker does all the listening on one thread: with the toast spotter it feeds every
20 ms block to the spotter's stream; with PocketSphinx or Vosk it runs the voice detector on every
block and decodes each stretch of speech (with 1.5 s before it) when the stretch ends.
:func:`listening_cost` replays that work over an array as fast as it can and divides the CPU time
the thread spent by the audio's length: 0.05 means 5 % of one core.  (onnxruntime runs the
spotter's networks on one thread, in the caller's: its time is counted.)

``clinkbox doctor`` runs it on the box with :func:`speechlike` audio (nothing is recorded), and
``make bench`` on the speech corpus, so a Pi's own figure replaces the estimate in
docs/raspberry-pi.md.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hardware.speech.audio import RATE, to_float
from hardware.speech.vad import VoiceActivity

BLOCK = 320
CONTEXT = int(1.5 * RATE)


def speechlike(seconds: float, seed: int = 0) -> np.ndarray:
    """Voiced-sounding bursts (0.3-0.9 s of a 100-220 Hz buzz with its harmonics, shaped in level)
    with gaps of room noise: enough for the voice detector to cut stretches and the engines to
    work as they do on speech."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    x = rng.standard_normal(n) * 10 ** (-60 / 20)
    t = 0.4
    while t < seconds - 1.0:
        dur = float(rng.uniform(0.3, 0.9))
        i, k = int(t * RATE), int(dur * RATE)
        f0 = float(rng.uniform(100, 220)) * (1 + 0.1 * np.sin(np.linspace(0, 3, k)))
        phase = 2 * np.pi * np.cumsum(f0) / RATE
        voice = sum(np.sin(h * phase) / h for h in range(1, 12))
        x[i: i + k] += 0.08 * np.hanning(k) * voice * (1 + 0.3 * rng.standard_normal(k))
        t += dur + float(rng.uniform(0.4, 1.0))
    return np.clip(np.round(x * 32768), -32768, 32767).astype(np.int16)


def listening_cost(engine: Any, pcm: np.ndarray) -> float:
    """CPU seconds the listener's worker spends per second of ``pcm`` with ``engine``."""
    pcm = np.asarray(pcm, np.int16).reshape(-1)
    t0 = time.thread_time()
    if getattr(engine, "streaming", False):
        stream = engine.stream()
        for i in range(0, len(pcm), BLOCK):
            stream.feed(pcm[i: i + BLOCK])
    else:
        vad = VoiceActivity()
        for i in range(0, len(pcm), BLOCK):
            for span in vad.feed(to_float(pcm[i: i + BLOCK])):
                engine.classify(pcm[max(0, span.start - CONTEXT): i + BLOCK])
    return (time.thread_time() - t0) / (len(pcm) / RATE)


def enrolment_cost(engine: Any, clip: np.ndarray, toast: str) -> float:
    """CPU seconds to learn one toast from a clip (refused or not: the work is the same)."""
    from hardware.speech.enrol import EnrolRefused, make_template

    t0 = time.thread_time()
    try:
        make_template(engine, clip, toast)
    except EnrolRefused:
        pass
    return time.thread_time() - t0


def matching_cost(engine: Any, templates: int = 24, steps: int = 25) -> float:
    """CPU seconds per second of audio to compare every 80 ms step with ``templates`` enrolled
    toasts (the most a table keeps: four of each toast), on top of listening."""
    from hardware.speech.enrol import Enrolment, Template

    rng = np.random.default_rng(1)
    toasts = tuple(engine.toasts)
    x = rng.standard_normal((1, engine.net.inputs)).astype(np.float32)
    heard = engine.net.features(x)[0]
    enrolment = Enrolment([Template.of(toasts[i % len(toasts)], rng.standard_normal((2, len(heard))))
                           for i in range(templates)], max_templates_per_toast=templates)
    p = np.full(len(toasts) + 1, 0.5)
    t0 = time.thread_time()
    for _ in range(steps):
        enrolment.decide(0, p, heard, toasts)
    return (time.thread_time() - t0) / steps * (RATE / 1280)
