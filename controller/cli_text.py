"""The speech tools' arguments, shared by ``clinkbox``'s own parser (so that ``clinkbox speech
classify --help`` and ``clinkbox mic-test --help`` list every option) and the tools' parsers
(:mod:`controller.speech_cli`): one wording for both. Nothing heavy is imported here, so that
``clinkbox run`` starts without loading the speech engines."""

from __future__ import annotations

import argparse

#: what ``clinkbox speech classify`` reads (:func:`hardware.speech.audio.read_recording`)
WAV_FILES_HELP = ("WAV files, or folders of them: 8-32-bit integer or 32/64-bit float samples, "
                  "any rate from 8 kHz, mono or stereo; each a regular file of at most 64 MiB "
                  "and 600 s")

#: what each tool is for (its parser's description and the subcommand's help)
CLASSIFY_DESCRIPTION = "Which toast each WAV file holds, as JSON lines."
MIC_TEST_DESCRIPTION = "Listen live: the microphone's level and each toast heard."

#: ``clinkbox speech classify --enrol``
ENROL_HELP = ("a clip of this table's voice saying a toast (e.g. intro-3.wav=salud), as the "
              "introduction enrols it: the toast spotter then also hears that voice's way of saying it; "
              "repeat for each clip")

#: ``clinkbox speech classify --expect``
EXPECT_HELP = ("judge as if a card in play waited for this toast (repeatable): the toast spotter "
               "listens for it at its expected threshold, as in a game")


def engine_args(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``--engine`` and ``--data-dir``: which recogniser, and where its models live."""
    ap.add_argument("--engine", choices=["spotter", "pocketsphinx", "vosk"],
                    help="recogniser (default: the toast spotter, measured best on held-out "
                    "voices; PocketSphinx where it cannot run)")
    ap.add_argument("--data-dir", help="where the speech models live (default: the user's data dir)")
    return ap


def classify_args(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every argument of ``clinkbox speech classify``."""
    engine_args(ap)
    ap.add_argument("files", nargs="+", help=WAV_FILES_HELP)
    ap.add_argument("--enrol", action="append", default=[], metavar="WAV=TOAST", help=ENROL_HELP)
    ap.add_argument("--expect", action="append", default=[], metavar="TOAST", help=EXPECT_HELP)
    return ap


def mic_test_args(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every argument of ``clinkbox mic-test``."""
    engine_args(ap)
    ap.add_argument("--device", help="microphone name or index (default: the system's)")
    ap.add_argument("--seconds", type=float, default=float("inf"), help="stop after this long")
    return ap
