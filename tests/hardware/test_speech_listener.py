"""The listener: real decisions (PocketSphinx after each stretch of speech, the toast spotter as
the audio streams in) on audio fed through a stream seam, and the real sounddevice on a machine
without a microphone."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pytest
from speech_clips import RATE, Seen, floor_noise, say, wait_until

from hardware.speech.capture import Listener, sounddevice_stream
from hardware.speech.heard import Heard
from hardware.speech.pocketsphinx_engine import PocketSphinxEngine

BLOCK = 320


# Only against a hang: every wait below ends as soon as its condition holds, however slow the
# CPU; none decides anything by the wall clock.
NEVER = float("inf")  # stall_s: a scripted microphone that has played everything is not stalled


class ScriptedMicrophone:
    """A stand-in for sounddevice's InputStream: hands its samples to the callback as fast as
    the listener takes them, then one more block of floor noise (so that the listener taking
    that block in means it has finished with every sample before it), then either stays open
    and silent or dies."""

    opened = 0

    def __init__(self, samples: np.ndarray, die_after: bool = False) -> None:
        pad = -len(samples) % BLOCK + BLOCK  # whole blocks, the last one all noise
        self.samples = np.concatenate([samples, floor_noise(1.0, 7)[:pad]])
        self.die_after = die_after

    def __call__(self, rate: int, block: int, callback: Callable[..., None]) -> Any:
        assert rate == RATE and block == BLOCK
        mic = self
        ScriptedMicrophone.opened += 1

        class Stream:
            active = False
            latency = 0.0

            def start(self) -> None:
                self.active = True
                threading.Thread(target=self._play, daemon=True).start()

            def _play(self) -> None:
                x = mic.samples
                for i in range(0, len(x), block):
                    if not self.active:
                        return
                    callback(x[i: i + block].reshape(-1, 1), block, None, None)
                if mic.die_after:
                    self.active = False

            def stop(self) -> None:
                self.active = False

            def close(self) -> None:
                pass

        return Stream()


@pytest.fixture(scope="module", params=["pocketsphinx", "spotter"])
def engine(request: pytest.FixtureRequest) -> Any:
    if request.param == "spotter":
        from hardware.speech.spotter import SpotterEngine

        return SpotterEngine()
    return PocketSphinxEngine()


@pytest.fixture(scope="module")
def toast_audio(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    return np.concatenate([floor_noise(1.0, 5), say(tmp_path_factory.mktemp("mic"), "flite",
                                                    "kal", "cheers"), floor_noise(1.0, 6)])


def test_an_armed_listener_hears_the_toast_with_times_from_sample_counts(
        engine: Any, toast_audio: np.ndarray) -> None:
    heard = Seen()
    statuses: list[str] = []
    listener = Listener(engine, heard.append, statuses.append,
                        stream_factory=ScriptedMicrophone(toast_audio), stall_s=NEVER)
    listener.arm(0.0, float("inf"))
    listener.start()
    try:
        assert heard.wait(bool)
    finally:
        listener.stop()
    assert statuses[0] == "ok"
    toast = heard[0]
    assert toast.toast == "cheers"
    # the word starts 1.5 s into the stream (1 s + 0.5 s of padding), counted in samples
    assert 1.4 <= toast.start - listener.time_of(0) <= 1.8
    assert toast.end > toast.start


@pytest.fixture
def played(engine: Any, toast_audio: np.ndarray) -> Iterator[tuple[Listener, Seen]]:
    """A running, unarmed listener that has taken in and judged the whole toast, and what it
    reports."""
    heard = Seen()
    mic = ScriptedMicrophone(toast_audio)
    listener = Listener(engine, heard.append, stream_factory=mic, stall_s=NEVER)
    listener.start()
    try:
        # the worker takes blocks in order: once the last block is in, every sample before it
        # (the whole toast and the noise after it) has been judged
        assert wait_until(lambda: listener._filled >= len(mic.samples))
        yield listener, heard
    finally:
        listener.stop()


def test_an_unarmed_listener_decides_nothing(played: tuple[Listener, Seen]) -> None:
    listener, heard = played
    assert heard == []


def test_arming_afterwards_decides_speech_already_over(played: tuple[Listener, Seen]) -> None:
    listener, heard = played
    assert heard == []
    t0 = listener.time_of(0)
    listener.arm(t0 + 1.0, t0 + 2.5)
    assert heard.wait(bool)
    assert [h.toast for h in heard] == ["cheers"]


def test_a_microphone_that_dies_is_lost_then_back(engine: Any) -> None:
    statuses = Seen()
    mic = ScriptedMicrophone(floor_noise(0.5), die_after=True)
    listener = Listener(engine, lambda h: None, statuses.append, stream_factory=mic,
                        poll_s=0.1, stall_s=NEVER)
    listener.start()
    try:
        assert statuses.wait(lambda s: len(s) >= 3)
    finally:
        listener.stop()
    assert statuses[:3] == ["ok", "lost", "back"]


def test_no_microphone_is_reported_once_while_the_listener_keeps_trying() -> None:
    sd = pytest.importorskip("sounddevice")
    try:
        sd.check_input_settings(samplerate=RATE, channels=1, dtype="int16")
        pytest.skip("this machine has a microphone")
    except Exception:
        pass

    class Deaf:
        name = "deaf"

        def classify(self, samples: np.ndarray) -> list[Heard]:
            raise AssertionError("nothing to classify without a microphone")

    tries = Seen()
    real = sounddevice_stream()

    def open_stream(rate: int, block: int, callback: Callable[..., None]) -> Any:
        tries.append(rate)
        return real(rate, block, callback)

    statuses: list[str] = []
    listener = Listener(Deaf(), lambda h: None, statuses.append, stream_factory=open_stream,
                        poll_s=0.1)
    listener.start()
    try:
        # it keeps polling for a microphone without repeating itself or crashing
        assert tries.wait(lambda t: len(t) >= 3)
    finally:
        listener.stop()
    assert statuses == ["no microphone"]
    assert listener.status == "no microphone"


def test_an_interval_that_ends_before_it_starts_is_refused(engine: Any) -> None:
    listener = Listener(engine, lambda h: None, stream_factory=ScriptedMicrophone(floor_noise(1)))
    with pytest.raises(ValueError, match="before"):
        listener.arm(5.0, 4.0)


def test_classify_cli_prints_one_json_line_per_file(tmp_path: Path, toast_audio: np.ndarray,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import json

    from controller.speech_cli import classify_main
    from hardware.speech.audio import write_wav

    good = tmp_path / "cheers.wav"
    write_wav(good, toast_audio)
    bad = tmp_path / "readme.wav"
    bad.write_text("hello")
    out = io.StringIO()
    status = classify_main([str(good), str(bad), "--engine", "pocketsphinx"], out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 1
    assert len(lines) == 1
    assert lines[0]["file"] == str(good) and lines[0]["toast"] == "cheers"
    assert set(lines[0]) == {"file", "toast", "confidence", "decided_s"}
    # the toast is decided once its speech has ended, inside the file (not the file's run time)
    assert 1.5 < lines[0]["decided_s"] <= len(toast_audio) / RATE + 0.5
    assert "readme.wav" in capsys.readouterr().err


def test_a_string_of_beeps_before_the_toast_is_no_toast_in_the_live_box(
        toast_audio: np.ndarray) -> None:
    """Live, from the microphone: beeps the spotter's networks alone take for "tchin tchin"
    (a phone going off after the press), then the toast: only the toast is reported."""
    import zlib

    from bench.party_sounds import sound
    from bench.real_speech import judged_clip
    from hardware.speech.spotter import SpotterEngine

    beeps = judged_clip(sound("chirps 4"), "clean", zlib.crc32(b"chirps 4 clean"))
    spotter = SpotterEngine()
    networks_alone = SpotterEngine(embedder=spotter.embedder)
    networks_alone.steady_veto = None
    assert [h.toast for h in networks_alone.classify(beeps)] == ["tchin tchin"]
    assert [h.toast for h in spotter.classify(beeps)] == []
    heard = Seen()
    lead = floor_noise(2.0, 8)  # the room before: a stream decides nothing in its first 2 s
    mic = ScriptedMicrophone(np.concatenate([lead, beeps, toast_audio]))
    listener = Listener(spotter, heard.append, stream_factory=mic, stall_s=NEVER)
    listener.arm(0.0, float("inf"))
    listener.start()
    try:
        assert wait_until(lambda: listener._filled >= len(mic.samples))
        assert heard.wait(bool)
    finally:
        listener.stop()
    assert [h.toast for h in heard] == ["cheers"]
    # the toast, not the beeps: it starts after them
    assert heard[0].start - listener.time_of(0) >= (len(lead) + len(beeps)) / RATE
