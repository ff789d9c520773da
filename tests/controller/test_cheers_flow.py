"""The Cheers flow on a manual clock: menus, private views, `do` actions, events, scenes."""

import json
import random

import pytest

from controller.flow import HeaderError
from controller.games import flow_for
from controller.games.cheers.demo import DEMO_HEADER, ScriptedTable, demo_scenes
from controller.games.cheers.flow import CheersFlow
from controller.replay import load, run
from hardware.display.widgets import plain
from models.cheers.bots import Bot
from models.cheers.cards import CARD_IDS, CARDS


def header(**extra):
    return {**DEMO_HEADER, **extra}


def test_cheers_is_registered() -> None:
    assert flow_for("cheers") is CheersFlow


def test_setup_questions_ask_the_split_only_where_the_seed_gives_a_choice() -> None:
    questions = {q.key: q for q in CheersFlow.setup_questions({})}
    assert [o[1] for o in questions["players"].options({})] == [3, 4, 5, 6]
    assert not questions["split"].when({"players": 4})
    assert questions["split"].when({"players": 5})
    assert [v for _, v in questions["split"].options({"players": 6})] == ["3+3", "2+2+2"]
    assert [v for _, v in questions["masquerade"].options({})] == [False, True]


@pytest.mark.parametrize("bad,words", [
    ({"players": 7}, "3 to 6 players"),
    ({"options": {"split": "4+1"}, "players": 5, "teams": None}, "3\\+2 or 2\\+2\\+1"),
    ({"options": {"wild": 1}}, "unknown option 'wild'"),
    ({"options": {"masquerade": "yes"}}, "masquerade"),
    ({"goals": {"A": ["rum"] * 5}}, "rum"),
    ({"deck": "C01"}, "list of card ids"),
])
def test_bad_header_is_a_header_error_that_names_it(bad, words) -> None:
    with pytest.raises(HeaderError, match=words):
        ScriptedTable(header(**bad))


def test_do_actions_play_the_game_and_illegal_do_changes_nothing() -> None:
    table = ScriptedTable(header())
    table.feed("do", {"type": "play", "seat": 1, "card": "C13", "to": 4})
    assert table.named("played")[-1] == {"t": 0.5, "event": "played", "seat": 1, "card": "C13",
                                         "big": "mint", "small": "mint", "to": 4}
    before = (table.flow.state.to_summary(), {s: list(h) for s, h in table.flow.state.hands.items()})
    table.feed("do", {"type": "play", "seat": 2, "card": "C13", "to": 1})
    table.feed("do", {"type": "fly"})
    table.feed("do", {"type": "push", "seat": 2, "card": "C35", "to": 1})
    ill = table.named("illegal")
    assert [e["error"] for e in ill] == ["CardNotInHand", "UnknownAction", "EmptyFront"]
    assert "no C13" in ill[0]["reason"] and ill[0]["do"]["card"] == "C13"
    after = (table.flow.state.to_summary(), {s: list(h) for s, h in table.flow.state.hands.items()})
    assert after == before


def test_menu_turn_produces_the_same_action_as_do() -> None:
    by_menu = ScriptedTable(header())
    by_menu.skip_to_table()
    by_menu.feed("press", 1)
    assert by_menu.flow.scene().private_for == 1
    by_menu.navs("ok", "next", "ok", "next", "next", "next", "ok")
    by_do = ScriptedTable(header())
    by_do.feed("do", {"type": "play", "seat": 1, "card": "C13", "to": 4})
    def strip(es):
        return [{k: v for k, v in e.items() if k != "t"} for e in es
                if e["event"] in ("played", "drew", "turn")]
    assert strip(by_menu.events) == strip(by_do.events)


def test_only_the_deciding_seat_opens_the_turn_view() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    table.feed("press", 2)  # a peek: seat 2 sees its own hand, no menu
    scene = table.flow.scene()
    assert scene.private_for == 2 and "Menu" not in repr(scene)
    table.navs("ok")
    assert not table.named("played")
    table.feed("release", 2)
    assert table.flow.scene().private_for is None


