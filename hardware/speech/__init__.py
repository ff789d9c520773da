"""Hearing the toasts: microphone capture, speech detection and two offline recognisers.

The referee never needs a transcript: it asks which of the six toasts, if any, was said in a
window of a few seconds.  :class:`Listener` captures the microphone and decides on demand;
engines (PocketSphinx, Vosk) judge each stretch of speech among the closed set of toasts.
"""

from hardware.speech.heard import Heard, SpeechModelError, ToastEngine

__all__ = ["Heard", "SpeechModelError", "ToastEngine"]
