"""`clinkbox speech classify FILE.wav...` and `clinkbox mic-test`: the recognisers by hand."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Iterator, TextIO

from controller.cli_text import CLASSIFY_DESCRIPTION, MIC_TEST_DESCRIPTION, classify_args, mic_test_args
from hardware.speech import Heard, Listener, choose_engine
from hardware.speech.audio import NotAWavFile, read_recording
from hardware.speech.timing import decided_at


def best_toast(heard: list[Heard]) -> Heard | None:
    """The most confident toast among a file's verdicts, or None when no toast was heard."""
    toasts = [h for h in heard if h.toast is not None]
    return max(toasts, key=lambda h: h.confidence) if toasts else None


def recordings(paths: list[str]) -> Iterator[tuple[str, str | None]]:
    """Each path as given, and a folder as the WAV files under it (``*.wav`` in any case, at any
    depth, in sorted order): ``(path, None)``, or ``(folder, error)`` for a folder that holds none."""
    for path in paths:
        if not Path(path).is_dir():
            yield path, None
            continue
        found = sorted(str(p) for p in Path(path).rglob("*")
                       if p.suffix.lower() == ".wav" and not p.is_dir())
        if not found:
            yield path, f"{path} is a folder with no WAV file in it"
        for name in found:
            yield name, None


def classify_main(args: list[str], out: TextIO = sys.stdout) -> int:
    """Print one JSON line per file: ``{"file", "toast", "confidence", "decided_s"}``.

    ``decided_s`` is when, in seconds into the file, the live box would have had the verdict:
    the audio the listener waits for, plus the decoding an engine does once speech has ended
    (:func:`hardware.speech.timing.decided_at`); None when no toast was heard.

    A folder stands for the WAV files under it (:func:`recordings`). Each file is read by :func:`hardware.speech.audio.read_recording`: only a regular WAV file
    within the recordings' limits (a FIFO or a device is refused before it is read, so that it
    cannot hang the tool). A file that cannot be read, or whose judging fails, is reported on
    stderr by name; the other files are still classified and the exit status is 1.
    """
    ap = classify_args(argparse.ArgumentParser(prog="clinkbox speech classify",
                                               description=CLASSIFY_DESCRIPTION))
    opts = ap.parse_args(args)
    engine, reason = choose_engine(opts.engine, opts.data_dir)
    print(f"speech engine: {engine.name} ({reason})", file=sys.stderr)
    status = 0
    if opts.expect:
        from models.toasts import toast_id

        unknown = [w for w in opts.expect if toast_id(w) is None]
        if unknown:
            ap.error(f"--expect {unknown}: expected toasts (prost, cheers, tchin tchin, kanpai, "
                     "salud, na zdorovie)")
        words = {toast_id(w) for w in opts.expect}
        if not hasattr(engine, "expect"):
            ap.error(f"--expect needs the toast spotter (the {engine.name} engine hears every "
                     "toast alike): add --engine spotter")
        engine.expect(words)  # type: ignore[attr-defined]
    if opts.enrol:
        status = enrol_from_files(engine, opts.enrol, ap)
    for path, problem in recordings(opts.files):
        if problem is not None:
            print(f"clinkbox speech classify: {problem}", file=sys.stderr)
            status = 1
            continue
        try:
            samples = read_recording(path)
        except NotAWavFile as err:
            print(f"clinkbox speech classify: {err}", file=sys.stderr)
            status = 1
            continue
        try:
            verdict = best_toast(engine.classify(samples))
            decided = decided_at(engine, samples, verdict) if verdict else None
        except Exception as err:  # noqa: BLE001 (one file's failure must not lose the others' verdicts)
            print(f"clinkbox speech classify: {path} could not be judged ({type(err).__name__}: {err})",
                  file=sys.stderr)
            status = 1
            continue
        out.write(json.dumps({
            "file": path,
            "toast": verdict.toast if verdict else None,
            "confidence": verdict.confidence if verdict else 0.0,
            "decided_s": round(decided, 3) if decided is not None else None,
        }) + "\n")
        out.flush()
    return status


def enrol_from_files(engine: object, specs: list[str], ap: argparse.ArgumentParser) -> int:
    """Enrol each ``WAV=TOAST`` clip; a refused or unreadable clip is named on stderr with the
    reason (status 1), the others are kept."""
    from hardware.speech.enrol import Enrolment, EnrolRefused, make_template
    from models.toasts import toast_id

    if not hasattr(engine, "enrolment"):
        ap.error(f"--enrol needs the toast spotter (the {getattr(engine, 'name', '?')} engine "
                 "cannot learn a voice): add --engine spotter")
    enrolment = Enrolment()
    status = 0
    for spec in specs:
        path, sep, word = spec.rpartition("=")
        toast = toast_id(word) if sep else None
        if not path or toast is None:
            ap.error(f"--enrol {spec!r}: expected WAV=TOAST with a toast (prost, cheers, tchin tchin, "
                     "kanpai, salud, na zdorovie)")
        try:
            enrolment.add(make_template(engine, read_recording(path), toast))
        except (NotAWavFile, EnrolRefused) as err:
            print(f"clinkbox speech classify: enrolment clip {path} refused: {err}", file=sys.stderr)
            status = 1
    engine.enrolment = enrolment  # type: ignore[attr-defined]
    print(f"enrolled: {len(enrolment)} of {len(specs)} clips", file=sys.stderr)
    return status


def _meter(dbfs: float, width: int = 40) -> str:
    filled = int(max(0.0, min(1.0, (dbfs + 70.0) / 70.0)) * width)
    return "#" * filled + "-" * (width - filled)


def mic_test_main(args: list[str], out: TextIO = sys.stdout) -> int:
    """Live: a level meter and, for each stretch of speech, the toast heard, its confidence
    and how long after the end of the speech the decision came.  Ctrl-C ends it."""
    ap = mic_test_args(argparse.ArgumentParser(prog="clinkbox mic-test",
                                               description=MIC_TEST_DESCRIPTION))
    opts = ap.parse_args(args)
    engine, reason = choose_engine(opts.engine, opts.data_dir)
    out.write(f"speech engine: {engine.name} ({reason})\n")
    device = int(opts.device) if opts.device and opts.device.isdigit() else opts.device

    def heard(h: Heard) -> None:
        delay_ms = (time.monotonic() - h.end) * 1000.0
        said = h.toast or "(no toast)"
        out.write(f"\n{said:<14} confidence {h.confidence:.2f}  decided {delay_ms:.0f} ms "
                  f"after the speech ended ({h.end - h.start:.2f} s of speech)\n")

    def status(s: str) -> None:
        out.write(f"\nmicrophone: {s}\n")

    listener = Listener(engine, heard, status, device=device)
    listener.start()
    listener.arm(time.monotonic(), math.inf)
    end = time.monotonic() + opts.seconds
    try:
        while time.monotonic() < end:
            out.write(f"\r{_meter(listener.level_dbfs)} {listener.level_dbfs:6.1f} dBFS")
            out.flush()
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    finally:
        listener.stop()
        out.write("\n")
    return 0 if listener.status in ("ok", "back") else 1