def test_target_decides_the_cheers_through_the_menus() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    for do in ({"type": "play", "seat": 1, "card": "C21", "to": 1},   # Lemon/grenadine
               {"type": "play", "seat": 2, "card": "C45", "to": 1}):  # its small lemon clinks
        table.feed("do", do)
    assert table.named("cheers_called")[-1]["target"] == 1
    table.feed("press", 2)
    assert table.flow.scene().private_for == 2 and "Menu" not in repr(table.flow.scene())
    table.feed("release", 2)
    table.feed("press", 1)
    table.navs("ok", "next", "ok")  # played card to seat 2, clinked card to seat 4
    cheers = table.named("cheers")[-1]
    assert cheers["target"] == 1 and cheers["given"] == {"2": "C45", "4": "C21"}


def test_private_view_left_open_times_out_and_the_table_returns() -> None:
    table = ScriptedTable(header(options={"split": "2+2", "view_timeout_s": 10}))
    table.skip_to_table()
    table.feed("press", 1)
    table.feed("nav", "ok", dt=11)
    assert table.named("view_closed")[-1]["reason"] == "timeout"
    assert table.flow.scene().private_for is None
    table.feed("press", 1)
    assert table.flow.scene().private_for == 1


def test_abandon_from_the_game_menu_once_the_host_confirms() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    table.navs("back", "next", "ok")
    assert not table.named("abandoned") and "Abandon this game?" in repr(table.flow.scene())
    table.navs("ok")  # No, back to the table
    assert not table.named("abandoned") and not table.flow.finished
    table.navs("back", "next", "ok", "next", "ok")
    assert table.named("abandoned") and table.named("game_over")[-1] == {
        "t": table.t, "event": "game_over", "winner": None, "reason": "abandoned"}
    assert table.flow.finished


def test_seating_then_each_seat_sees_its_goal_privately() -> None:
    table = ScriptedTable(header())
    assert "take your seats" in table.flow.scene().title
    table.feed("nav", "ok")
    table.feed("press", 2)  # not seat 1's goal: nothing opens
    assert table.flow.scene().private_for is None
    table.feed("press", 1)
    assert table.flow.scene().private_for == 1
    table.feed("release", 1)
    assert "2: your team's goal" in plain(repr(table.flow.scene()))


def test_public_events_and_table_scene_never_leak_a_secret() -> None:
    table = ScriptedTable(header(seed=99, deck=None, goals=None))
    table.skip_to_table()
    bot = Bot(random.Random(1))
    while not table.flow.finished and len(table.events) < 3000:
        state = table.flow.state
        secrets = set(state.discard_pile).union(*map(set, state.hands.values()))
        scene = repr(table.flow.scene())
        assert "private_for=None" in scene
        fronts = {f"{c.big.value}/{c.small.value}" for f in view_fronts(state) for c in f}
        shown = {part.split("'")[0] for part in scene.split("Glyph(kind='cheers-card', name='")[1:]}
        assert shown <= fronts
        table.feed("do", bot.choose(state).to_dict())
        secrets -= {c for f in state.fronts.values() for c in f}
        for e in table.events[-12:]:
            if e["event"] in ("dealt", "drew", "discarded_hand", "limit_discard"):
                assert not any(c in json.dumps(e) for c in CARD_IDS)
    assert table.flow.finished and table.named("game_over")


def view_fronts(state):
    from models.cheers.view import view

    return view(state, None).fronts.values()


def test_victory_screen_reveals_the_goals() -> None:
    table = ScriptedTable(header(seed=5, deck=None, goals=None))
    bot = Bot(random.Random(2))
    while not table.flow.finished:
        table.feed("do", bot.choose(table.flow.state).to_dict())
    scene = plain(repr(table.flow.scene()))
    assert "game over" in scene and "Team A 1 3" in scene


def test_replay_file_runs_the_same_twice(tmp_path) -> None:
    lines = [json.dumps(DEMO_HEADER),
             json.dumps({"t": 1, "do": {"type": "play", "seat": 1, "card": "C21", "to": 1}}),
             json.dumps({"t": 2, "do": {"type": "play", "seat": 2, "card": "C45", "to": 1}}),
             json.dumps({"t": 3, "do": {"type": "cheers", "seat": 1, "clink": "C21",
                                        "give": [2, 4]}})]
    outs = []
    for _ in range(2):
        hdr, inputs = load(lines)
        out: list[str] = []
        run(hdr, inputs, lambda ev, out=out: out.append(json.dumps(ev)))
        outs.append(out)
    assert outs[0] == outs[1]
    assert any('"event": "cheers"' in line and '"given": {"2": "C45", "4": "C21"}' in line
               for line in outs[0])


