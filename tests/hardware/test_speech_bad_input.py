"""Audio that is no speech at all (silence, noise, clipping, nothing loud) gets a verdict,
never an exception; a file that is not usable audio is refused naming the file."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

import numpy as np
import pytest
from speech_clips import RATE, floor_noise

from hardware.speech.audio import NotAWavFile, read_wav, write_wav
from hardware.speech.pocketsphinx_engine import PocketSphinxEngine
from hardware.speech.spotter import SpotterEngine
from hardware.speech.vad import VoiceActivity, find_speech


def _white(seconds: float, level: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.normal(0, level, int(seconds * RATE)).astype(np.float32)


def test_noise_that_starts_loud_and_stays_is_no_speech_not_a_crash() -> None:
    # the floor rises under a stretch of steady noise until no frame stands out of it: the
    # stretch closes at max_s with no loud frame (this crashed with an IndexError)
    x = np.concatenate([_white(1.0, 1e-4), _white(6.0, 0.1, 1)])
    assert find_speech(x) == []


def test_a_stretch_closed_with_no_loud_frame_is_dropped_and_the_detector_goes_on() -> None:
    vad = VoiceActivity()
    assert vad.feed(np.concatenate([_white(1.0, 1e-4), _white(6.0, 0.1, 1)])) == []
    # a clear word after the noise is still found
    t = np.arange(int(0.5 * RATE)) / RATE
    word = (0.5 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    spans = vad.feed(np.concatenate([_white(2.0, 1e-4, 2), word, _white(1.0, 1e-4, 3)]))
    assert spans, "the detector stopped hearing after the noise"


def _no_speech() -> dict[str, np.ndarray]:
    t = np.arange(3 * RATE) / RATE
    square = np.sign(np.sin(2 * np.pi * 300 * t))  # a clipped tone: full scale, flat tops
    return {
        "digital silence": np.zeros(3 * RATE, np.int16),
        "floor noise": floor_noise(3.0),
        "white noise, loud from the start": (_white(4.0, 0.3) * 32767).clip(-32768, 32767
                                                                            ).astype(np.int16),
        "noise that starts loud and stays (no loud frame)": (
            np.concatenate([_white(1.0, 1e-4), _white(6.0, 0.1, 1)]) * 32767).astype(np.int16),
        "clipping": (square * 32767).astype(np.int16),
        "a few samples": np.array([5, -3, 2], np.int16),
        "nothing": np.zeros(0, np.int16),
    }


@pytest.fixture(scope="module")
def spotter() -> SpotterEngine:
    return SpotterEngine()


@pytest.mark.parametrize("what", list(_no_speech()))
def test_the_spotter_gives_no_toast_for_audio_without_speech(spotter: SpotterEngine,
                                                             what: str) -> None:
    assert spotter.classify(_no_speech()[what]) == []


def _party_sounds() -> dict[str, np.ndarray]:
    """Sounds of a party that are no speech, at frequencies the spotter's training sounds do not
    use (bench.party_sounds), each after two seconds of the room's quiet, at a toast's level."""
    t = np.arange(int(1.5 * RATE)) / RATE
    ramp = np.minimum(1.0, np.minimum(t, t[-1] - t) / 0.02)
    sounds = {
        "a 300 Hz tone": np.sin(2 * np.pi * 300 * t),
        "a 440 + 880 Hz chord": np.sin(2 * np.pi * 440 * t) + np.sin(2 * np.pi * 880 * t),
        "a 660 Hz tone": np.sin(2 * np.pi * 660 * t),
        "1200 Hz beeps": np.sin(2 * np.pi * 1200 * t) * ((t % 0.3) < 0.15),
        "a buzzer (a 260 Hz square wave)": np.sign(np.sin(2 * np.pi * 260 * t)),
    }
    out = {}
    for name, x in sounds.items():
        x = x * ramp * 10 ** (-20 / 20) / np.sqrt(np.mean(x**2))
        pcm = np.concatenate([floor_noise(2.0, 1).astype(np.float32), x * 32767,
                              floor_noise(0.5, 2).astype(np.float32)])
        out[name] = np.round(pcm).clip(-32768, 32767).astype(np.int16)
    return out


@pytest.mark.parametrize("what", list(_party_sounds()))
def test_the_spotter_hears_no_toast_in_a_tone_a_chord_or_a_buzzer(spotter: SpotterEngine,
                                                                  what: str) -> None:
    # a 300 Hz tone once fired "tchin tchin" at 0.52: the networks had heard music only under
    # speech; the party's sounds are now among their negatives
    assert [h.toast for h in spotter.classify(_party_sounds()[what])] == []


@pytest.mark.parametrize("what", list(_no_speech()))
def test_pocketsphinx_gives_a_verdict_for_audio_without_speech(what: str) -> None:
    heard = PocketSphinxEngine().classify(_no_speech()[what])
    assert [h.toast for h in heard if h.toast is not None] == []


def test_a_file_with_no_audio_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "empty.wav"
    write_wav(path, np.zeros(0, np.int16))
    with pytest.raises(NotAWavFile, match="empty.wav holds no audio"):
        read_wav(path)


def test_a_file_sampled_too_slowly_for_speech_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "slow.wav"
    write_wav(path, floor_noise(1.0), rate=4000)
    with pytest.raises(NotAWavFile, match="slow.wav is sampled at 4000 Hz"):
        read_wav(path)


def test_a_telephone_rate_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "phone.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(floor_noise(0.5).tobytes())
    assert len(read_wav(path)) == RATE  # 8,000 samples at 8 kHz: one second


def _unblock_fifo(path: Path, done: threading.Event) -> None:
    """Open the FIFO's writing end whenever a reader waits on it, so that a reader that opened it
    gets an end of file instead of hanging the test."""
    import errno
    import os
    import time

    while not done.is_set():
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError as err:
            if err.errno != errno.ENXIO:  # ENXIO: no reader yet
                return
        time.sleep(0.2)


def test_classify_judges_every_good_file_among_bad_ones_and_names_each_bad_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import json
    import os

    from controller.speech_cli import classify_main

    quiet = tmp_path / "quiet.wav"
    write_wav(quiet, floor_noise(1.0))
    click = tmp_path / "click.wav"  # one sample at 48 kHz: none left at 16 kHz
    with wave.open(str(click), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(48000)
        w.writeframes(np.array([4096], "<i2").tobytes())
    zero_bits = tmp_path / "zero-bits.wav"
    zero_bits.write_bytes(quiet.read_bytes()[:34] + b"\0\0" + quiet.read_bytes()[36:])
    too_long = tmp_path / "too-long.wav"
    write_wav(too_long, np.zeros(601 * RATE, np.int16))
    fifo = tmp_path / "pipe.wav"
    os.mkfifo(fifo)
    done = threading.Event()
    threading.Thread(target=_unblock_fifo, args=(fifo, done), daemon=True).start()
    empty = tmp_path / "no-recordings"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a recording")
    files = [quiet, fifo, zero_bits, click, too_long, empty, quiet]
    out = io.StringIO()
    try:
        status = classify_main([*map(str, files), "--engine", "spotter"], out)
    finally:
        done.set()
    assert status == 1
    verdicts = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [v["file"] for v in verdicts] == [str(quiet), str(click), str(quiet)]
    assert all(v["toast"] is None and v["decided_s"] is None for v in verdicts)
    err = capsys.readouterr().err
    assert f"{fifo} is not a regular file" in err
    assert f"{zero_bits} has an unsupported sample size of 0 bits" in err
    assert f"{too_long} lasts 601.0 s: recordings of at most 600 s are read" in err
    assert f"{empty} is a folder with no WAV file in it" in err
    assert "Traceback" not in err


def test_classify_reads_a_folder_as_the_recordings_under_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import json

    from controller.speech_cli import classify_main

    corpus = tmp_path / "corpus"
    (corpus / "voice-b").mkdir(parents=True)
    (corpus / "voice-a").mkdir()
    for name in ("voice-b/2.wav", "voice-a/1.WAV", "voice-b/1.wav"):
        write_wav(corpus / name, floor_noise(0.5))
    (corpus / "voice-a" / "readme.txt").write_text("the corpus's notes")
    (corpus / "voice-a" / "broken.wav").write_bytes(b"not a wav")
    out = io.StringIO()
    status = classify_main([str(corpus), "--engine", "spotter"], out)
    verdicts = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [v["file"] for v in verdicts] == [
        str(corpus / "voice-a" / "1.WAV"), str(corpus / "voice-b" / "1.wav"),
        str(corpus / "voice-b" / "2.wav")]
    assert all(v["toast"] is None for v in verdicts)
    assert status == 1  # the broken one is named, the others judged
    assert f"{corpus / 'voice-a' / 'broken.wav'} is not a WAV file" in capsys.readouterr().err


def test_classify_names_only_the_expect_value_that_is_no_toast(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from controller.speech_cli import classify_main

    quiet = tmp_path / "quiet.wav"
    write_wav(quiet, floor_noise(1.0))
    with pytest.raises(SystemExit) as stop:
        classify_main([str(quiet), "--engine", "spotter", "--expect", "prost", "--expect", "proost"],
                      io.StringIO())
    assert stop.value.code == 2
    assert "--expect ['proost']: expected toasts (prost, cheers" in capsys.readouterr().err
