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

#: rates a microphone that refuses 16 kHz is asked for instead (its own default first)
FALLBACK_RATES = (48_000, 44_100, 32_000, 96_000, 22_050)


class Resampler:
    """Streaming conversion of a microphone's blocks (any rate, one or more channels, int16) to
    16 kHz mono int16: channels averaged, then a windowed-sinc low-pass and interpolation.

    Output sample ``k`` is the input at ``k * rate / 16000`` exactly (integer arithmetic, so an
    evening of blocks never drifts); it comes out ``half`` input samples later, once the
    filter has the input after it.
    """

    def __init__(self, rate: int, out_rate: int = RATE, half: int = 32) -> None:
        self.rate, self.out_rate, self.half = int(rate), int(out_rate), half
        self._cutoff = 0.45 * min(1.0, out_rate / rate)  # cycles per input sample
        self._buf = np.zeros(half, np.float64)  # input from absolute sample ``_buf_at`` on
        self._buf_at = -half  # a run-in of silence before sample 0
        self._k = 0  # the next output sample

    def __call__(self, block: np.ndarray) -> np.ndarray:
        x = np.asarray(block, np.float64)
        if x.ndim == 2:
            x = x.mean(axis=1)
        if self.rate == self.out_rate:
            return np.clip(np.round(x), -32768, 32767).astype(np.int16)
        self._buf = np.concatenate([self._buf, x.reshape(-1)])
        end = self._buf_at + len(self._buf)  # absolute index after the last input sample
        # output k needs input up to floor(k * rate / out_rate) + half
        last = ((end - self.half) * self.out_rate - 1) // self.rate  # the last k computable
        ks = np.arange(self._k, max(self._k, last + 1), dtype=np.int64)
        if len(ks) == 0:
            return np.zeros(0, np.int16)
        num = ks * self.rate
        base = num // self.out_rate
        frac = (num % self.out_rate) / self.out_rate
        taps = np.arange(-self.half + 1, self.half + 1)
        d = taps[None, :] - frac[:, None]  # distance of each tap from the output's instant
        w = np.sinc(2 * self._cutoff * d) * (0.5 + 0.5 * np.cos(np.pi * d / self.half))
        w /= w.sum(axis=1, keepdims=True)
        idx = base[:, None] + taps[None, :] - self._buf_at
        y = (self._buf[idx] * w).sum(axis=1)
        self._k = int(ks[-1]) + 1
        keep_from = (self._k * self.rate) // self.out_rate - self.half + 1 - self._buf_at
        if keep_from > 0:
            self._buf = self._buf[keep_from:]
            self._buf_at += keep_from
        return np.clip(np.round(y), -32768, 32767).astype(np.int16)


