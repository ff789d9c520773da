"""Hearing the toasts: microphone capture, speech detection and three offline recognisers.

The referee never needs a transcript: it asks which of the six toasts, if any, was said in a
window of a few seconds.  :class:`Listener` captures the microphone and decides on demand;
the toast spotter scores the audio as it streams in, PocketSphinx and Vosk judge each stretch
of speech, all among the closed set of toasts;
:func:`choose_engine` picks one and says why; :func:`recognise_file` judges a WAV file.
"""

from hardware.speech.capture import Listener, listen_once
from hardware.speech.heard import Heard, SpeechModelError, ToastEngine
from hardware.speech.select import choose_engine, recognise_file

__all__ = ["Heard", "Listener", "SpeechModelError", "ToastEngine", "choose_engine",
           "listen_once", "recognise_file"]
