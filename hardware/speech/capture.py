"""The microphone: capture, a ring of the last seconds, and toast decisions on demand.

Audio arrives on sounddevice's own thread (the stream callback) in small blocks and is only
copied there.  A worker thread keeps a ring buffer of the last ``ring_s`` seconds, runs the voice
detector, and when a stretch of speech ends inside an armed interval asks the engine which toast
it was.  Every time reported is on the box's ``time.monotonic`` clock, computed from sample
counts against the stream's start, never from when a result came back.

A streaming engine (the toast spotter) is fed every block as it arrives instead, and reports
each toast about 0.1-0.2 s after it ends, without waiting for the room to go quiet; the
toasts it spots are kept for a while so that an interval armed later still gets them.

A supervisor thread opens the microphone, notices when it disappears, and reopens it every
``poll_s`` seconds; it reports "ok", "no microphone", "lost" and "back" through ``on_status``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Protocol

import numpy as np

from hardware.speech.audio import RATE, to_float
from hardware.speech.heard import Heard, ToastEngine
from hardware.speech.vad import SpeechSpan, VoiceActivity

log = logging.getLogger(__name__)


class InputStream(Protocol):
    """What the listener needs of an audio input stream (sounddevice's InputStream has it)."""

    active: bool
    latency: Any

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...


StreamFactory = Callable[[int, int, Callable[..., None]], InputStream]


def sounddevice_stream(device: int | str | None = None) -> StreamFactory:
    """A factory of real 16 kHz mono int16 microphone streams."""

    def open_stream(rate: int, block: int, callback: Callable[..., None]) -> InputStream:
        import sounddevice as sd

        sd.check_input_settings(device=device, samplerate=rate, channels=1, dtype="int16")
        return sd.InputStream(samplerate=rate, blocksize=block, channels=1, dtype="int16",
                              device=device, callback=callback)

    return open_stream


class Listener:
    """Listens for toasts: ``Listener(engine, on_toast, on_status)``, ``start``, ``arm``, ``stop``.

    ``on_toast`` gets a :class:`Heard` for each stretch of speech overlapping an armed interval
    (``toast`` None: speech, but no toast).  Callbacks run on the listener's threads.
    """

    def __init__(self, engine: ToastEngine, on_toast: Callable[[Heard], None],
                 on_status: Callable[[str], None] | None = None, *,
                 device: int | str | None = None, stream_factory: StreamFactory | None = None,
                 block_s: float = 0.02,
                 ring_s: float = 10.0, poll_s: float = 3.0, context_s: float = 1.5,
                 stall_s: float = 1.0) -> None:
        self.engine = engine
        self.on_toast = on_toast
        self.on_status = on_status
        self.stream_factory = stream_factory or sounddevice_stream(device)
        self.block = int(block_s * RATE)
        self.poll_s = poll_s
        self.context = int(context_s * RATE)
        self.stall_s = stall_s
        self.status: str | None = None
        self._ring = np.zeros(int(ring_s * RATE), np.int16)
        self._blocks: queue.Queue[tuple[Any, Any]] = queue.Queue()
        self._armed: list[tuple[float, float]] = []
        self._recent: deque[SpeechSpan] = deque(maxlen=32)
        self._streaming = bool(getattr(engine, "streaming", False))
        self._spot_stream: Any = engine.stream() if self._streaming else None  # type: ignore[attr-defined]
        self._spotted: deque[Heard] = deque(maxlen=32)  # toasts a streaming engine heard
        self._lock = threading.Lock()
        self._running = threading.Event()
        self._stream: InputStream | None = None
        self._generation = 0
        self._anchor = 0.0  # monotonic time of the stream's sample 0
        self._received = 0  # samples received from the current stream
        self._last_block = 0.0
        self._filled = 0  # samples of the current stream written into the ring
        self.level_dbfs = -120.0  # loudness of the last block, for a level meter
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._learning: tuple[str, Callable[..., None]] | None = None  # the toast to learn
        self._learn_vad: VoiceActivity | None = None
        self._learn_at = 0  # stream position where the learning detector started
        self._learn_span: SpeechSpan | None = None  # the last speech it heard (its own counts)
        self._learner: ThreadPoolExecutor | None = None  # learns confirmed toasts, one at a time

    # -- public API -----------------------------------------------------------------------
    def start(self) -> None:
        """Open the microphone (or keep trying) and start listening."""
        if self._running.is_set():
            return
        self._running.set()
        self._stopping.clear()
        for target, name in ((self._supervise, "mic-supervisor"), (self._work, "mic-worker")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        """Close the microphone and end the threads."""
        self._running.clear()
        self._stopping.set()
        self._blocks.put(("stop", None))
        for t in self._threads:
            t.join(timeout=5)
        self._threads.clear()
        if self._learner is not None:
            self._learner.shutdown(wait=False, cancel_futures=True)
            self._learner = None
        self._close_stream()

    def arm(self, t_from: float, t_until: float) -> None:
        """Decide on speech overlapping [t_from, t_until] (monotonic seconds) as soon as each
        stretch ends; speech already over in that interval is decided at once."""
        if t_until < t_from:
            raise ValueError(f"arm: t_until {t_until} is before t_from {t_from}")
        self._blocks.put(("arm", (t_from, t_until)))

    def learn(self, toast: str, on_result: Callable[[str, Any, str | None, np.ndarray], None]) -> None:
        """Learn this table's way of saying ``toast`` from the next stretch of speech (an engine
        that can, the toast spotter): ``on_result(toast, template, None, clip)``, or
        ``on_result(toast, None, reason, clip)`` when the clip is refused, in which case the
        listener waits for the toast to be said again. Runs on the listener's worker thread."""
        self._blocks.put(("learn", (toast, on_result)))

    def learn_heard(self, toast: str, t_start: float, t_end: float,
                    on_result: Callable[[str, Any, str | None, np.ndarray], None]) -> None:
        """Learn ``toast`` from speech already heard between two monotonic times (a toast the
        game confirmed), if the ring still holds it; ``on_result`` as for :meth:`learn`."""
        self._blocks.put(("learn_heard", (toast, t_start, t_end, on_result)))

    def stop_learning(self) -> None:
        """Stop waiting for a toast to learn."""
        self._blocks.put(("learn", None))

    def expect(self, words: frozenset[str] | None) -> None:
        """The toasts the game waits for from now on (None: none in particular): an engine that
        can (the toast spotter) listens for them at their expected thresholds, from the next
        block on; the others ignore it."""
        self._blocks.put(("expect", words))

    def time_of(self, sample: int) -> float:
        """Monotonic time of a sample index of the current stream."""
        return self._anchor + sample / RATE

    # -- stream side ----------------------------------------------------------------------
    def _callback(self, generation: int) -> Callable[..., None]:
        def callback(indata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
            if generation != self._generation:
                return
            if self._received == 0:
                latency = self._stream_latency()
                self._anchor = time.monotonic() - frames / RATE - latency
            block = np.asarray(indata, dtype=np.int16).reshape(-1).copy()
            self._blocks.put((self._received, block))
            self._received += len(block)
            self._last_block = time.monotonic()

        return callback

    def _stream_latency(self) -> float:
        lat = getattr(self._stream, "latency", 0.0)
        try:
            return float(lat[0] if isinstance(lat, (tuple, list)) else lat)
        except (TypeError, ValueError):
            return 0.0

    def _set_status(self, status: str, detail: str = "") -> None:
        if status == self.status:
            return
        self.status = status
        (log.info if status in ("ok", "back") else log.warning)(
            "microphone: %s%s", status, f" ({detail})" if detail else "")
        if self.on_status is not None:
            self.on_status(status)

    def _open(self) -> bool:
        self._generation += 1
        self._received = 0
        # the worker starts afresh before the first block can arrive: a stream may deliver
        # blocks as soon as it starts, and they count from sample 0 of this stream
        self._blocks.put(("reset", None))
        try:
            stream = self.stream_factory(RATE, self.block, self._callback(self._generation))
            self._stream = stream
            stream.start()
        except Exception as err:  # sounddevice raises PortAudioError/ValueError, or OSError
            self._stream = None
            detail = str(err) or type(err).__name__
            if "sample rate" in detail.lower() or "samplerate" in detail.lower():
                detail = f"the microphone does not record at {RATE} Hz: {detail}"
            self._set_status("no microphone" if self.status != "lost" else "lost", detail)
            return False
        self._last_block = time.monotonic()
        return True

    def _close_stream(self) -> None:
        stream, self._stream = self._stream, None
        self._generation += 1
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception as err:  # a vanished device may fail to close: nothing to do
                log.debug("closing the microphone: %s", err)

    def _supervise(self) -> None:
        was_lost = False
        while self._running.is_set():
            if self._stream is None:
                if self._open():
                    self._set_status("back" if was_lost else "ok")
                    was_lost = False
                else:
                    self._stopping.wait(self.poll_s)
                    continue
            stream = self._stream
            stalled = time.monotonic() - self._last_block > self.stall_s
            if stream is not None and (not stream.active or stalled):
                self._close_stream()
                was_lost = True
                self._set_status("lost", "the stream stopped" if not stalled else "no audio")
                continue
            self._stopping.wait(min(0.2, self.poll_s))

    # -- worker side ----------------------------------------------------------------------
    def _work(self) -> None:
        vad = VoiceActivity()
        while self._running.is_set():
            try:
                start, item = self._blocks.get(timeout=0.5)
            except queue.Empty:
                continue
            if start == "stop":
                return
            if start == "learn_heard":
                self._learn_heard(*item)
                continue
            if start == "expect":
                expect = getattr(self.engine, "expect", None)
                if expect is not None:
                    try:
                        expect(item)
                    except ValueError as exc:  # a word the engine has no toast for: heard as usual
                        log.warning("the ear cannot listen for %s: %s", item, exc)
                continue
            if start == "learn":
                self._learning, self._learn_span = item, None
                self._learn_vad, self._learn_at = VoiceActivity(), self._filled
                continue
            if start == "reset":
                vad = VoiceActivity()
                self._learn_vad, self._learn_at, self._learn_span = VoiceActivity(), 0, None
                self._recent.clear()
                if self._streaming:
                    self._spot_stream = self.engine.stream()  # type: ignore[attr-defined]
                continue
            if start == "arm":
                interval: tuple[float, float] = item
                self._armed.append(interval)
                for heard in list(self._spotted):
                    if heard.start <= interval[1] and heard.end >= interval[0]:
                        self._spotted.remove(heard)
                        self.on_toast(heard)
                for span in list(self._recent):
                    if self._overlaps(span, *interval):
                        self._decide(span)
                continue
            assert isinstance(start, int)
            n = len(self._ring)
            idx = (start + np.arange(len(item))) % n
            self._ring[idx] = item
            self._filled = start + len(item)
            rms = float(np.sqrt(np.mean(to_float(item) ** 2))) if len(item) else 0.0
            self.level_dbfs = 20.0 * float(np.log10(rms + 1e-6))
            if self._streaming:
                self._spot(item)
            else:
                self._detect(vad, item)
            if self._learning is not None:
                self._learn(item)
            now = self.time_of(self._filled)
            self._armed = [(a, b) for a, b in self._armed if b > now - len(self._ring) / RATE]

    def _learn(self, block: np.ndarray) -> None:
        """Wait for a stretch of speech, then half a second more, and learn the toast from it."""
        assert self._learning is not None and self._learn_vad is not None
        for span in self._learn_vad.feed(to_float(block)):
            self._learn_span = span
        span = self._learn_span
        if span is None or self._filled < self._learn_at + span.end + RATE // 2:
            return
        self._learn_span = None
        toast, on_result = self._learning
        clip = self._window(self._learn_at + span.start - RATE, self._learn_at + span.end + RATE // 2)
        from hardware.speech.enrol import EnrolRefused, make_template

        try:
            template, reason = make_template(self.engine, clip, toast), None
        except EnrolRefused as err:
            template, reason = None, str(err)
        except Exception:  # a failure to learn must not stop the listening
            log.exception("learning a toast failed")
            return
        if template is not None:
            self._learning = None
        on_result(toast, template, reason, clip)

    def _learn_heard(self, toast: str, t_start: float, t_end: float, on_result: Callable[..., None]) -> None:
        first = int(round((t_start - self._anchor) * RATE)) - RATE
        last = int(round((t_end - self._anchor) * RATE)) + RATE // 2
        if first < max(0, self._filled - len(self._ring)) or last > self._filled:
            return  # no longer (or not yet) in the ring: nothing to learn from
        clip = self._window(first, last)
        # learning takes a few network passes (a second or more on a Pi 4): off this thread, so
        # the next toast's verdict does not wait for it
        if self._learner is None:
            self._learner = ThreadPoolExecutor(1, thread_name_prefix="mic-learner")
        self._learner.submit(self._learn_clip, toast, clip, on_result)

    def _learn_clip(self, toast: str, clip: np.ndarray, on_result: Callable[..., None]) -> None:
        from hardware.speech.enrol import EnrolRefused, make_template

        try:
            template, reason = make_template(self.engine, clip, toast, source="confirmed"), None
        except EnrolRefused as err:
            template, reason = None, str(err)
        except Exception:  # a failure to learn must not stop the listening
            log.exception("learning a confirmed toast failed")
            return
        on_result(toast, template, reason, clip)

    def _spot(self, block: np.ndarray) -> None:
        """Feed a streaming engine; report the toasts it spots in an armed interval, keep the
        others for an interval armed later."""
        try:
            spots = self._spot_stream.feed(block)
        except Exception:  # a failing engine must not stop the listening
            log.exception("the toast spotter failed on a block of audio")
            self._spot_stream = self.engine.stream()  # type: ignore[attr-defined]
            return
        for sp in spots:
            heard = Heard(sp.toast, self.time_of(sp.start), self.time_of(sp.end),
                          round(sp.probability, 3))
            if any(heard.start <= b and heard.end >= a for a, b in self._armed):
                self.on_toast(heard)
            else:
                self._spotted.append(heard)

    def _detect(self, vad: VoiceActivity, item: np.ndarray) -> None:
        """Run the voice detector; decide each stretch of speech that ends in an armed interval."""
        for span in vad.feed(to_float(item)):
            self._recent.append(span)
            if any(self._overlaps(span, a, b) for a, b in self._armed):
                self._decide(span)

    def _overlaps(self, span: SpeechSpan, t_from: float, t_until: float) -> bool:
        return self.time_of(span.start) <= t_until and self.time_of(span.end) >= t_from

    def _window(self, first: int, last: int) -> np.ndarray:
        n = len(self._ring)
        first = max(first, last - n, 0)
        return self._ring[np.arange(first, last) % n].copy()

    def _decide(self, span: SpeechSpan) -> None:
        first = max(0, span.start - self.context)
        window = self._window(first, self._filled)
        first = self._filled - len(window)
        try:
            verdicts = self.engine.classify(window)
        except Exception:  # a decoder failure must not stop the listening
            log.exception("the speech engine failed on a stretch of speech")
            return
        best: Heard | None = None
        best_overlap = 0.0
        s0, s1 = (span.start - first) / RATE, (span.end - first) / RATE
        for h in verdicts:
            overlap = min(h.end, s1) - max(h.start, s0)
            if overlap > best_overlap:
                best, best_overlap = h, overlap
        if best is None:
            best = Heard(None, s0, s1, 0.0)
        self.on_toast(Heard(best.toast, self.time_of(first) + best.start,
                            self.time_of(first) + best.end, best.confidence))
        self._recent = deque((s for s in self._recent if s != span), maxlen=32)


def listen_once(data_dir: Any = None, device: int | str | None = None,
                seconds: float = 5.0) -> Heard | None:
    """Listen for ``seconds`` with the chosen engine; the first toast heard, or None."""
    from hardware.speech.select import choose_engine

    engine, _ = choose_engine(None, data_dir)
    heard: list[Heard] = []
    done = threading.Event()

    def got(h: Heard) -> None:
        if h.toast is not None:
            heard.append(h)
            done.set()

    listener = Listener(engine, got, device=device)
    listener.start()
    now = time.monotonic()
    listener.arm(now, now + seconds)
    done.wait(seconds + 0.5)
    listener.stop()
    return heard[0] if heard else None