def test_demo_scenes_are_made_by_the_real_flow() -> None:
    scenes = dict(demo_scenes())
    assert scenes["table"].private_for is None
    assert scenes["turn"].private_for == 1 and "Which card to play?" in repr(scenes["turn"])
    assert scenes["cheers"].private_for == 1 and "CHEERS" in repr(scenes["cheers"])


def test_demo_scenes_render_to_png(tmp_path) -> None:
    pytest.importorskip("pygame")
    from controller.games.cheers.demo import render_demo

    paths = render_demo(tmp_path)
    assert len(paths) == 4 and all(p.stat().st_size > 10_000 for p in paths)


def test_two_friends_and_the_box_play_to_the_end() -> None:
    h = {"game": "cheers", "seed": 4, "players": 3, "bots": [3]}
    table = ScriptedTable(h)
    [box] = table.flow.bots
    assert box == table.flow.setup.seat_of_station[3], "the seat station 3 would have taken"
    seating = plain(repr(table.flow.scene()))
    assert "the box plays here" in seating and "whoever is at 3 sits here" not in seating
    table.skip_to_table()
    assert "the box" in plain(repr(table.flow.scene())), "its seat is shown as the box's"
    bot = Bot(random.Random(9))
    for _ in range(500):
        if table.flow.finished:
            break
        if table.flow.state.current_player == box:
            table.t += 1.5  # the box moves by itself
            table.clock.advance_to(table.t)
        else:
            table.feed("do", bot.choose(table.flow.state).to_dict())
    assert table.flow.finished
    mine = [e for e in table.events if e.get("seat") == box and e["event"] in ("played", "pushed", "discarded_hand")]
    assert mine, "the box played its seat"


def test_the_box_s_player_waits_while_the_host_has_the_game_menu_open() -> None:
    """The game menu is a pause: the box's move must not close it under the host."""
    table = ScriptedTable({"game": "cheers", "seed": 4, "players": 3, "bots": [3]})
    [box] = table.flow.bots
    table.skip_to_table()
    bot = Bot(random.Random(9))
    while table.flow.state.current_player != box:
        table.feed("do", bot.choose(table.flow.state).to_dict())
    moves = len(table.events)
    table.feed("nav", "back", dt=0.1)  # the host opens the game menu as the box's turn begins
    assert table.flow.phase == "menu" and len(table.events) == moves
    for _ in range(3):
        table.t += 2.0
        table.clock.advance_to(table.t)
    assert table.flow.phase == "menu" and "Game menu" in repr(table.flow.scene())
    assert table.flow.state.current_player == box, "the box has not moved"
    assert not [e for e in table.events[moves:] if e["event"] in ("played", "pushed", "discarded_hand")]
    table.navs("ok")  # back to the table
    table.t += 2.0
    table.clock.advance_to(table.t)
    assert table.flow.state.current_player != box, "the box moves once the menu is closed"


@pytest.mark.parametrize("bots", [[9], "3", [True]])
def test_a_bad_list_of_the_box_s_seats_is_named(bots) -> None:
    with pytest.raises(HeaderError, match="'bots' must list seats"):
        ScriptedTable({"game": "cheers", "seed": 4, "players": 3, "bots": bots})


def test_a_play_is_announced_with_the_names_the_menus_use() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    table.feed("do", {"type": "play", "seat": 1, "card": "C21", "to": 4})
    shown = plain(repr(table.flow.scene()))
    card = CARDS["C21"]
    assert f"played {card.big.label} (clinks with {card.small.label}) on 4's front" in shown
    assert f"{card.big.value} / {card.small.value}" not in shown


def test_the_game_menu_and_its_confirmation_are_each_titled_once() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    table.navs("back")
    assert plain(repr(table.flow.scene())).count("Game menu") == 1
    table.navs("next", "ok")
    shown = plain(repr(table.flow.scene()))
    assert "Abandon this game?" in shown and "Game menu" not in shown


