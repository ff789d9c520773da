"""The live-box side of the Tchin Tchin flow: LEDs, sound cues, scenes, introduction, set-up menus."""

from __future__ import annotations

import random
from typing import Any

from tchin_flow_helpers import header

from controller.clock import ManualClock
from controller.flow import FlowContext, Input
from controller.games import flow_for
from controller.menu import menu
from hardware.display.widgets import Banner, Bars, Card, Glyph, Grid, Row, Timer, chip, plain


class Box:
    """A flow on a manual clock with recording LEDs and sound."""

    def __init__(self, **over: Any) -> None:
        self.clock = ManualClock()
        self.events: list[dict[str, Any]] = []
        self.ctx = FlowContext(clock=self.clock, rng=random.Random(3), sink=self.events.append)
        self.flow = flow_for("tchin-tchin")(self.ctx, header(**over))
        self.flow.start()

    def feed(self, t: float, kind: str, station: int | None = None, word: str | None = None,
             end: float | None = None, nav: str | None = None) -> None:
        self.clock.advance_to(t)
        self.flow.handle(Input(t, kind, station=station, word=word, end=end, nav=nav))

    def at(self, t: float) -> Box:
        self.clock.advance_to(t)
        return self

    @property
    def leds(self) -> dict[int, str]:
        return dict(self.ctx.leds.states)  # type: ignore[attr-defined]

    @property
    def cues(self) -> list[str]:
        return list(self.ctx.sound.played)  # type: ignore[attr-defined]


def glyphs(widget: Any) -> list[Glyph]:
    if isinstance(widget, Card):
        return list(widget.glyphs)
    if isinstance(widget, (Row, Grid)):
        return [g for c in widget.cells for g in glyphs(c)]
    return []


def test_leds_next_revealer_blinks_between_cards():
    box = Box()
    assert box.leds == {1: "blink", 2: "off", 3: "off", 4: "off"}


def test_leds_all_invited_lit_while_a_card_is_open():
    box = Box()
    box.feed(0.5, "press", 1)
    box.at(0.6)
    assert box.leds == {1: "off", 2: "off", 3: "on", 4: "on"}


def test_leds_only_the_claimants_during_a_claim():
    box = Box()
    box.feed(0.5, "press", 1)
    box.feed(1.0, "press", 3)
    box.at(1.1)
    assert box.leds == {1: "off", 2: "off", 3: "on", 4: "off"}


def test_leds_veto_voters_blink_during_the_veto_window_and_winner_blinks_after():
    box = Box()
    box.feed(0.5, "press", 1)
    box.feed(1.0, "press", 3)
    box.feed(1.1, "say", word="na zdorovie", end=1.4)
    box.at(1.5)
    assert box.leds == {1: "blink", 2: "blink", 3: "on", 4: "off"}
    box.at(5.0)
    assert box.leds == {1: "off", 2: "off", 3: "blink", 4: "off"}


def test_sound_cues_follow_the_decisions():
    box = Box()
    box.feed(0.5, "press", 1)
    box.feed(0.8, "press", 2)  # penalty
    box.feed(1.0, "press", 3)
    box.feed(1.1, "say", word="kanpai", end=1.4)  # mistake
    box.feed(2.0, "press", 4)
    box.feed(2.1, "say", word="na zdorovie", end=2.4)
    box.feed(3.0, "press", 1)  # veto
    box.at(3.1)
    # a vetoed claim is one event: its veto is heard, not a second mistake after it
    assert box.cues == ["reveal", "penalty", "claim", "mistake", "claim", "veto"]


def test_every_decision_is_announced_with_its_seat_and_a_flash_of_its_led():
    from hardware.display.widgets import plain

    box = Box()
    box.feed(0.5, "press", 1)
    box.feed(0.8, "press", 2)  # not invited: a penalty, with no card to give back
    banner = box.at(0.9).flow.scene().widgets[0]
    assert "Penalty" in plain(banner.text) and banner.seat == 2
    box.feed(1.0, "press", 3)
    box.feed(1.1, "say", word="kanpai", end=1.4)  # the wrong toast
    banner = box.at(1.5).flow.scene().widgets[0]
    assert "the wrong toast" in plain(banner.text) and banner.seat == 3
    assert box.ctx.leds.flashes == [2, 3, 3]  # penalty; claim and mistake


