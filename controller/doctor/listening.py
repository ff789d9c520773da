"""The doctor's measure of what listening costs on this box (hardware.speech.cost)."""

from __future__ import annotations

from pathlib import Path

from controller.doctor.check import Check

#: of one core, per second of audio: above this the listener falls behind now and then
WARN_AT = 0.5
#: ... and above this it cannot keep up with the microphone at all
FAIL_AT = 0.9


def check_listening_cost(engine: str, data_dir: Path, seconds: float = 6.0) -> Check:
    """Run the engine the box would listen with over ``seconds`` of voice-like sound (nothing is
    recorded) and say how much of one core it takes, and how long learning a toast takes."""
    if engine == "off":
        return Check("listening cost", "SKIP", "speech is off")
    try:
        from hardware.speech.cost import enrolment_cost, listening_cost, speechlike
        from hardware.speech.select import choose_engine

        ear, _ = choose_engine(None if engine == "auto" else engine, data_dir)
        audio = speechlike(seconds)
        cost = listening_cost(ear, audio)
        detail = f"{ear.name}: {cost:.0%} of one core per second of audio"
        if hasattr(ear, "enrolment"):
            detail += f"; learning a toast at the introduction: {enrolment_cost(ear, audio[:40000], 'cheers'):.2f} s"
    except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
        return Check("listening cost", "FAIL", f"could not listen to a test sound ({exc})",
                     "see the speech model check above")
    if cost >= FAIL_AT:
        return Check("listening cost", "FAIL", detail + ": the box cannot keep up with the microphone",
                     "choose the toast spotter in Settings (the lightest engine), or a faster Pi")
    if cost >= WARN_AT:
        return Check("listening cost", "WARN", detail + ": verdicts may lag when the box is busy",
                     "choose the toast spotter in Settings (the lightest engine), or a faster Pi")
    return Check("listening cost", "PASS", detail)
