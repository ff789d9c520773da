"""Write the README's performance table from bench/results.json (``make bench`` calls it)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.results_file import RESULTS
from bench.run import TARGETS, verdict

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- bench:table -->", "<!-- /bench:table -->"

LABELS = {
    "startup_s": "Start to main menu (s)",
    "button_to_lock_p99_ms": "Button edge to lock-out and LED, p99 (ms)",
    "press_order_errors": "Presses 1 ms apart ordered wrongly (of 1,000)",
    "speech_accuracy": "Right toast at 10 dB SNR, pink + babble",
    "speech_lofo_accuracy_10db": "… on a voice family left out of training",
    "speech_lofo_claim_accuracy_10db": "… a claim on a family left out, the card's word listened for",
    "speech_mbrola_accuracy_10db": "… on MBROLA's voices (cut from real speakers' recordings), never fitted on",
    "speech_accuracy_clean": "Right toast, no added noise",
    "speech_lofo_accuracy_clean": "… on a voice family left out of training",
    "speech_lofo_claim_accuracy_clean": "… a claim on a family left out, the card's word listened for",
    "speech_mbrola_accuracy_clean": "… on MBROLA's voices (cut from real speakers' recordings), never fitted on",
    "speech_false_accept": "A toast reported for another word",
    "speech_lofo_false_accept": "… on a voice family left out of training",
    "speech_lofo_claim_false_accept": "… a claim on a family left out, the card's word listened for",
    "speech_mbrola_false_accept": "… on MBROLA's voices (cut from real speakers' recordings), never fitted on",
    "speech_real_fires_per_min": "Toasts fired in real people's talk (no toast said), per minute",
    "speech_people_false_accept": "A toast reported for real people's syllables, speakers no fit heard",
    "speech_people_talk_false_accept": "A toast reported for real people's words and sentences, speakers no fit heard",
    "speech_people_spliced_accuracy": "Right toast spliced from real Mandarin speakers' syllables",
    "speech_sounds_false_accept": "A toast reported for party sounds no fit heard (beeps, tones...)",
    "speech_decision_p95_ms": "End of the word to the decision, p95 (ms)",
    "speech_rtf": "Decoding time / audio time",
    "toast_verdict_p95_ms": "End of a spoken toast to the verdict in the live box, p95 (ms)",
    "enrolment_gain_10db": "Right toasts at 10 dB gained by one clip per toast, same speaker, unseen accents",
    "enrolment_false_accept_change": "… false accepts, with the clips minus without",
    "cheers_games_per_s": "Cheers: complete bot games per second",
    "goblets_games_per_s": "Raise Your Goblets: complete bot games per second",
    "phone_action_p95_ms": "A phone's tap to the TV updated, 12 phones, p95 (ms)",
    "button_to_lock_p99_ms_with_phones": "Button edge to lock-out, 12 phones connected, p99 (ms)",
}


def table(results: dict) -> str:
    rows = ["| measure | key | measured | target |", "|---|---|---|---|"]
    for key, label in LABELS.items():
        if key not in results:
            continue
        target = TARGETS.get(key)
        aim = f"{target[0]} {target[1]}" if target else ""
        mark = verdict(key, results[key])
        status = " (missed)" if "MISSED" in mark else (" (met)" if mark else "")
        rows.append(f"| {label} | `{key}` | {results[key]} | {aim}{status} |")
    return "\n".join(rows)


def update(readme: Path = README, results_path: Path = RESULTS) -> None:
    results = json.loads(results_path.read_text())
    text = readme.read_text()
    block = f"{START}\n{table(results)}\n{END}"
    if END in text:
        text = text[: text.index(START)] + block + text[text.index(END) + len(END):]
    else:
        text = text.replace(START, block)
    readme.write_text(text)


if __name__ == "__main__":
    update()
