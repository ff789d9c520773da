"""The doctor's checks of everything but the pins: sound in and out, speech, display, disk, journal.

Each check is a function of what it looks at (a folder, a device name, the
environment), so a test hands it a temporary folder or a real model.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from controller.doctor.check import Check

VOSK_MODEL = "vosk-model-small-en-us-0.15"
MIN_FREE_MB = 100
LOW_FREE_MB = 500


def _sounddevice() -> Any:
    import sounddevice as sd  # type: ignore[import-untyped]

    return sd


def check_config(path: Path, problem: str | None) -> Check:
    if problem:
        return Check("config", "FAIL", problem, f"fix or delete {path}; the box runs on the defaults meanwhile")
    if path.exists():
        return Check("config", "PASS", f"{path} is valid")
    return Check("config", "PASS", f"no {path}: the defaults (the build in wiring.md)")


def level_dbfs(samples: np.ndarray) -> float:
    """The RMS level of float samples in dB below full scale (-inf for digital silence)."""
    x = np.asarray(samples, dtype=np.float64)
    rms = float(np.sqrt(np.mean(x * x))) if x.size else 0.0
    return 20 * math.log10(rms) if rms > 0 else -math.inf


def meter(db: float, width: int = 30) -> str:
    """A text level meter from -60 dBFS (empty) to 0 dBFS (full)."""
    filled = 0 if db == -math.inf else max(0, min(width, round((db + 60) / 60 * width)))
    return "[" + "#" * filled + "." * (width - filled) + "]"


def check_microphone(device: str | int | None, listen_s: float = 0.0, sd: Any = None) -> list[Check]:
    """An input device is there; with ``listen_s``, its level over that time."""
    try:
        sd = sd or _sounddevice()
        info = sd.query_devices(device or None, "input")
    except Exception as exc:  # noqa: BLE001 (no PortAudio or no device: both mean no microphone)
        return [Check("microphone", "FAIL", f"no microphone ({exc})",
                      "plug in the USB microphone; 'arecord -l' should list it; set speech.device "
                      "in clinkbox.toml if it is not the default. The veto vote still works without it")]
    checks = [Check("microphone", "PASS", f"{info['name']} ({int(info['default_samplerate'])} Hz)")]
    if listen_s > 0:
        try:
            rec = sd.rec(int(listen_s * 16000), samplerate=16000, channels=1, dtype="float32",
                         device=device or None, blocking=True)
        except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
            return [*checks, Check("microphone level", "FAIL", f"recording failed ({exc})",
                                   "is another program using the microphone? (sudo systemctl stop clinkbox)")]
        db = level_dbfs(rec)
        if db == -math.inf:
            checks.append(Check("microphone level", "FAIL", "digital silence: the input is muted",
                                "unmute it: alsamixer, F4 (capture), raise the microphone"))
        elif db < -55:
            checks.append(Check("microphone level", "WARN", f"{db:.0f} dBFS {meter(db)}: very quiet",
                                "raise the capture level in alsamixer, or move the microphone closer"))
        else:
            checks.append(Check("microphone level", "PASS", f"{db:.0f} dBFS {meter(db)}"))
    return checks


def check_speaker(device: str | int | None, enabled: bool = True, play: Callable[[], None] | None = None,
                  sd: Any = None) -> Check:
    """An output device is there; ``play`` sounds the test cue on it."""
    if not enabled:
        return Check("speaker", "WARN", "sound is off in clinkbox.toml ([sound] enabled = false)",
                     "set enabled = true to hear the cues")
    try:
        sd = sd or _sounddevice()
        info = sd.query_devices(device or None, "output")
    except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
        return Check("speaker", "FAIL", f"no speaker ({exc}); the box plays on silently",
                     "plug in the speaker (USB, HDMI or 3.5 mm); 'aplay -l' should list it; "
                     "choose the output in the desktop's sound menu or set sound.device")
    if play is not None:
        play()
    return Check("speaker", "PASS", f"{info['name']}" + (": test sound played" if play else ""))


def vosk_model_dir(data: Path) -> Path:
    return data / "models" / VOSK_MODEL


def check_speech_model(engine: str, model_dir: Path, load: bool = True) -> Check:
    """The toast spotter (the default: measured best on held-out voices, and it ships with the
    box) ready, or PocketSphinx as the last resort; the Vosk model present and loadable when
    speech.engine asks for Vosk."""
    if engine == "off":
        return Check("speech", "WARN", "speech is off: claims are confirmed by the veto vote alone",
                     "set speech.engine = \"auto\" in clinkbox.toml")
    vosk_there = (model_dir / "am" / "final.mdl").exists()
    if engine == "vosk" and vosk_there:
        if load:
            try:
                from vosk import Model, SetLogLevel  # type: ignore[import-untyped]

                SetLogLevel(-1)
                Model(str(model_dir))
            except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
                return Check("speech model", "FAIL", f"{model_dir} does not load ({exc})",
                             f"rm -r {model_dir} && make model")
        return Check("speech model", "PASS", f"Vosk, {model_dir}" + (" (loads)" if load else ""))
    try:
        import pocketsphinx  # type: ignore[import-untyped]

        default = Path(pocketsphinx.get_model_path()) / "en-us"
    except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
        return Check("speech model", "FAIL", f"no Vosk model and PocketSphinx is missing ({exc})",
                     "make model (needs internet once), or reinstall: .venv/bin/pip install pocketsphinx")
    if engine == "vosk":
        return Check("speech model", "FAIL", f"speech.engine is vosk but there is no model in {model_dir}",
                     "make model (needs internet once)")
    spotter_problem = ""
    if engine in ("auto", "spotter"):
        try:
            from hardware.speech.spotter import SpotterEngine

            SpotterEngine()
            vosk = ("the Vosk model is there, used only with speech.engine = \"vosk\""
                    if vosk_there else "the Vosk model is not fetched")
            return Check("speech model", "PASS",
                         f"the toast spotter (the default; its models ship with the box); {vosk}",
                         "make model for Vosk")
        except Exception as exc:  # noqa: BLE001 (any failure here is the finding)
            spotter_problem = f"; the toast spotter cannot run ({exc})"
    return Check("speech model", "PASS" if default.exists() else "FAIL",
                 f"PocketSphinx ({default}){spotter_problem}; the Vosk model is not fetched",
                 "make model for Vosk" + (", and .venv/bin/pip install onnxruntime openwakeword==0.4.0"
                                          if spotter_problem else ""))


def check_display(mode: str, env: dict[str, str] | None = None, on_pi: bool = False) -> Check:
    env = dict(os.environ) if env is None else env
    if mode == "headless" or env.get("SDL_VIDEODRIVER") == "dummy":
        return Check("display", "PASS" if not on_pi else "WARN", "headless: the box draws off screen",
                     "set display.mode = \"auto\" and run in the desktop session")
    wayland, x11 = env.get("WAYLAND_DISPLAY"), env.get("DISPLAY")
    runtime = env.get("XDG_RUNTIME_DIR", "")
    found = []
    if wayland and runtime and Path(runtime, wayland).exists():
        found.append(f"Wayland {wayland}")
    if x11 and Path("/tmp/.X11-unix", "X" + x11.lstrip(":").split(".")[0]).exists():
        found.append(f"X {x11}")
    if found:
        return Check("display", "PASS", " and ".join(found) + f" (mode {mode})")
    if wayland or x11:
        return Check("display", "FAIL", f"DISPLAY={x11 or ''} WAYLAND_DISPLAY={wayland or ''} set, but no "
                     "desktop session is listening", "boot to the desktop with auto-login: "
                     "sudo raspi-config nonint do_boot_behaviour B4, then reboot")
    status = "FAIL" if on_pi else "WARN"
    return Check("display", status, "no DISPLAY or WAYLAND_DISPLAY: the box would run headless",
                 "run it from the desktop session (the service sets DISPLAY=:0 and WAYLAND_DISPLAY)")


def check_disk(data: Path, min_free_mb: int = MIN_FREE_MB, low_free_mb: int = LOW_FREE_MB) -> Check:
    probe = data
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free_mb = shutil.disk_usage(probe).free // (1024 * 1024)
    if free_mb < min_free_mb:
        return Check("disk space", "FAIL", f"{free_mb} MB free for {data}: the journal will stop saving",
                     "free some space: sudo apt clean; journalctl --vacuum-size=50M")
    if free_mb < low_free_mb:
        return Check("disk space", "WARN", f"only {free_mb} MB free for {data}",
                     "free some space: sudo apt clean; journalctl --vacuum-size=50M")
    return Check("disk space", "PASS", f"{free_mb} MB free for {data}")


def check_journal(path: Path) -> Check:
    if not path.exists():
        blocked = _unmakeable(path.parent)
        if blocked:
            return Check("journal", "FAIL", f"no {path}, and it cannot be made: {blocked}",
                         "set data_dir in clinkbox.toml to a folder the box can write "
                         "(the box plays on with the journal in memory, unsaved)")
        return Check("journal", "PASS", f"no {path} yet: made at the first game")
    from controller.journal import Journal

    journal = Journal(path, repair=False)  # look only: the box itself sets a damaged one aside
    try:
        if journal.problem:
            return Check("journal", "FAIL", journal.problem,
                         f"mv {path} {path}.broken; the box starts a new journal")
        result = journal.check()
        if result != "ok":
            return Check("journal", "FAIL", f"integrity check: {result}",
                         f"mv {path} {path}.broken; the box starts a new journal")
        games = journal.games()
        playing = sum(1 for _, _, status in games if status == "playing")
        note = f"; {playing} game left in progress (offered for resume)" if playing else ""
        return Check("journal", "PASS", f"{path}: {len(games)} games, integrity ok{note}")
    finally:
        journal.close()


def _unmakeable(folder: Path) -> str | None:
    """Why the journal's folder cannot be made or written (None: it can), looked at without
    making anything."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is a file, not a folder"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{probe} cannot be written"
    return None


def check_service(on_pi: bool) -> Check:
    if not on_pi or shutil.which("systemctl") is None:
        return Check("service", "SKIP", "not a Raspberry Pi install")
    enabled = subprocess.run(["systemctl", "is-enabled", "--quiet", "clinkbox"], check=False).returncode == 0
    active = subprocess.run(["systemctl", "is-active", "--quiet", "clinkbox"], check=False).returncode == 0
    if not enabled:
        return Check("service", "WARN", "clinkbox.service is not enabled: the box will not start at boot",
                     "make install")
    return Check("service", "PASS", "enabled, " + ("running" if active else "not running now"))
