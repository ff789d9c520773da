"""Illegal `do` actions are refused with a named error and a reason, and change nothing."""

from controller.games.cheers.demo import DEMO_HEADER, ScriptedTable


def header(**extra):
    return {**DEMO_HEADER, **extra}


def test_illegal_action_after_the_game_is_over_is_refused_as_game_is_over() -> None:
    table = ScriptedTable(header(options={**DEMO_HEADER.get("options", {}), "turn_cap": 1}))
    table.feed("do", {"type": "discard_hand", "seat": 1})
    assert table.named("game_over")[-1]["reason"] == "turn_cap" and table.flow.finished
    count = len(table.named("game_over"))
    table.feed("do", {"type": "discard_hand", "seat": 2})
    ill = table.named("illegal")
    assert [e["error"] for e in ill] == ["GameIsOver"]
    assert "over" in ill[0]["reason"] and ill[0]["seat"] == 2
    assert len(table.named("game_over")) == count and not table.named("drew")[1:]


def test_illegal_action_after_abandon_is_refused_as_game_is_over() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    table.navs("back", "next", "ok", "next", "ok")  # the game menu, Abandon, Yes
    assert table.named("abandoned")
    table.feed("do", {"type": "discard_hand", "seat": 1})
    assert [e["error"] for e in table.named("illegal")] == ["GameIsOver"]
    assert not table.named("discarded_hand")


def test_cheers_given_as_a_map_while_no_cheers_waits_is_refused_for_that_reason() -> None:
    table = ScriptedTable(header())
    table.feed("do", {"type": "cheers", "seat": 1, "give": {"C13": 2, "C01": 3}})
    table.feed("do", {"type": "cheers", "seat": 2, "give": {"2": "C13", "3": "C01"}})
    assert [e["error"] for e in table.named("illegal")] == ["NotThisStep", "NotYourTurn"]
    assert "waits for a turn" in table.named("illegal")[0]["reason"]


def test_illegal_action_of_the_wrong_kind_names_the_action_type() -> None:
    table = ScriptedTable(header())
    table.feed("do", {"type": "limit_discard", "seat": 1, "card": "C13"})
    ill = table.named("illegal")[-1]
    assert ill["error"] == "NotThisStep" and ill["reason"].endswith("not a limit_discard")
