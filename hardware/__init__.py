"""Adapters to the physical world (buttons, LEDs, microphone, speaker, display), each with a simulated twin."""