def sounddevice_stream(device: int | str | None = None) -> StreamFactory:
    """A factory of real microphone streams that deliver 16 kHz mono int16 blocks.

    A microphone that records at 16 kHz in one channel is opened so. One that does not (many
    USB microphones opened directly record only at 44.1 or 48 kHz, some only in stereo) is
    opened at a rate and channel count it takes, and its blocks are converted on the way in.
    From the second opening on (the microphone was lost, or never there), PortAudio's list of
    devices is read afresh first, so a microphone plugged in after the box started is found.
    """
    opened = [0]

    def open_stream(rate: int, block: int, callback: Callable[..., None]) -> InputStream:
        import sounddevice as sd

        from hardware.sound import rescan_devices

        if opened[0]:
            rescan_devices(sd)
        opened[0] += 1
        try:
            sd.check_input_settings(device=device, samplerate=rate, channels=1, dtype="int16")
            return sd.InputStream(samplerate=rate, blocksize=block, channels=1, dtype="int16",
                                  device=device, callback=callback)
        except Exception as first:  # PortAudioError or ValueError: another rate or channels
            try:
                info = sd.query_devices(device, "input")
            except Exception:
                raise first from None
            own = int(float(info.get("default_samplerate") or 0))
            channels = [c for c in (1, 2, int(info.get("max_input_channels") or 0)) if c >= 1]
            for r in dict.fromkeys([rate, own, *FALLBACK_RATES]):
                for ch in dict.fromkeys(channels):
                    if r <= 0 or (r, ch) == (rate, 1):
                        continue
                    try:
                        sd.check_input_settings(device=device, samplerate=r, channels=ch, dtype="int16")
                    except Exception:
                        continue
                    log.info("the microphone records at %d Hz in %d channel(s): converted to %d Hz mono",
                             r, ch, rate)
                    convert = Resampler(r, rate)

                    def converted(indata: np.ndarray, frames: int, time_info: Any, status: Any,
                                  convert: Resampler = convert) -> None:
                        out = convert(indata)
                        if len(out):
                            callback(out.reshape(-1, 1), len(out), time_info, status)

                    return sd.InputStream(samplerate=r, blocksize=max(1, round(block * r / rate)),
                                          channels=ch, dtype="int16", device=device,
                                          callback=converted)
            raise first

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
                 stall_s: float = 1.0, backlog_s: float = 3.0, dead_s: float = 10.0,
                 close_s: float = 2.0) -> None:
        self.engine = engine
        self.on_toast = on_toast
        self.on_status = on_status
        self.stream_factory = stream_factory or sounddevice_stream(device)
        self.block = int(block_s * RATE)
        self.poll_s = poll_s
        self.context = int(context_s * RATE)
        self.stall_s = stall_s
        self.backlog = max(1, int(backlog_s * RATE / max(1, self.block)))
        """Blocks waiting for the worker at most: when it falls further behind (the CPU busy
        elsewhere), new blocks are dropped, counted, and listening resumes after the gap."""
        self.dead_s = dead_s
        """Seconds of samples all the same (digital silence: a muted or vanished microphone, never
        a room, however quiet) after which the microphone counts as lost."""
        self.close_s = close_s
        """Seconds a closing stream may take: a vanished device can hang PortAudio's stop."""
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
        self._vad = VoiceActivity()
        self._base = 0  # stream sample where the detector and the spotter stream started
        self.dropped = 0  # samples dropped because the worker was too far behind
        self.overflows = 0  # blocks PortAudio reported audio lost before
        self._flat = 0  # samples in a row all of one value
        self._flat_value = 0
        self._dead = False  # the worker's verdict: the stream carries only digital silence
        self._sounding = False  # the worker has had a block that is not digital silence
        self._worker_generation = -1  # the stream generation the worker has reset for
        self._complaints: dict[str, tuple[float, int]] = {}  # what failed: (last logged, since)

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
            now = time.monotonic()
            block = np.asarray(indata, dtype=np.int16).reshape(-1).copy()
            if self._received == 0:
                self._anchor = now - len(block) / RATE - self._stream_latency()
            elif getattr(status, "input_overflow", False):
                # PortAudio lost audio before this block: count it from the clock, so the
                # samples after it keep their true times
                self.overflows += 1
                late = now - self._stream_latency() - self.time_of(self._received + len(block))
                if late > 2 * self.block / RATE:
                    self._received += int(round(late * RATE))
            waiting = self._blocks.qsize()
            # a live microphone is never ahead of the clock; a recording played faster than real
            # time is, and is let wait (up to twenty times as long)
            live = self.time_of(self._received) <= now + 1.0
            if waiting >= self.backlog * (1 if live else 20):
                self.dropped += len(block)  # the worker is far behind: this block is let go
            else:
                self._blocks.put((self._received, block))
            self._received += len(block)
            self._last_block = now

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
        self._dead = self._sounding = False
        self._blocks.put(("reset", self._generation))
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
        if stream is None:
            return

        def close() -> None:
            try:
                stream.stop()
                stream.close()
            except Exception as err:  # a vanished device may fail to close: nothing to do
                log.debug("closing the microphone: %s", err)

        # a vanished device can hang PortAudio's stop: the listener does not wait on it forever
        closer = threading.Thread(target=close, name="mic-closer", daemon=True)
        closer.start()
        closer.join(self.close_s)
        if closer.is_alive():
            log.warning("the lost microphone's stream did not close in %.0f s: left behind", self.close_s)

    def _complain(self, what: str, exc_info: bool = True) -> None:
        """Log a failure, but the same one at most once a minute (an engine failing on every
        block must not fill the log for the rest of the evening)."""
        now = time.monotonic()
        last, since = self._complaints.get(what, (-float("inf"), 0))
        if now - last < 60.0:
            self._complaints[what] = (last, since + 1)
            return
        self._complaints[what] = (now, 0)
        more = f" (and {since} more times since)" if since else ""
        if exc_info:
            log.exception("%s%s", what, more)
        else:
            log.warning("%s%s", what, more)

    def _supervise(self) -> None:
        was_lost = False
        awaiting_sound = False  # reopened after digital silence: "back" once there is sound
        while self._running.is_set():
            try:
                if self._stream is None:
                    if self._open():
                        if not awaiting_sound:
                            self._set_status("back" if was_lost else "ok")
                            was_lost = False
                    else:
                        self._stopping.wait(self.poll_s)
                        continue
                stream = self._stream
                current = self._worker_generation == self._generation
                if awaiting_sound and current and self._sounding:
                    awaiting_sound = was_lost = False
                    self._set_status("back")
                stalled = time.monotonic() - self._last_block > self.stall_s
                dead = current and self._dead
                if stream is not None and (not stream.active or stalled or dead):
                    self._close_stream()
                    was_lost = True
                    awaiting_sound = dead or awaiting_sound
                    self._set_status("lost", "the microphone hears only digital silence" if dead
                                     else "the stream stopped" if not stalled else "no audio")
                    if dead:  # opened again at once; "back" when it hears something
                        self._stopping.wait(min(0.2, self.poll_s))
                    continue
            except Exception:  # a failing status callback must not stop the microphone's care
                self._complain("the microphone's supervisor failed")
            self._stopping.wait(min(0.2, self.poll_s))

    # -- worker side ----------------------------------------------------------------------
    def _work(self) -> None:
        while self._running.is_set():
            try:
                start, item = self._blocks.get(timeout=0.5)
            except queue.Empty:
                continue
            if start == "stop":
                return
            try:
                self._handle(start, item)
            except Exception:  # nothing the engine or a callback does may stop the listening
                self._complain("the listener failed on its audio")
                if start not in ("arm", "expect", "learn", "learn_heard"):
                    self._restart_detectors(self._filled)

    def _restart_detectors(self, at: int) -> None:
        """A fresh detector and spotter stream, counting from stream sample ``at``."""
        self._base = at
        self._vad = VoiceActivity()
        self._recent.clear()
        if self._streaming:
            try:
                self._spot_stream = self.engine.stream()  # type: ignore[attr-defined]
            except Exception:
                self._complain("the toast spotter could not start a stream")

    def _handle(self, start: Any, item: Any) -> None:
        if start == "learn_heard":
            self._learn_heard(*item)
            return
        if start == "expect":
            expect = getattr(self.engine, "expect", None)
            if expect is not None:
                try:
                    expect(item)
                except ValueError as exc:  # a word the engine has no toast for: heard as usual
                    log.warning("the ear cannot listen for %s: %s", item, exc)
            return
        if start == "learn":
            self._learning, self._learn_span = item, None
            self._learn_vad, self._learn_at = VoiceActivity(), self._filled
            return
        if start == "reset":
            self._worker_generation = item
            self._flat, self._dead, self._sounding = 0, False, False
            self._filled = 0
            self._learn_vad, self._learn_at, self._learn_span = VoiceActivity(), 0, None
            self._restart_detectors(0)
            return
        if start == "arm":
            interval: tuple[float, float] = item
            # kept while the ring may still hold speech they cover (also with no microphone)
            horizon = max(time.monotonic(), self.time_of(self._filled)) - len(self._ring) / RATE
            self._armed = [(a, b) for a, b in self._armed if b > horizon]
            if self._armed and interval[0] <= self._armed[-1][1] and interval[1] >= self._armed[-1][0]:
                a, b = self._armed.pop()
                self._armed.append((min(a, interval[0]), max(b, interval[1])))
            else:
                self._armed.append(interval)
            for heard in list(self._spotted):
                if heard.start <= interval[1] and heard.end >= interval[0]:
                    self._spotted.remove(heard)
                    self.on_toast(heard)
            for span in list(self._recent):
                if self._overlaps(span, *interval):
                    self._decide(span)
            return
        assert isinstance(start, int)
        if start != self._filled:  # blocks were dropped (or lost) before this one
            gap = start - self._filled
            self._complain(f"the listener fell behind: {gap / RATE:.2f} s of audio not heard", False)
            self._filled = start
            self._restart_detectors(start)
            if self._learn_vad is not None:
                self._learn_vad, self._learn_at, self._learn_span = VoiceActivity(), start, None
        n = len(self._ring)
        idx = (start + np.arange(len(item))) % n
        self._ring[idx] = item
        self._filled = start + len(item)
        self._watch_silence(item)
        rms = float(np.sqrt(np.mean(to_float(item) ** 2))) if len(item) else 0.0
        self.level_dbfs = 20.0 * float(np.log10(rms + 1e-6))
        if self._streaming:
            self._spot(item)
        else:
            self._detect(self._vad, item)
        if self._learning is not None:
            self._learn(item)
        now = self.time_of(self._filled)
        self._armed = [(a, b) for a, b in self._armed if b > now - len(self._ring) / RATE]

    def _watch_silence(self, block: np.ndarray) -> None:
        """Digital silence (every sample the same) for ``dead_s``: a dead microphone. A room,
        however quiet, is never that: a real microphone always hears a little noise."""
        if not len(block):
            return
        lo, hi = int(block.min()), int(block.max())
        if lo == hi and (self._flat == 0 or lo == self._flat_value):
            self._flat_value = lo
            self._flat += len(block)
            if self._flat >= self.dead_s * RATE:
                self._dead = True
        else:
            self._flat = 0 if lo != hi else len(block)
            self._flat_value = lo
            if lo != hi:
                self._sounding, self._dead = True, False

    def _learn(self, block: np.ndarray) -> None:
        """Wait for a stretch of speech, then half a second more, and learn the toast from it."""
        assert self._learning is not None and self._learn_vad is not None
        for span in self._learn_vad.feed(to_float(block)):
            self._learn_span = span
        learned = self._learn_span
        if learned is None or self._filled < self._learn_at + learned.end + RATE // 2:
            return
        self._learn_span = None
        toast, on_result = self._learning
        clip = self._window(self._learn_at + learned.start - RATE, self._learn_at + learned.end + RATE // 2)
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
            self._complain("the toast spotter failed on a block of audio")
            self._restart_detectors(self._filled)
            return
        for sp in spots:
            heard = Heard(sp.toast, self.time_of(self._base + sp.start),
                          self.time_of(self._base + sp.end), round(sp.probability, 3))
            if any(heard.start <= b and heard.end >= a for a, b in self._armed):
                self.on_toast(heard)
            else:
                self._spotted.append(heard)

    def _detect(self, vad: VoiceActivity, item: np.ndarray) -> None:
        """Run the voice detector; decide each stretch of speech that ends in an armed interval."""
        for span in vad.feed(to_float(item)):
            span = SpeechSpan(self._base + span.start, self._base + span.end)
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
            self._complain("the speech engine failed on a stretch of speech")
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
