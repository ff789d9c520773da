"""bench/results_file.py: the one file every benchmark merges into, and how its shares round."""

import json

from bench.results_file import merge, share


def test_a_share_is_the_mean_rounded_and_none_when_nothing_was_judged():
    assert share([True, False, False]) == 0.333
    assert share([True, True, False, False, False, False, False], digits=4) == 0.2857
    assert share([0.25, 0.75]) == 0.5
    assert share([]) is None


def test_merge_keeps_other_benchmarks_keys_and_keeps_a_broken_file_aside(tmp_path):
    path = tmp_path / "results.json"
    merge({"a": 1}, path)
    merge({"b": 2}, path)
    assert json.loads(path.read_text()) == {"a": 1, "b": 2}
    path.write_text("{ not json")
    assert merge({"c": 3}, path) == {"c": 3}
    assert (tmp_path / "results.json.broken").read_text() == "{ not json"  # nothing lost
    path.write_text("[1, 2]")
    assert merge({"d": 4}, path) == {"d": 4}