def test_the_seats_offered_in_a_menu_are_their_chips() -> None:
    table = ScriptedTable(header())
    table.skip_to_table()
    table.feed("press", 1)
    table.navs("ok", "ok")  # play the first card: to whom?
    shown = repr(table.flow.scene())
    assert "You \u27e61\u27e7" in shown and "\u27e62\u27e7 team" in shown and "Seat 2" not in shown


def test_with_seats_the_box_plays_the_players_keep_their_buzzers_and_the_box_the_seats_it_was_given() -> None:
    from controller.games.cheers.header import header_from_answers

    h = header_from_answers({"players": 3, "masquerade": False, "bots": 2}, seed=11, settings={})
    table = ScriptedTable(h)
    assert table.flow.bots == frozenset({2, 3}), "the last two seats, as the host chose"
    assert dict(table.flow.setup.seat_of_station) == {1: 1, 2: 2, 3: 3}
    seating = plain(repr(table.flow.scene()))
    assert "stay here" in seating and "whoever is at" not in seating
    for seed in range(6):  # under Masquerade too: the teams drawn in secret, the seats kept
        hidden = header_from_answers({"players": 6, "masquerade": True, "bots": 5}, seed=seed, settings={})
        table = ScriptedTable(hidden)
        assert table.flow.bots == frozenset({2, 3, 4, 5, 6}), "the box plays the seats it was given"
        assert dict(table.flow.setup.seat_of_station) == {s: s for s in range(1, 7)}
        assert table.flow.setup.masquerade
        assert table.flow.state.view(None).teams is None, "nobody is shown the teams"
    drawn = {tuple(sorted(header_from_answers({"players": 4, "masquerade": True, "bots": 1}, seed=seed,
                                              settings={})["teams"].items())) for seed in range(12)}
    assert len(drawn) > 1, "the secret teams are drawn, not the split's seat order"


def test_the_host_picks_who_had_a_drink_most_recently_and_they_play_first_from_their_new_seat() -> None:
    from controller.games.cheers.header import RANDOM, header_from_answers

    question = {q.key: q for q in CheersFlow.setup_questions({})}["first"]
    assert [v for _, v in question.options({"players": 4, "bots": 1})] == [RANDOM, 1, 2, 3]
    for seed in range(5):
        h = header_from_answers({"players": 4, "masquerade": False, "first": 3}, seed=seed, settings={})
        assert h["first_station"] == 3 and "first" not in h
        table = ScriptedTable(h)
        seat = table.flow.setup.seat_of_station[3]
        assert table.flow.setup.first == seat == table.flow.state.current_player
    drawn = header_from_answers({"players": 4, "masquerade": False, "first": RANDOM}, seed=1, settings={})
    assert "first_station" not in drawn and "first" not in drawn


@pytest.mark.parametrize("bad,words", [
    ({"first": 1, "first_station": 2}, "not both"),
    ({"first_station": 9}, "buzzer from 1 to 4"),
    ({"first_station": "2"}, "buzzer from 1 to 4"),
])
def test_a_bad_first_station_is_a_header_error_that_names_it(bad, words) -> None:
    h = {k: v for k, v in header(**bad).items() if k != "first" or "first" in bad}
    with pytest.raises(HeaderError, match=words):
        ScriptedTable(h)


def test_the_fixed_deal_may_sit_in_the_options_as_the_rules_page_says() -> None:
    h = {k: v for k, v in DEMO_HEADER.items() if k not in ("teams", "goals", "deck", "first")}
    moved = {**h, "options": {**h.get("options", {}), **{k: DEMO_HEADER[k] for k in
                                                         ("teams", "goals", "deck", "first")
                                                         if k in DEMO_HEADER}}}
    assert ScriptedTable(moved).flow.setup == ScriptedTable(dict(DEMO_HEADER)).flow.setup


@pytest.mark.parametrize("usual,offered", [(2, 3), (4, 4), (9, 6), (12, 6)])
def test_the_usual_count_from_the_settings_is_offered_as_the_nearest_count_cheers_allows(usual, offered) -> None:
    questions = {q.key: q for q in CheersFlow.setup_questions({"players": usual})}
    assert questions["players"].default == offered