def test_scene_reveal_shows_the_card_art_and_a_card_timer():
    box = Box()
    box.feed(0.5, "press", 1)
    scene = box.at(2.5).flow.scene()
    row = next(w for w in scene.widgets if isinstance(w, Row))
    assert glyphs(row)[:3] == [Glyph("flag", "RU", "Russian"), Glyph("drink", "tequila", "tequila"),
                               Glyph("landmark", "big_ben", "Big Ben")]
    timer = next(w for w in scene.widgets if isinstance(w, Timer))
    assert (timer.remaining, timer.total) == (18.0, 20.0)


def test_scene_open_card_never_shows_the_answer():
    box = Box()
    box.feed(0.5, "press", 1)
    assert "Zdorovie" not in repr(box.at(0.6).flow.scene())


def test_scene_claim_counts_down_the_listening_window():
    box = Box()
    box.feed(0.5, "press", 1)
    box.feed(1.0, "press", 3)
    scene = box.at(2.0).flow.scene()
    banner = next(w for w in scene.widgets if isinstance(w, Banner))
    timer = next(w for w in scene.widgets if isinstance(w, Timer))
    assert "3 Mexican claims" in plain(banner.text) and banner.seat == 3
    assert timer.remaining == 1.5 and timer.total == 2.5


def test_scene_veto_window_shows_votes_and_countdown():
    box = Box()
    box.feed(0.5, "press", 1)
    box.feed(1.0, "press", 3)
    box.feed(1.1, "say", word="na zdorovie", end=1.5)
    scene = box.at(2.0).flow.scene()
    banner = next(w for w in scene.widgets if isinstance(w, Banner))
    assert plain(banner.text) == "3 Mexican: veto?  0 of 1 vote" and "Na Zdorovie!" in banner.subtitle
    assert next(w for w in scene.widgets if isinstance(w, Timer)).remaining == 2.5


def test_scene_between_cards_shows_the_last_win_the_pot_and_who_reveals():
    box = Box(deck=["D24", "D05", "D11"])
    box.feed(0.5, "press", 1)
    box.feed(1.0, "press", 3)
    box.feed(1.1, "say", word="na zdorovie", end=1.5)
    scene = box.at(5.0).flow.scene()
    assert isinstance(scene.widgets[0], Banner) and "3 Mexican wins D24" in plain(scene.widgets[0].text)
    assert "3 Mexican: press your buzzer" in plain(repr(scene))


def test_scene_end_screen_shows_scores_winners_and_reaction_times():
    box = Box(deck=["D24"])
    box.feed(0.5, "press", 1)
    box.feed(1.0, "press", 3)
    box.feed(1.1, "say", word="na zdorovie", end=1.5)
    box.clock.run_all()
    assert box.flow.finished
    scene = box.flow.scene()
    assert scene.title == "Tchin Tchin · game over"
    text = plain(repr(scene))
    assert "Winner: 3 Mexican" in text and "1. 3 Mexican: 1 card" in text
    bars = next(w for w in scene.widgets[1].cells if isinstance(w, Bars))
    assert bars.rows[0] == (chip(3), 500.0, "0.5 s (fastest win 0.5 s)"), "the winner's reaction, charted first"


