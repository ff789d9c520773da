"""``make bench``: measure every target and merge the numbers into bench/results.json.

A part whose code is missing or broken is reported and skipped; the others still run.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from typing import Any, Callable

from bench.results_file import RESULTS, merge

TARGETS = {
    "startup_s": ("<", 3.0),
    "button_to_lock_p99_ms": ("<", 5.0),
    "press_order_errors": ("==", 0),
    "speech_accuracy": (">=", 0.75),
    "speech_accuracy_clean": (">=", 0.97),
    "speech_false_accept": ("<=", 0.03),
    "speech_decision_p95_ms": ("<", 300.0),
    "speech_rtf": ("<", 0.1),
    "speech_lofo_accuracy_clean": (">=", 0.90),
    "speech_lofo_accuracy_10db": (">=", 0.70),
    "speech_lofo_false_accept": ("<=", 0.03),
    "speech_lofo_claim_accuracy_clean": (">=", 0.90),
    "speech_lofo_claim_accuracy_10db": (">=", 0.70),
    "speech_lofo_claim_false_accept": ("<=", 0.03),
    "speech_mbrola_accuracy_clean": (">=", 0.90),
    "speech_mbrola_accuracy_10db": (">=", 0.70),
    "speech_mbrola_false_accept": ("<=", 0.03),
    "speech_people_false_accept": ("<=", 0.03),
    "speech_people_talk_false_accept": ("<=", 0.03),
    "speech_sounds_false_accept": ("<=", 0.03),
    "phone_action_p95_ms": ("<", 100.0),
    "button_to_lock_p99_ms_with_phones": ("<", 5.0),
    "toast_verdict_p95_ms": ("<", 300.0),
    "enrolment_gain_10db": (">=", 0.10),
    "enrolment_false_accept_change": ("<=", 0.0),
}


def _part(module: str, fn: str, *args: Any) -> Callable[[], dict[str, Any]]:
    def call() -> dict[str, Any]:
        return getattr(importlib.import_module(module), fn)(*args)

    return call


def _games(module: str, key: str) -> Callable[[], dict[str, Any]]:
    def call() -> dict[str, Any]:
        rate = importlib.import_module(module).random_game_benchmark(5.0)
        return {key: round(rate, 1)}

    return call


PARTS: dict[str, Callable[[], dict[str, Any]]] = {
    "startup": _part("bench.startup", "run"),
    "buttons": _part("bench.buttons", "run", 1000),
    "cheers": _games("bench.cheers_games", "cheers_games_per_s"),
    "goblets": _games("bench.goblets_games", "goblets_games_per_s"),
    "speech": _part("bench.speech_bench", "run"),
    "speech-lofo": _part("bench.spotter_lofo", "run"),
    "speech-real": _part("bench.real_speech", "run"),
    "speech-people": _part("bench.real_speech", "people_run"),
    "speech-sounds": _part("bench.sounds_check", "run"),
    "phones": _part("bench.phones", "run"),
    "verdict": _part("bench.verdict_bench", "run"),
    "cpu": _part("bench.cpu_budget", "run"),
}


def verdict(key: str, value: Any) -> str:
    if key not in TARGETS or not isinstance(value, (int, float)):
        return ""
    op, target = TARGETS[key]
    ok = {"<": value < target, "<=": value <= target, ">=": value >= target, "==": value == target}[op]
    return f"target {op} {target}: {'met' if ok else 'MISSED'}"


def main(argv: list[str]) -> int:
    chosen = argv or list(PARTS)
    failed = []
    for name in chosen:
        t0 = time.monotonic()
        try:
            values = PARTS[name]()
        except Exception:
            traceback.print_exc()
            print(f"[{name}] could not be measured", file=sys.stderr)
            failed.append(name)
            continue
        merge(values)
        for key, value in values.items():
            if isinstance(value, (dict, list)):
                continue
            print(f"{key:28} {value!s:>10}   {verdict(key, value)}")
        print(f"[{name}] {time.monotonic() - t0:.1f} s", file=sys.stderr)
    print(f"results in {RESULTS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
