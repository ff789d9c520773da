"""What a party does to the microphone and the speaker: unplugged and plugged back, muted,
a microphone that records only at 44.1 or 48 kHz or in stereo, a stream that overflows or
hangs as it closes, a CPU too busy to keep up, a recogniser or a callback that fails, and a
speaker that is lost. Sounddevice has no device here: the fakes stand in only where PortAudio
would hand over a block or open a device; everything after that seam is the box's own."""

from __future__ import annotations

import threading
import time
import types
from typing import Any, Callable

import numpy as np
import pytest
from speech_clips import HANG_GUARD_S, RATE, Seen, floor_noise, wait_until

import hardware.speech.capture as capture
from hardware.speech.capture import Listener, Resampler, sounddevice_stream
from hardware.speech.heard import Heard
from hardware.speech.spotter import Spot

BLOCK = 320
NEVER = float("inf")


# -- the seams -----------------------------------------------------------------------------

MARK = 12345  # a block whose first sample is this is "a toast just ended" for the fake engine


class MarkEngine:
    """A streaming engine that spots "cheers" in every block marked with :data:`MARK` (the
    toast ending with that block); ``gate`` (when given) holds ``feed`` until it is set."""

    name = "mark"
    streaming = True

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.inside = threading.Event()
        self.fail_streams = 0  # how many of the next stream() calls raise

    def stream(self) -> Any:
        if self.fail_streams:
            self.fail_streams -= 1
            raise RuntimeError("no stream today")
        engine = self

        class Stream:
            n = 0

            def feed(self, block: np.ndarray) -> list[Spot]:
                engine.inside.set()
                if engine.gate is not None:
                    engine.gate.wait(HANG_GUARD_S)
                self.n += len(block)
                if len(block) and block[0] == MARK:
                    return [Spot("cheers", self.n - RATE // 2, self.n, 0.9)]
                if len(block) and block[0] == -MARK:
                    raise ValueError("a block the engine chokes on")
                return []

        return Stream()

    def classify(self, samples: np.ndarray) -> list[Heard]:
        return []


def noise_block(seed: int = 0) -> np.ndarray:
    return floor_noise(BLOCK / RATE, seed)[:BLOCK]


def marked() -> np.ndarray:
    b = noise_block(1)
    b[0] = MARK
    return b


class PushMicrophone:
    """A stream factory whose streams hand over the blocks the test pushes (as PortAudio's
    thread would), one stream per opening; ``fail`` opens nothing, ``hang_on_stop`` makes a
    stream's stop() hang as a vanished device's may."""

    def __init__(self) -> None:
        self.streams: list[Any] = []
        self.fail = False
        self.hang_on_stop = False
        self.opened = threading.Event()
        self.unhang = threading.Event()

    def __call__(self, rate: int, block: int, callback: Callable[..., None]) -> Any:
        if self.fail:
            raise OSError("Error querying device -1")
        mic = self

        class Stream:
            latency = 0.0

            def __init__(self) -> None:
                self.active = False
                self.callback = callback
                self.hangs = mic.hang_on_stop

            def start(self) -> None:
                self.active = True

            def stop(self) -> None:
                if self.hangs:
                    mic.unhang.wait(HANG_GUARD_S)
                self.active = False

            def close(self) -> None:
                pass

        stream = Stream()
        self.streams.append(stream)
        self.opened.set()
        return stream

    def push(self, block: np.ndarray, status: Any = None) -> None:
        stream = self.streams[-1]
        stream.callback(block.reshape(-1, 1), len(block), None, status)


class FakeClock:
    """The listener's monotonic clock, moved by the test (the stream's blocks come in real
    time only as far as this clock says)."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def monotonic(self) -> float:
        return self.t


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(capture, "time", types.SimpleNamespace(monotonic=fake.monotonic))
    return fake


def running(listener: Listener, mic: PushMicrophone) -> Listener:
    listener.start()
    assert wait_until(lambda: bool(mic.streams) and mic.streams[-1].active)
    # the worker has started afresh for this stream before the first block is pushed
    assert wait_until(lambda: getattr(listener, "_worker_generation", listener._generation)
                      == listener._generation)
    return listener


def taken_in(listener: Listener, samples: int) -> bool:
    return wait_until(lambda: listener._filled >= samples and listener._blocks.qsize() == 0)


# -- the listener thread must not die ----------------------------------------------------

def test_a_failing_toast_callback_does_not_stop_the_listening_for_the_evening() -> None:
    heard = Seen()
    calls = [0]

    def on_toast(h: Heard) -> None:
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("the event loop is closing")
        heard.append(h)

    mic = PushMicrophone()
    listener = running(Listener(MarkEngine(), on_toast, stream_factory=mic, stall_s=NEVER), mic)
    try:
        listener.arm(0.0, NEVER)
        mic.push(marked())  # the first toast: its callback fails
        for i in range(5):
            mic.push(noise_block(i))
        mic.push(marked())  # the second is still heard
        assert heard.wait(bool)
    finally:
        listener.stop()
    assert [h.toast for h in heard] == ["cheers"]
    assert calls[0] == 2


def test_an_engine_that_fails_and_cannot_restart_at_once_is_tried_again() -> None:
    heard = Seen()
    engine = MarkEngine()
    mic = PushMicrophone()
    listener = running(Listener(engine, heard.append, stream_factory=mic, stall_s=NEVER), mic)
    try:
        listener.arm(0.0, NEVER)
        engine.fail_streams = 1
        bad = noise_block(2)
        bad[0] = -MARK
        mic.push(bad)  # feed raises, and the fresh stream it asks for raises too
        mic.push(noise_block(3))
        mic.push(noise_block(4))
        mic.push(marked())
        assert heard.wait(bool)
    finally:
        listener.stop()
    assert [h.toast for h in heard] == ["cheers"]


def test_an_engine_failing_on_every_block_does_not_flood_the_log(caplog: pytest.LogCaptureFixture) -> None:
    mic = PushMicrophone()
    listener = running(Listener(MarkEngine(), lambda h: None, stream_factory=mic, stall_s=NEVER), mic)
    bad = noise_block(2)
    bad[0] = -MARK
    try:
        with caplog.at_level("ERROR", logger="hardware.speech.capture"):
            for _ in range(200):
                mic.push(bad)
            assert taken_in(listener, 200 * BLOCK)
    finally:
        listener.stop()
    failures = [r for r in caplog.records if "spotter failed" in r.getMessage()]
    assert 1 <= len(failures) <= 2


# -- memory: a busy CPU ---------------------------------------------------------------------

def test_a_worker_held_up_keeps_a_bounded_backlog_and_the_times_stay_true(clock: FakeClock) -> None:
    gate = threading.Event()
    engine = MarkEngine(gate)
    heard = Seen()
    mic = PushMicrophone()
    listener = running(Listener(engine, heard.append, stream_factory=mic, stall_s=NEVER,
                                backlog_s=1.0), mic)
    try:
        listener.arm(0.0, NEVER)
        mic.push(noise_block(0))
        assert engine.inside.wait(HANG_GUARD_S)  # the worker is held inside the recogniser
        for i in range(2000):  # 40 s of audio, in real time, while it is held
            clock.t += BLOCK / RATE
            mic.push(noise_block(i))
        assert listener._blocks.qsize() <= listener.backlog + 1
        assert listener.dropped > 0
        gate.set()  # the spike is over: the worker catches up
        assert wait_until(lambda: listener._blocks.qsize() == 0)
        clock.t += BLOCK / RATE
        mic.push(marked())  # a toast after the spike, ending with this block
        t_end = listener.time_of(2002 * BLOCK)
        assert heard.wait(bool)
    finally:
        gate.set()
        listener.stop()
    assert heard[0].end == pytest.approx(t_end)
    assert heard[0].end == pytest.approx(clock.t)


def test_arming_every_frame_with_no_microphone_keeps_few_intervals() -> None:
    mic = PushMicrophone()
    mic.fail = True
    listener = Listener(MarkEngine(), lambda h: None, stream_factory=mic, poll_s=0.05)
    listener.start()
    try:
        now = time.monotonic()
        for frame in range(5000):  # three minutes of frames at 30 fps, no microphone
            t = now + frame / 30
            listener.arm(t - 1.5, t + 3.0)
        assert wait_until(lambda: listener._blocks.qsize() == 0)
        listener.arm(now, now)
        assert wait_until(lambda: listener._blocks.qsize() == 0)
    finally:
        listener.stop()
    assert len(listener._armed) <= 2


# -- times: PortAudio's overflow -------------------------------------------------------------

def test_audio_lost_in_an_overflow_does_not_shift_the_times_after_it(clock: FakeClock) -> None:
    heard = Seen()
    mic = PushMicrophone()
    listener = running(Listener(MarkEngine(), heard.append, stream_factory=mic, stall_s=NEVER), mic)
    try:
        listener.arm(0.0, NEVER)
        for i in range(50):
            clock.t += BLOCK / RATE
            mic.push(noise_block(i))
        clock.t += 0.7 + BLOCK / RATE  # the CPU was away: PortAudio dropped 0.7 s
        mic.push(marked(), types.SimpleNamespace(input_overflow=True))
        assert heard.wait(bool)
    finally:
        listener.stop()
    assert listener.overflows == 1
    assert heard[0].end == pytest.approx(clock.t, abs=2 * BLOCK / RATE)


# -- dead microphone, quiet room -----------------------------------------------------------

def test_a_microphone_hearing_only_digital_silence_is_lost_then_back_when_it_hears() -> None:
    statuses = Seen()
    mic = PushMicrophone()
    listener = running(Listener(MarkEngine(), lambda h: None, statuses.append, stream_factory=mic,
                                stall_s=NEVER, dead_s=0.5, poll_s=0.05), mic)
    try:
        for _ in range(30):  # 0.6 s of exact zeros: muted, or unplugged behind a sound server
            mic.push(np.zeros(BLOCK, np.int16))
        assert statuses.wait(lambda s: "lost" in s)
        assert wait_until(lambda: len(mic.streams) >= 2 and mic.streams[-1].active)  # tried again
        assert wait_until(lambda: listener._worker_generation == listener._generation)
        mic.push(np.zeros(BLOCK, np.int16))
        assert statuses == ["ok", "lost"], "reopened, but still silent: not back yet"
        mic.push(noise_block(5))  # the room again
        assert statuses.wait(lambda s: len(s) >= 3)
    finally:
        listener.stop()
    assert statuses == ["ok", "lost", "back"]


def test_a_quiet_room_is_not_a_dead_microphone() -> None:
    statuses = Seen()
    mic = PushMicrophone()
    listener = running(Listener(MarkEngine(), lambda h: None, statuses.append, stream_factory=mic,
                                stall_s=NEVER, dead_s=0.5), mic)
    rng = np.random.default_rng(3)
    try:
        for _ in range(100):  # 2 s of the faintest room a 16-bit microphone hears: +-1
            mic.push(rng.integers(-1, 2, BLOCK).astype(np.int16))
        assert taken_in(listener, 100 * BLOCK)
    finally:
        listener.stop()
    assert not getattr(listener, "_dead", False)
    assert statuses == ["ok"]


# -- unplugged: a stream that hangs as it closes ------------------------------------------

def test_a_vanished_device_whose_stream_hangs_on_stop_is_left_behind_and_the_mic_found_again() -> None:
    statuses = Seen()
    mic = PushMicrophone()
    mic.hang_on_stop = True
    listener = running(Listener(MarkEngine(), lambda h: None, statuses.append, stream_factory=mic,
                                stall_s=NEVER, poll_s=0.05, close_s=0.05), mic)
    try:
        mic.hang_on_stop = False
        mic.streams[0].active = False  # unplugged: the stream ends
        assert statuses.wait(lambda s: len(s) >= 3)
    finally:
        mic.unhang.set()
        listener.stop()
    assert statuses == ["ok", "lost", "back"]
    assert len(mic.streams) == 2


def test_a_failing_status_callback_does_not_stop_the_box_finding_the_mic_again() -> None:
    statuses = Seen()

    def on_status(s: str) -> None:
        statuses.append(s)
        if s == "lost":
            raise RuntimeError("the event loop is closed")

    mic = PushMicrophone()
    listener = running(Listener(MarkEngine(), lambda h: None, on_status, stream_factory=mic,
                                stall_s=NEVER, poll_s=0.05), mic)
    try:
        mic.streams[0].active = False
        assert statuses.wait(lambda s: len(s) >= 3)
    finally:
        listener.stop()
    assert statuses == ["ok", "lost", "back"]


# -- a microphone that records only at 44.1 or 48 kHz, or in stereo ----------------------

def tone(freq: float, rate: int, seconds: float, amp: float = 8000.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return amp * np.sin(2 * np.pi * freq * t)


@pytest.mark.parametrize("rate", [48_000, 44_100, 32_000])
def test_the_converter_keeps_speech_frequencies_and_drops_what_16khz_cannot_hold(rate: int) -> None:
    conv = Resampler(rate)
    x = tone(1000, rate, 2.0) + tone(11_000, rate, 2.0)  # 11 kHz folds to 5 kHz if not filtered
    block = round(BLOCK * rate / RATE) + 1  # blocks of an awkward size
    out = np.concatenate([conv(x[i: i + block]) for i in range(0, len(x), block)])
    # no drift: exactly the 16 kHz samples whose inputs have all arrived
    assert abs(len(out) - len(x) * RATE / rate) <= conv.half
    y = out[2000:-2000].astype(float)
    spec = np.abs(np.fft.rfft(y * np.hanning(len(y))))
    freqs = np.fft.rfftfreq(len(y), 1 / RATE)
    at = lambda f: spec[np.argmin(np.abs(freqs - f))]  # noqa: E731
    assert at(1000) > 100 * at(16_000 - 11_000)
    assert np.sqrt(np.mean(y ** 2)) == pytest.approx(8000 / np.sqrt(2), rel=0.05)
    # and the 1 kHz tone keeps its phase: output sample k is the input at k * rate / 16 kHz
    k = np.arange(2000, 2100)
    assert np.allclose(out[k], 8000 * np.sin(2 * np.pi * 1000 * k / RATE), atol=200)


def test_stereo_is_averaged_to_mono() -> None:
    conv = Resampler(RATE)
    stereo = np.stack([np.full(BLOCK, 1000), np.full(BLOCK, 3000)], axis=1).astype(np.int16)
    assert (conv(stereo) == 2000).all()


class FakeInputStream:
    """sounddevice.InputStream at the seam: records how it was opened."""

    made: list[FakeInputStream] = []

    def __init__(self, *, samplerate: int, blocksize: int, channels: int, dtype: str,
                 device: Any, callback: Callable[..., None]) -> None:
        self.samplerate, self.blocksize, self.channels = samplerate, blocksize, channels
        self.callback = callback
        self.active = False
        self.latency = 0.01
        FakeInputStream.made.append(self)

    def start(self) -> None:
        self.active = True

    def stop(self) -> None:
        self.active = False

    def close(self) -> None:
        pass


def fake_device(monkeypatch: pytest.MonkeyPatch, rates: set[int], channels: set[int],
                default_rate: int = 48_000, max_channels: int = 2) -> Any:
    sd = pytest.importorskip("sounddevice")

    def check_input_settings(device: Any = None, samplerate: float = 0, channels: int = 1, **_: Any) -> None:
        if samplerate not in rates:
            raise sd.PortAudioError("Error opening InputStream: Invalid sample rate [PaErrorCode -9997]")
        if channels not in channels_ok:
            raise sd.PortAudioError("Error opening InputStream: Invalid number of channels [PaErrorCode -9998]")

    channels_ok = channels
    FakeInputStream.made = []
    monkeypatch.setattr(sd, "check_input_settings", check_input_settings)
    monkeypatch.setattr(sd, "query_devices", lambda device=None, kind=None: {
        "name": "USB PnP Sound Device", "default_samplerate": float(default_rate),
        "max_input_channels": max_channels})
    monkeypatch.setattr(sd, "InputStream", FakeInputStream)
    return sd


@pytest.mark.parametrize("rate,channels", [(48_000, 2), (44_100, 1), (48_000, 1)])
def test_a_microphone_that_refuses_16khz_mono_is_opened_as_it_records(
        monkeypatch: pytest.MonkeyPatch, rate: int, channels: int) -> None:
    fake_device(monkeypatch, {rate}, {channels}, default_rate=rate, max_channels=channels)
    got: list[np.ndarray] = []
    open_stream = sounddevice_stream("USB")
    stream = open_stream(RATE, BLOCK, lambda data, frames, t, status: got.append(data.copy()))
    made = FakeInputStream.made[-1]
    assert stream is made and (made.samplerate, made.channels) == (rate, channels)
    assert made.blocksize == round(BLOCK * rate / RATE)
    x = tone(440, rate, 1.0)
    frames = np.stack([x] * channels, axis=1).astype(np.int16)
    for i in range(0, len(frames), made.blocksize):
        made.callback(frames[i: i + made.blocksize], made.blocksize, None, None)
    out = np.concatenate(got)
    assert all(g.shape[1] == 1 and g.dtype == np.int16 for g in got)
    assert abs(len(out) - RATE) <= 32


def test_a_microphone_that_opens_at_no_rate_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_device(monkeypatch, set(), {1})
    with pytest.raises(Exception, match="sample rate"):
        sounddevice_stream()(RATE, BLOCK, lambda *a: None)


def test_a_toast_said_into_a_48khz_stereo_microphone_is_heard_at_its_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The real spotter, through the real listener, from a microphone that only records at
    48 kHz in stereo: the toast is heard, at its place in the stream."""
    import shutil
    import subprocess
    import wave

    if shutil.which("flite") is None or shutil.which("sox") is None:
        pytest.skip("flite and sox are needed (make test installs them)")
    from hardware.speech.spotter import SpotterEngine

    raw, wav48 = tmp_path / "cheers.wav", tmp_path / "cheers48.wav"
    subprocess.run(["flite", "-voice", "kal", "-t", "cheers", "-o", str(raw)], check=True)
    subprocess.run(["sox", "-R", str(raw), "-r", "48000", "-c", "2", "-b", "16", str(wav48)], check=True)
    with wave.open(str(wav48)) as w:
        word = np.frombuffer(w.readframes(w.getnframes()), np.int16).reshape(-1, 2)
    loud = np.flatnonzero(np.abs(word[:, 0]) > 300)
    word = word[loud[0]: loud[-1] + 1]
    rng = np.random.default_rng(0)
    room = lambda s: (rng.standard_normal((int(48_000 * s), 2)) * 32768 * 10 ** (-65 / 20))  # noqa: E731
    audio = np.concatenate([room(1.5), word + room(len(word) / 48_000), room(2.0)])
    audio = np.clip(np.round(audio), -32768, 32767).astype(np.int16)
    fake_device(monkeypatch, {48_000}, {2}, default_rate=48_000, max_channels=2)
    heard = Seen()
    listener = Listener(SpotterEngine(), heard.append, device="USB", stall_s=NEVER)
    listener.arm(0.0, NEVER)
    listener.start()
    try:
        assert wait_until(lambda: bool(FakeInputStream.made) and FakeInputStream.made[-1].active)
        made = FakeInputStream.made[-1]
        for i in range(0, len(audio) - made.blocksize + 1, made.blocksize):
            made.callback(audio[i: i + made.blocksize], made.blocksize, None, None)
        assert taken_in(listener, int(len(audio) / 3) - 2 * BLOCK)
        assert heard.wait(bool)
    finally:
        listener.stop()
    assert [h.toast for h in heard] == ["cheers"]
    assert 1.3 <= heard[0].start - listener.time_of(0) <= 1.9


# -- plugged back in: PortAudio's list of devices read afresh -----------------------------

def test_the_device_list_is_read_afresh_before_every_reopening(monkeypatch: pytest.MonkeyPatch) -> None:
    sd = fake_device(monkeypatch, {RATE}, {1})
    calls: list[str] = []
    monkeypatch.setattr(sd, "_terminate", lambda: calls.append("terminate"))
    monkeypatch.setattr(sd, "_initialize", lambda: calls.append("initialize"))
    monkeypatch.setattr(sd, "stop", lambda *a, **k: calls.append("stop"))
    monkeypatch.setattr(sd, "get_stream", lambda: types.SimpleNamespace(active=False))
    open_stream = sounddevice_stream()
    open_stream(RATE, BLOCK, lambda *a: None)
    assert calls == [], "the first opening uses the list PortAudio read as it started"
    open_stream(RATE, BLOCK, lambda *a: None)
    assert calls == ["stop", "terminate", "initialize"]


def test_the_device_list_is_not_read_afresh_while_a_cue_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.sound import rescan_devices

    sd = fake_device(monkeypatch, {RATE}, {1})
    calls: list[str] = []
    monkeypatch.setattr(sd, "_terminate", lambda: calls.append("terminate"))
    monkeypatch.setattr(sd, "_initialize", lambda: calls.append("initialize"))
    monkeypatch.setattr(sd, "get_stream", lambda: types.SimpleNamespace(active=True))
    assert rescan_devices(sd) is False
    assert calls == []


# -- the speaker ---------------------------------------------------------------------------

class FakeOutput:
    """sounddevice's play at the seam: ``hold`` makes it hang (a speaker unplugged as it plays),
    ``fail`` makes it raise (a speaker gone)."""

    def __init__(self) -> None:
        self.hold = threading.Event()
        self.hold.set()
        self.fail = False
        self.played = Seen()

    def play(self, samples: np.ndarray, rate: int, device: Any = None, blocking: bool = False) -> None:
        self.hold.wait(HANG_GUARD_S)
        if self.fail:
            raise RuntimeError("Error opening OutputStream: Device unavailable [PaErrorCode -9985]")
        self.played.append(len(samples))


def fake_speaker(monkeypatch: pytest.MonkeyPatch) -> FakeOutput:
    sd = pytest.importorskip("sounddevice")
    out = FakeOutput()
    monkeypatch.setattr(sd, "query_devices", lambda device=None, kind=None: {"name": "USB speaker"})
    monkeypatch.setattr(sd, "play", out.play)
    return out


def test_a_speaker_that_hangs_holds_up_no_press(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.sound import Speaker

    out = fake_speaker(monkeypatch)
    speaker = Speaker(True, 0.6)
    out.hold.clear()  # the next play hangs inside PortAudio
    returned = threading.Event()
    caller = threading.Thread(target=lambda: (speaker.play("claim"), speaker.play("win"), returned.set()),
                              daemon=True)
    caller.start()
    try:
        assert returned.wait(HANG_GUARD_S) and not out.hold.is_set(), "play() came back while PortAudio hung"
    finally:
        out.hold.set()
    assert out.played.wait(lambda p: len(p) == 2)
    assert speaker.played == ["claim", "win"]


def test_a_speaker_lost_mid_game_is_found_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.sound import Speaker

    out = fake_speaker(monkeypatch)
    now = [0.0]
    speaker = Speaker(True, 0.6, clock=lambda: now[0])
    out.fail = True
    speaker.play("claim")
    assert wait_until(lambda: speaker.problem is not None)
    assert "lost" in speaker.problem and not speaker.available
    out.fail = False  # plugged back in
    speaker.play("reveal")  # too soon to try again: silent
    now[0] += Speaker.retry_s
    speaker.play("win")
    assert out.played.wait(bool)
    assert wait_until(lambda: speaker.problem is None)
    assert speaker.available and list(out.played) == [len(synth_len("win"))]


def synth_len(cue: str) -> np.ndarray:
    from hardware.sound import synth

    return synth(cue)


# -- the box's own cues, heard by its microphone -------------------------------------------

def test_the_boxs_own_cues_heard_by_its_microphone_are_no_toast() -> None:
    """Every cue, as the microphone next to the speaker hears it (loud, at 16 kHz, in a
    quiet room), played through the file-backed microphone into the listening spotter."""
    from hardware.sound import CUES, synth
    from hardware.sound import RATE as OUT_RATE
    from hardware.speech.file_mic import FileMicrophone
    from hardware.speech.spotter import SpotterEngine

    mic = FileMicrophone(realtime=False)
    at = 2.5  # the stream's first seconds decide nothing
    for cue in sorted(CUES):
        for level in (0.3, 0.9):
            samples = Resampler(OUT_RATE)(synth(cue, level) * 32767)
            mic.play(samples, at=at)
            at += len(samples) / RATE + 1.0
    heard = Seen()
    listener = Listener(SpotterEngine(), heard.append, stream_factory=mic, stall_s=NEVER)
    listener.arm(0.0, NEVER)
    listener.start()
    try:
        assert mic.wait_open(HANG_GUARD_S)
        assert wait_until(lambda: listener._filled >= (at + 1.0) * RATE)
    finally:
        listener.stop()
    assert [h.toast for h in heard if h.toast] == []