def test_intro_shows_each_player_and_what_was_heard_then_the_game_begins():
    box = Box(intro=True)
    assert box.events[0] == {"t": 0.0, "event": "intro", "station": 1, "character": "FR"}
    box.feed(0.5, "say", word="Tchin Tchin", end=0.9)
    assert box.events[-1] == {"t": 0.5, "event": "intro_heard", "station": 1, "word": "tchin tchin",
                              "right": True}
    assert "Heard: Tchin Tchin!" in repr(box.flow.scene())
    box.feed(1.0, "press", 1)  # the presenter moves on
    box.feed(1.5, "say", word="salud", end=1.8)
    assert box.events[-1]["right"] is False  # the Japanese says kanpai
    box.at(3.5)  # two seconds after the toast the next player is introduced
    assert box.events[-1] == {"t": 3.5, "event": "intro", "station": 3, "character": "MX"}
    box.feed(4.0, "nav", nav="ok")
    box.feed(4.5, "nav", nav="ok")
    assert [e["event"] for e in box.events][-2:] == ["intro_done", "dealt"]
    box.feed(5.0, "press", 1)
    box.at(5.01)
    assert box.events[-1]["event"] == "reveal" and box.events[-1]["t"] == 5.0


def test_setup_menus_make_a_header_the_flow_starts_from():
    from controller.games.tchin_tchin.setup import header_from_menus, setup_questions

    qs = {q.key: q for q in setup_questions({"players": 7, "events": True})}
    menus = {
        "players": menu("Players", qs["players"].options({})).moved(3),  # 4, 5, 6, [7]
        "events": menu("Events", qs["events"].options({})).moved(1),
        "tourist": menu("Tourist", qs["tourist"].options({"players": 7})).moved(2),  # the woman
        "first": menu("First", qs["first"].options({"players": 7})).moved(3),  # buzzer 3
    }
    h = header_from_menus(menus, seed=11)
    assert h["players"] == 7 and h["options"]["events"] is True and h["first"] == 3
    assert sorted(h["characters"].values()) == sorted(["DE", "EN", "FR", "JP", "MX", "RU", "TW"])
    events: list[dict[str, Any]] = []
    ctx = FlowContext(clock=ManualClock(), rng=random.Random(11), sink=events.append)
    flow = flow_for("tchin-tchin")(ctx, h)
    flow.start()
    assert events[0]["event"] == "dealt" and events[0]["cards"] == 36 and events[0]["first"] == 3


def test_setup_picked_characters_offer_only_codes_not_yet_taken():
    from controller.games.tchin_tchin.setup import header_from_answers, setup_questions

    qs = {q.key: q for q in setup_questions({})}
    answers: dict[str, Any] = {"players": 4, "characters": "picked", "station_1": "JP"}
    assert [v for _, v in qs["station_2"].options(answers)] == ["FR", "MX", "RU"]
    assert qs["station_5"].when is not None and not qs["station_5"].when(answers)
    answers.update(station_2="FR", station_3="RU", station_4="MX")
    assert header_from_answers(answers, 1)["characters"] == {"1": "JP", "2": "FR", "3": "RU", "4": "MX"}


def test_seven_players_picked_with_the_tourist_left_to_chance_the_host_picks_one_tourist_too():
    from controller.games.tchin_tchin.setup import RANDOM, header_from_answers, setup_questions

    qs = {q.key: q for q in setup_questions({})}
    answers: dict[str, Any] = {"players": 7, "tourist": RANDOM, "characters": "picked"}
    for station, code in enumerate(["TW", "FR", "JP", "MX", "RU", "DE"], start=1):
        offered = [v for _, v in qs[f"station_{station}"].options(answers)]
        assert code in offered and ("TM" in offered) == (station == 1), (station, offered)
        answers[f"station_{station}"] = code
    assert [v for _, v in qs["station_7"].options(answers)] == ["EN"]
    answers["station_7"] = "EN"
    h = header_from_answers(answers, 1)
    assert sorted(h["characters"].values()) == sorted(["DE", "EN", "FR", "JP", "MX", "RU", "TW"])
    events: list[dict[str, Any]] = []
    flow = flow_for("tchin-tchin")(FlowContext(clock=ManualClock(), rng=random.Random(1),
                                               sink=events.append), h)
    flow.start()
    assert events[0]["event"] == "dealt"


