"""The README's performance table is written from the measured results, targets marked."""

from __future__ import annotations

import json

from bench.readme_table import END, START, table, update


def test_the_table_marks_met_and_missed_targets():
    text = table({"startup_s": 0.8, "speech_accuracy": 0.5, "cheers_games_per_s": 40.0})
    assert "| Start to main menu (s) | `startup_s` | 0.8 | < 3.0 (met) |" in text
    assert "| `speech_accuracy` | 0.5 | >= 0.75 (missed) |" in text
    assert "`cheers_games_per_s` | 40.0 |  |" in text
    assert "speech_rtf" not in text, "a measure not taken is left out"


def test_update_replaces_the_block_between_its_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{START}\nold\n{END}\noutro\n")
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"startup_s": 1.2}))
    update(readme, results)
    text = readme.read_text()
    assert "old" not in text and "| 1.2 |" in text and text.endswith("outro\n")


def test_the_held_out_family_figures_sit_under_the_report_voice_figures():
    text = table({"speech_accuracy_clean": 0.97, "speech_lofo_accuracy_clean": 0.8,
                  "speech_false_accept": 0.029, "speech_lofo_false_accept": 0.02})
    lines = text.splitlines()
    clean = next(i for i, line in enumerate(lines) if "`speech_accuracy_clean`" in line)
    assert "`speech_lofo_accuracy_clean` | 0.8 | >= 0.9 (missed)" in lines[clean + 1]
    fa = next(i for i, line in enumerate(lines) if "`speech_false_accept`" in line)
    assert "`speech_lofo_false_accept` | 0.02 | <= 0.03 (met)" in lines[fa + 1]
