"""`clinkbox speech classify FILE.wav...` and `clinkbox mic-test`: the recognisers by hand."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import TextIO

from controller.cli_text import ENROL_HELP, WAV_FILES_HELP
from hardware.speech import Heard, Listener, choose_engine
from hardware.speech.audio import NotAWavFile, read_wav
from hardware.speech.timing import decided_at


def _engine_args(prog: str, description: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("--engine", choices=["spotter", "pocketsphinx", "vosk"],
                    help="recogniser (default: the toast spotter, measured best on held-out "
                    "voices; PocketSphinx where it cannot run)")
    ap.add_argument("--data-dir", help="where the speech models live (default: the user's data dir)")
    return ap


def best_toast(heard: list[Heard]) -> Heard | None:
    """The most confident toast among a file's verdicts, or None when no toast was heard."""
    toasts = [h for h in heard if h.toast is not None]
    return max(toasts, key=lambda h: h.confidence) if toasts else None


def classify_main(args: list[str], out: TextIO = sys.stdout) -> int:
    """Print one JSON line per file: ``{"file", "toast", "confidence", "decided_s"}``.

    ``decided_s`` is when, in seconds into the file, the live box would have had the verdict:
    the audio the listener waits for, plus the decoding an engine does once speech has ended
    (:func:`hardware.speech.timing.decided_at`); None when no toast was heard.

    A file that cannot be read is reported on stderr by name; the other files are still
    classified and the exit status is 1.
    """
    ap = _engine_args("clinkbox speech classify", "Which toast each WAV file holds.")
    ap.add_argument("files", nargs="+", help=WAV_FILES_HELP)
    ap.add_argument("--enrol", action="append", default=[], metavar="WAV=TOAST", help=ENROL_HELP)
    ap.add_argument("--expect", action="append", default=[], metavar="TOAST",
                    help="judge as if a card in play waited for this toast (repeatable): the toast "
                    "spotter listens for it at its expected threshold, as in a game")
    opts = ap.parse_args(args)
    engine, reason = choose_engine(opts.engine, opts.data_dir)
    print(f"speech engine: {engine.name} ({reason})", file=sys.stderr)
    status = 0
    if opts.expect:
        from models.toasts import toast_id

        words = {toast_id(w) for w in opts.expect}
        if None in words:
            ap.error(f"--expect {opts.expect}: expected toasts (prost, cheers, tchin tchin, kanpai, "
                     "salud, na zdorovie)")
        if not hasattr(engine, "expect"):
            ap.error(f"--expect needs the toast spotter (the {engine.name} engine hears every "
                     "toast alike): add --engine spotter")
        engine.expect(words)  # type: ignore[attr-defined]
    if opts.enrol:
        status = enrol_from_files(engine, opts.enrol, ap)
    for path in opts.files:
        try:
            samples = read_wav(path)
        except NotAWavFile as err:
            print(f"clinkbox speech classify: {err}", file=sys.stderr)
            status = 1
            continue
        verdict = best_toast(engine.classify(samples))
        decided = decided_at(engine, samples, verdict) if verdict else None
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
            enrolment.add(make_template(engine, read_wav(path), toast))
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
    ap = _engine_args("clinkbox mic-test", "Listen live and show each toast heard.")
    ap.add_argument("--device", help="microphone name or index (default: the system's)")
    ap.add_argument("--seconds", type=float, default=math.inf, help="stop after this long")
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