def test_demo_scenes_show_a_reveal_claim_veto_duel_and_end(tmp_path):
    from controller.games.tchin_tchin.demo import demo_scenes
    from hardware.display.render import render_png

    shots = demo_scenes()
    assert [name for name, _ in shots] == ["reveal", "claim", "veto", "middleman", "end"]
    scenes = dict(shots)
    assert "claims" in repr(scenes["claim"]) and "veto?" in repr(scenes["veto"])
    assert "Duel: 4 Japanese vs 6 Russian" in plain(repr(scenes["middleman"]))
    assert scenes["end"].title == "Tchin Tchin · game over"
    for name, scene in shots:
        path = render_png(scene, tmp_path / f"{name}.png")
        assert path.stat().st_size > 10_000


def test_a_press_between_cards_by_someone_else_than_the_revealer_says_why_it_did_nothing():
    box = Box()
    box.feed(0.5, "press", 2)  # buzzer 1 reveals the first card
    box.at(0.6)
    assert box.events[-1]["event"] == "ignored"
    scene = box.flow.scene()
    assert isinstance(scene.widgets[0], Banner)
    assert "2 Japanese: wait for the next card" in plain(scene.widgets[0].text)
    assert "1 reveals it" in plain(scene.widgets[0].subtitle)
    box.feed(1.0, "press", 1)
    box.at(1.1)
    assert "wait for the next card" not in plain(repr(box.flow.scene())), "the reveal puts it away"


def test_the_pot_says_how_many_cards_go_with_the_next_card_in_words_that_agree():
    """A penalty puts a won card in the pot: the next card says it goes with it ("1 card goes",
    not "1 card go")."""
    box = Box(deck=["D24", "D05", "D11"])
    box.feed(0.5, "press", 1)
    box.feed(0.6, "release", 1)
    box.feed(1.0, "press", 3)  # D24 (Russian, tequila, Big Ben): 3, the Mexican, wins it
    box.feed(1.1, "say", word="na zdorovie", end=1.5)
    box.feed(1.6, "release", 3)
    box.feed(5.5, "press", 3)  # the winner reveals D05 (French, beer, Red Square): 1 and 4 invited
    box.feed(5.6, "release", 3)
    box.feed(6.0, "press", 3)  # 3 presses anyway: D24 goes to the pot
    box.feed(6.1, "release", 3)
    assert [e for e in box.events if e["event"] == "penalty"][-1]["to_pot"]
    box.at(30.0)  # D05 runs out unwon: its revealer reveals again
    box.feed(30.5, "press", 3)
    box.flow.settle()  # no other press shares its instant
    assert [e for e in box.events if e["event"] == "reveal"][-1]["card"] == "D11"
    banner = next(w for w in box.flow.scene().widgets if isinstance(w, Banner))
    assert plain(banner.text) == "Pot: 1 card goes with this one"


def test_an_invited_player_s_mark_stays_on_its_line_in_the_players_list():
    """The gold dot (invited), the diamond (claiming) and the cross (mistaken) follow the score
    on its line: a mark wrapped alone under a name says nothing about whose it is."""
    from controller.games.tchin_tchin.scenes import players_grid
    from hardware.display.render import Renderer
    from hardware.display.widgets import Scene

    view = {"characters": {1: "JP", 2: "MX", 3: "FR", 4: "RU"}, "scores": {1: 0, 2: 3, 3: 0, 4: 1},
            "card": {"invited": [1, 2, 4], "mistaken": [4], "claimant": 2}}
    r = Renderer((1280, 720), "headless")
    r.draw(Scene("Tchin Tchin", (Row((Card(title="D12"), players_grid(view))),)))
    rows = [d for d in r.drawn if d.text.startswith("\u27e6")]
    assert len(rows) == 4 and not r.problems()
    for d in rows:
        lines = r.wrap(d.text, r.font(d.px), d.box[2] - 8)
        assert not any(line.strip(" \u00a0") in ("\u25cf", "\u25c6", "\u2717") for line in lines), lines
