"""The Raise Your Goblets flow: do inputs, private menus behind buzzers, scenes, replays."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from controller.clock import ManualClock
from controller.flow import FlowContext, HeaderError, Input
from controller.games import flow_for
from controller.games.goblets.flow import GobletsFlow
from controller.replay import load, run
from hardware.display.widgets import Banner, Card, Glyph, Scene, Text

HEADER: dict[str, Any] = {"game": "goblets", "seed": 4, "players": 4, "host": 1,
                          "goblets": ["wine", "poison", "poison", "antidote"],
                          "targets": {"1": "McToadery", "2": "Aconitiers", "3": "Wespendorf",
                                      "4": "De Miceti"},
                          "options": {"variants": [], "characters": False}}


class Table:
    """A flow on a manual clock with every event, LED and sound recorded."""

    def __init__(self, header: dict[str, Any] | None = None, **ctx: Any) -> None:
        self.events: list[dict[str, Any]] = []
        self.clock = ManualClock()
        self.ctx = FlowContext(clock=self.clock, rng=random.Random((header or HEADER)["seed"]),
                               sink=self.events.append, **ctx)
        self.flow = GobletsFlow(self.ctx, dict(header or HEADER))
        self.flow.start()
        self.t = 0.0

    def feed(self, **kw: Any) -> None:
        self.t += 0.25
        self.clock.advance_to(self.t)
        self.flow.handle(Input(t=self.t, **kw))

    def do(self, **action: Any) -> None:
        self.feed(kind="do", action=action)

    def named(self, event: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k not in ("t", "event")}
                for e in self.events if e["event"] == event]


def glyphs(scene: Scene) -> list[Glyph]:
    found: list[Glyph] = []

    def walk(w: Any) -> None:
        if isinstance(w, Card):
            found.extend(w.glyphs)
        for cell in getattr(w, "cells", ()):
            walk(cell)

    for w in scene.widgets:
        walk(w)
    return found


def texts(scene: Scene) -> str:
    out = [scene.title, scene.footer]

    def walk(w: Any) -> None:
        if isinstance(w, Text):
            out.append(w.text)
        elif isinstance(w, Banner):
            out.extend([w.text, w.subtitle])
        elif isinstance(w, Card):
            out.extend([w.title, w.caption] + [g.label + g.name for g in w.glyphs])
        for cell in getattr(w, "cells", ()):
            walk(cell)
        out.extend(getattr(w, "items", ()))

    for w in scene.widgets:
        walk(w)
    return " ".join(out)


def test_the_flow_is_registered_as_goblets() -> None:
    assert flow_for("goblets") is GobletsFlow


def test_do_inputs_play_engine_actions_and_pour_is_public_without_the_token() -> None:
    table = Table()
    table.do(type="pour", seat=2, token="poison", goblet=3)
    assert table.named("poured") == [{"seat": 2, "goblet": 3, "count": 1}]
    assert table.named("turn")[-1] == {"seat": 2, "actions_left": 1, "step": "turn",
                                       "phase": "turns"}


def test_a_bad_do_emits_illegal_with_the_reason_and_changes_nothing() -> None:
    table = Table()
    before = json.dumps(table.flow.engine.view(2), sort_keys=True)
    table.do(type="toast", seat=2)
    table.do(type="pour", seat=2, token="beer", goblet=1)
    table.do(type="pour", seat=3, token="wine", goblet=1)
    illegal = table.named("illegal")
    assert [e["error"] for e in illegal] == ["ToastWithWineLeft", "MalformedAction",
                                            "NotYourTurn"]
    assert "3 Wine" in illegal[0]["reason"]
    assert json.dumps(table.flow.engine.view(2), sort_keys=True) == before
    assert table.ctx.sound.played.count("error") == 3  # type: ignore[attr-defined]


def test_the_buzzer_and_menus_produce_the_same_action_as_do() -> None:
    table = Table()
    assert table.flow.scene().private_for is None
    table.feed(kind="press", station=2)
    scene = table.flow.scene()
    assert scene.private_for == 2
    assert "Wine ×3" in texts(scene)
    for nav in ("ok", "ok", "ok"):  # Pour > Wine > Into goblet 1
        table.feed(kind="nav", nav=nav)
    assert table.named("poured") == [{"seat": 2, "goblet": 1, "count": 1}]
    assert table.flow.scene().private_for == 2  # one action left: the view stays open
    table.feed(kind="release", station=2)
    assert table.flow.scene().private_for is None


def test_back_climbs_the_menus_and_closes_the_view_at_the_top() -> None:
    table = Table()
    table.feed(kind="press", station=2)
    table.feed(kind="nav", nav="ok")
    table.feed(kind="nav", nav="back")
    table.feed(kind="nav", nav="back")
    assert table.flow.scene().private_for is None
    assert table.named("poured") == []


def test_only_the_owner_opens_the_deciding_view() -> None:
    table = Table()
    table.feed(kind="press", station=3)  # not seat 3's turn: a look at its own screen only
    scene = table.flow.scene()
    assert scene.private_for == 3 and "Pour" not in texts(scene)
    table.feed(kind="release", station=3)
    table.feed(kind="press", station=2)
    assert table.flow.scene().private_for == 2


def test_seats_beyond_the_eighth_confirm_with_ok() -> None:
    header = {"game": "goblets", "seed": 2, "players": 10, "host": 8,
              "options": {"characters": False}}
    table = Table(header, stations=tuple(range(1, 9)))
    turn = table.named("turn")[-1]
    assert turn["seat"] == 9  # the Winetaster of the pair (9, 10)
    table.feed(kind="nav", nav="ok")
    assert table.flow.scene().private_for == 9


def test_the_public_table_never_shows_a_token_and_the_reveal_plays_the_drink_sound() -> None:
    header = dict(HEADER, bots=[1, 2, 3, 4], seed=9)
    table = Table(header)
    scenes_seen = 0
    while not table.flow.finished:
        due = table.clock.next_due()
        assert due is not None
        table.clock.advance_to(due)
        scene = table.flow.scene()
        if scene.private_for is None and "Toast of course" not in scene.title \
                and "game over" not in scene.title:
            assert not [g for g in glyphs(scene) if g.kind == "token"]
            scenes_seen += 1
    assert scenes_seen > 10
    assert table.ctx.sound.played.count("drink") >= 3 * 4  # type: ignore[attr-defined]
    over = table.named("game_over")[0]
    assert over["winners"] and set(over["vp"]) == {1, 2, 3, 4}
    assert "game over" in table.flow.scene().title


def test_scored_events_keep_vp_private_until_game_over() -> None:
    header = dict(HEADER, bots=[1, 2, 3, 4])
    table = Table(header)
    table.clock.run_all()
    assert table.flow.finished
    for e in table.named("scored"):
        assert set(e) == {"seat"}
    assert table.named("game_over")[0]["vp"]


def test_header_errors_are_header_errors_naming_the_field() -> None:
    with pytest.raises(HeaderError, match="players"):
        Table(dict(HEADER, players=1))
    with pytest.raises(HeaderError, match="bots"):
        Table(dict(HEADER, bots=[7]))
    # a misspelt field or option would be another game, not an error: it is refused by name
    with pytest.raises(HeaderError, match="unknown header field 'bot'"):
        Table(dict(HEADER, bot=[4]))
    with pytest.raises(HeaderError, match="unknown option 'variant'"):
        Table(dict(HEADER, options={"variant": ["legacy"]}))


@pytest.mark.parametrize("bots", [[7], "3", [True], [0]])
def test_a_bad_list_of_the_box_s_seats_is_named_as_cheers_names_it(bots) -> None:
    with pytest.raises(HeaderError, match="goblets: 'bots' must list seats 1-"):
        Table(dict(HEADER, bots=bots))


def test_replay_of_a_scripted_file_with_the_box_runner() -> None:
    lines = [json.dumps(HEADER)] + [json.dumps(x) for x in (
        {"t": 1, "do": {"type": "pour", "seat": 2, "token": "wine", "goblet": 2}},
        {"t": 2, "do": {"type": "rotate", "seat": 2, "direction": "widdershins"}},
        {"t": 3, "press": 3}, {"t": 3.1, "nav": "next"}, {"t": 3.2, "nav": "ok"},
        {"t": 3.3, "nav": "ok"}, {"t": 3.4, "release": 3},
    )]
    header, inputs = load(lines)
    out: list[dict[str, Any]] = []
    run(header, inputs, out.append)
    names = [e["event"] for e in out]
    assert "rotated" in names and "peeked" in names
    assert [e for e in out if e["event"] == "peeked"] == [{"t": 3.3, "event": "peeked",
                                                           "seat": 3}]
    again: list[dict[str, Any]] = []
    run(*load(lines), again.append)
    assert again == out


def test_a_peek_taken_as_the_last_action_stays_on_its_owners_screen_until_let_go() -> None:
    table = Table()
    table.feed(kind="press", station=2)  # seat 2 decides, its buzzer held
    table.do(type="pour", seat=2, token="wine", goblet=1)
    table.do(type="peek", seat=2)  # its last action: a look into its own goblet
    assert table.named("peeked") and table.flow.engine.current_player != 2
    scene = table.flow.scene()
    assert scene.private_for == 2 and "What you saw" in texts(scene), "the peek is shown, not closed at once"
    assert "You saw: goblet 2" in texts(scene) or "Your goblet" in texts(scene)
    table.feed(kind="release", station=2)
    after = table.flow.scene()
    nxt = table.flow.engine.current_player
    assert after.private_for is None and f"\u27e6{nxt}\u27e7: hold your buzzer to play" in texts(after)


def test_after_the_toast_the_reveal_says_who_plays_the_next_course_and_ok_puts_it_away() -> None:
    from controller.games.goblets.demo import demo_scenes

    scenes = dict(demo_scenes())
    reveal = texts(scenes["toast-reveal"])
    assert "Course 2 begins" in reveal and ": hold your buzzer to play" in reveal


def test_the_table_says_the_toast_is_on_until_its_final_actions_are_done() -> None:
    from models.goblets.actions import Pour, Toast, to_dict

    table = Table()
    while table.flow.engine.state.phase != "toast":
        legal = table.flow.engine.legal_actions()
        pick = next((a for a in legal if isinstance(a, Toast)), None) \
            or next(a for a in legal if isinstance(a, Pour) and len(a.tokens) == 1)
        table.do(**to_dict(pick))
    caller = table.named("toast")[-1]["caller"]
    scene = table.flow.scene()
    shown = texts(scene)
    assert scene.title.endswith("course 1 of 3 · the Toast")
    nxt = table.flow.engine.current_player
    assert f"The Toast! \u27e6{nxt}\u27e7: hold your buzzer to play" in shown, shown
    assert f"\u27e6{caller}\u27e7 called the Toast" in shown


def test_a_busy_goblet_names_each_pourer_once_with_a_count() -> None:
    from controller.games.goblets.scenes import goblet_cards, pourers
    from hardware.display.render import Renderer
    from hardware.display.widgets import chip

    assert pourers([2, 2, 3, 1, 2]) == f"{chip(2)}\u00a0\u00d73 {chip(3)} {chip(1)}"
    from models.goblets.actions import Pour, to_dict

    table = Table()
    for _ in range(12):  # everyone pours into goblet 1
        legal = table.flow.engine.legal_actions()
        table.do(**to_dict(next(a for a in legal if isinstance(a, Pour) and a.goblet == 1 and len(a.tokens) == 1)))
    pub = table.flow.engine.view(None)
    assert len(pub["goblets"][0]["poured_by"]) >= 8
    r = Renderer((1280, 800), "headless")
    r.draw(Scene("", (goblet_cards(pub),)))
    [busy] = [d for d in r.drawn if d.text.startswith("by ")]
    assert busy.ink[3] <= 2 * r.font(busy.px).get_linesize() and not busy.clipped, \
        "twelve pours by four seats take two lines at most under the goblet"
    lines = r.wrap(busy.text, r.font(busy.px), busy.box[2] - 8)
    assert not any(line.startswith("\u00d7") for line in lines), "a count stays with its chip"


def test_the_toast_s_reveal_stays_for_the_table_to_read_when_the_box_plays_first() -> None:
    from controller.games.goblets.flow import BOT_DELAY_S, REVEAL_READ_S

    table = Table(dict(HEADER, bots=[1, 2, 3, 4], seed=9))
    while not table.named("drank"):
        due = table.clock.next_due()
        assert due is not None
        table.clock.advance_to(due)
    shown_at = table.clock.now()
    assert "Toast of course 1" in table.flow.scene().title
    table.clock.advance_to(shown_at + REVEAL_READ_S - 0.1)
    scene = table.flow.scene()
    assert "Toast of course 1" in scene.title, "not swept away by the box's first move"
    assert "Course 2 begins" in texts(scene) and "the box is thinking" in texts(scene)
    table.clock.advance_to(shown_at + REVEAL_READ_S + BOT_DELAY_S)
    assert "Toast of course" not in table.flow.scene().title, "then the box plays on"


def test_the_last_toast_s_reveal_says_the_tie_break_comes_next_not_a_new_course() -> None:
    table = Table(dict(HEADER, bots=[1, 2, 3, 4], seed=4))  # this deal ends in a tie-break
    shown = []
    while not table.flow.finished:
        due = table.clock.next_due()
        assert due is not None
        table.clock.advance_to(due)
        if table.flow.engine.state.phase == "tiebreak":
            shown.append(texts(table.flow.scene()))
    assert shown and "Toast of course 3" in shown[0]
    assert "tie-break goblet" in shown[0] and "Course 3 begins" not in shown[0]


def test_a_spy_is_announced_with_whose_screen_it_looked_at() -> None:
    for seed in range(5, 80):  # a deal where someone holds the Spy
        table = Table(dict(HEADER, seed=seed, options={"variants": [], "characters": True}))
        spies = [a for a in table.flow.engine.legal_actions() if type(a).__name__ == "Spy"]
        if spies:
            break
    else:
        pytest.skip("no deal gave the first player the Spy")
    from models.goblets.actions import to_dict

    table.do(**to_dict(spies[0]))
    shown = texts(table.flow.scene())
    target = table.named("spied")[-1]["target"]
    assert f"spied on \u27e6{target}\u27e7's screen" in shown


def test_winetasters_with_legacy_a_poisoned_noble_draws_a_card_only_its_owner_sees() -> None:
    """A face-down new character is announced without its name, and the game plays on."""
    header = {"game": "goblets", "seed": 5, "players": 7, "host": 1,
              "options": {"variants": ["legacy"], "characters": True},
              "bots": [1, 2, 3, 4, 5, 6, 7]}
    events: list[dict[str, Any]] = []
    session = run(header, [], events.append)
    drawn = [e for e in events if e["event"] == "new_character"]
    assert drawn and all("character" not in e for e in drawn)
    assert session.finished and events[-1]["event"] == "game_over"


def everyone_pours_into_goblet_1(table: Table, pours: int) -> None:
    from models.goblets.actions import Pour, to_dict

    for _ in range(pours):
        legal = table.flow.engine.legal_actions()
        pick = next((a for a in legal if isinstance(a, Pour) and a.goblet == 1 and len(a.tokens) == 1), None) \
            or next(a for a in legal if type(a).__name__ == "Pass")
        table.do(**to_dict(pick))


@pytest.mark.parametrize("players", [6, 12])
def test_a_busy_goblet_on_a_narrow_card_keeps_its_picture_and_who_it_stands_before(players) -> None:
    """Six or more goblets in a row are narrow: a goblet everyone poured into names its pourers
    in a few chips, and still shows its goblet, its coaster and who it stands before."""
    from controller.games.goblets.scenes import NARROW_POURERS, who_sits
    from hardware.display.render import Renderer

    header = {"game": "goblets", "seed": 4, "players": players, "host": 1,
              "options": {"variants": [], "characters": False}}
    table = Table(header)
    everyone_pours_into_goblet_1(table, 2 * players)
    pub = table.flow.engine.view(None)
    assert len(set(pub["goblets"][0]["poured_by"])) >= min(players, 6)
    r = Renderer((1280, 720), "headless")
    r.draw(table.flow.scene())
    assert not r.problems(), r.problems()
    sits = who_sits(pub, 1)
    [label] = [d for d in r.drawn if d.text == sits]
    line = r.font(r.min_px).get_linesize()
    assert label.box[3] >= line and label.px >= r.min_px, "who goblet 1 stands before is drawn whole"
    [busy] = [d for d in r.drawn if d.text.startswith("by ")]
    assert busy.ink[3] <= 3 * line, "the pourers take three lines at most"
    assert busy.ink[1] >= label.box[1] + label.box[3] - 2, "under the goblet's picture, not over it"
    if players > NARROW_POURERS:
        assert busy.text.endswith(f"+{len(set(pub['goblets'][0]['poured_by'])) - NARROW_POURERS + 1}")


def test_the_targets_and_characters_lines_never_part_a_chip_from_what_it_says() -> None:
    """Six seats' targets and characters wrap onto a second line between entries, never
    between a seat's chip and "hunts ..." or its character's name."""
    from hardware.display.render import Renderer
    from hardware.display.widgets import CHIP_OPEN

    header = {"game": "goblets", "seed": 4, "players": 6, "host": 1,
              "options": {"variants": [], "characters": True}}
    table = Table(header)
    r = Renderer((1280, 720), "headless")
    r.draw(table.flow.scene())
    [lines] = [d for d in r.drawn if "Targets:" in d.text]
    text = next(w.text for w in table.flow.scene().widgets if isinstance(w, Text) and "Targets:" in w.text)
    wrapped = r.wrap(text, r.font(lines.px), lines.box[2] - 8)
    assert len(wrapped) > 2, "the lines are long enough to wrap here"
    for line in wrapped:
        assert line.startswith(("Targets:", "Characters:", CHIP_OPEN)), f"an entry cut in two: {wrapped}"
        assert not line.rstrip().endswith("\u00b7 " + CHIP_OPEN), wrapped


def test_the_end_screen_says_whom_the_game_s_last_toast_poisoned() -> None:
    """The game ends with the third Toast: the end screen, which takes the reveal's place, says
    who that Toast poisoned (or that everyone survived)."""
    header = dict(HEADER, bots=[1, 2, 3, 4], seed=10)  # a game won without a tie-break
    table = Table(header)
    table.clock.run_all()
    assert table.flow.finished and not table.named("tie_break")
    last = [e for e in table.named("drank")][-4:]
    banner = next(w for w in table.flow.scene().widgets if isinstance(w, Banner))
    poisoned = [f"\u27e6{d['seat']}\u27e7" for d in last if not d["survived"]]
    assert banner.subtitle.startswith("the Toast of course 3: ")
    assert banner.subtitle.endswith(("poisoned " + " ".join(poisoned)) if poisoned else "everyone survived")


def test_in_russian_goblette_the_end_screen_says_how_the_last_goblet_drunk_went() -> None:
    """Russian Goblette ends on a single drink: the end screen names it, not a whole Toast."""
    from hardware.display.render import Renderer

    table = Table({"game": "goblets", "seed": 1, "players": 3, "host": 1,
                   "options": {"characters": False}, "bots": [1, 2, 3]})
    table.clock.run_all()
    assert table.flow.finished
    last = table.named("drank")[-1]
    scene = table.flow.scene()
    banner = next(w for w in scene.widgets if isinstance(w, Banner))
    assert banner.subtitle == (f"the last drink: \u27e6{last['seat']}\u27e7 drank goblet {last['goblet']}, "
                               + ("and survived" if last["survived"] else "poisoned"))
    for size in ((1280, 720), (960, 664)):
        r = Renderer(size, "headless")
        r.draw(scene)
        assert not r.problems(), r.problems()


def test_a_russian_goblette_header_says_it_plays_without_characters() -> None:
    from controller.games.goblets.header import header_from_answers

    for players in (2, 3):
        assert header_from_answers({"players": players}, seed=1, settings={})["options"]["characters"] is False
    assert header_from_answers({"players": 5}, seed=1, settings={})["options"]["characters"] is True
