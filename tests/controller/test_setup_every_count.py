"""Every game's set-up menus at every player count its rules allow, driven with the pad as a
host would, and the first screen of the game they start: each drawn headless on real pygame
at 720p and at the smallest window (nothing cut, off screen or too small), and the game
started is the one the menus showed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller import party
from controller.games import built_in
from controller.journal import Journal
from controller.shell import Shell
from hardware.buttons import ButtonEvent
from hardware.display.render import Renderer
from hardware.display.widgets import Menu

SIZES = ((1280, 720), (960, 664))
EVENT_CARDS = {"R1", "R2", "S1", "S2", "M1", "M2"}


@pytest.fixture(scope="module")
def renderers() -> list[Renderer]:
    return [Renderer(size, "headless") for size in SIZES]


def nav(shell: Shell, *buttons: str) -> None:
    for b in buttons:
        shell.button(ButtonEvent(0.0, True, nav=b))
        shell.button(ButtonEvent(0.05, False, nav=b))


def menu_of(shell: Shell) -> Menu:
    return next(w for w in shell.scene().widgets if isinstance(w, Menu))


def looked_at(shell: Shell, renderers: list[Renderer], name: str) -> list[str]:
    """What is wrong with the screen the shell shows now, at every size."""
    problems = []
    for r in renderers:
        r.draw(shell.scene())
        problems += [f"{name} at {r.size}: {p}" for p in r.problems()]
    return problems


def set_up(tmp_path: Any, game: str, players: int, pick: str, renderers: list[Renderer],
           seed: int = 1) -> tuple[Shell, dict[str, Any], list[str]]:
    """Set ``game`` up for ``players`` with the pad, every option asked: ``pick`` "last" takes
    each question's last choice, "usual" leaves the cursor where the menu puts it. Returns the
    shell (in the game), the answers as the menus showed them, and what looked wrong."""
    shell = Shell(Journal(tmp_path / f"{game}-{players}-{pick}.sqlite3"), clock=lambda: 0.0,
                  rng=random.Random(seed))
    shell.begin_setup(game)
    shown: dict[str, Any] = {}
    problems: list[str] = []
    while shell.mode == "setup":
        q = shell.setup_queue[0]
        values = [v for _, v in q.options(shell.setup_answers)]
        menu = menu_of(shell)
        assert len(menu.items) == len(values), q.key
        if q.key == "players":
            target = values.index(players)
        elif q.key == party.READY:
            target = values.index(False)  # choose the options first: every question is asked
        else:
            target = len(values) - 1 if pick == "last" else menu.cursor
        while menu_of(shell).cursor < target:
            nav(shell, "next")
        while menu_of(shell).cursor > target:
            nav(shell, "prev")
        assert menu_of(shell).cursor == target, f"{q.key}: choice {target} cannot be reached with the pad"
        problems += looked_at(shell, renderers, f"{game} {players} {q.key}")
        shown[q.key] = values[target]
        nav(shell, "ok")
    assert shell.mode == "game" and shell.session is not None, shell.scene()
    problems += looked_at(shell, renderers, f"{game} {players} first screen")
    return shell, shown, problems


def counts(game: str) -> range:
    flow = next(g.flow for g in built_in() if g.game == game)
    return range(flow.min_players, flow.max_players + 1)


@pytest.mark.parametrize("usual", [2, 4, 12])
def test_the_player_count_menu_offers_exactly_the_counts_the_rules_allow(tmp_path, usual):
    for game in built_in():
        shell = Shell(Journal(tmp_path / f"{game.package}-{usual}.sqlite3"))
        shell.settings["players"] = usual
        shell.begin_setup(game.game)
        q = shell.setup_queue[0]
        assert q.key == "players"
        values = [v for _, v in q.options(shell.setup_answers)]
        assert values == list(counts(game.game)), game.title
        chosen = values[menu_of(shell).cursor]
        assert chosen in counts(game.game), f"{game.title}: the usual {usual} players offered as {chosen}"
        nav(shell, "prev")  # the list does not wrap round to a count the rules forbid
        assert values[menu_of(shell).cursor] in counts(game.game)


def check_tchin(shell: Shell, shown: dict[str, Any], players: int) -> None:
    flow: Any = shell.session.flow  # type: ignore[union-attr]
    table = flow.setup.table
    assert table.seats == tuple(range(1, players + 1))
    assert bool(EVENT_CARDS & set(table.deck)) == shown["events"]
    if shown["characters"] == "picked":
        assert dict(table.characters) == {s: shown[f"station_{s}"] for s in range(1, players + 1)}
    if players == 7 and shown.get("tourist") in ("TM", "TW"):
        tourists = {c for c in table.characters.values() if c in ("TM", "TW")}
        assert tourists == {shown["tourist"]}
    if shown["first"] != "random":
        assert table.first == shown["first"]
    assert (shell.scene().title == "Meet the drinkers") == shown["intro"]


def check_cheers(shell: Shell, shown: dict[str, Any], players: int) -> None:
    flow: Any = shell.session.flow  # type: ignore[union-attr]
    setup = flow.setup
    assert setup.players == players
    assert setup.split == shown.get("split", setup.split)
    assert setup.masquerade == shown["masquerade"]
    assert len(flow.bots) == shown["bots"]
    if shown["first"] != "random":
        assert setup.first == setup.seat_of_station[shown["first"]]
        assert setup.first not in flow.bots, "the first player is a player, not the box"


def check_goblets(shell: Shell, shown: dict[str, Any], players: int) -> None:
    flow: Any = shell.session.flow  # type: ignore[union-attr]
    opts = flow.engine.state.options
    assert opts.players == players
    banquet = players >= 4
    assert opts.with_characters == (banquet and shown.get("characters", True))
    assert opts.memory == bool(shown.get("memory"))
    assert opts.legacy == bool(shown.get("legacy"))
    assert sorted(flow.bots) == list(range(players - shown["bots"] + 1, players + 1))


CHECKS = {"tchin-tchin": check_tchin, "cheers": check_cheers, "goblets": check_goblets}


@pytest.mark.parametrize("game", sorted(CHECKS))
def test_every_count_is_set_up_readably_and_started_as_chosen(tmp_path, renderers, game):
    problems: list[str] = []
    for players in counts(game):
        for pick in ("usual", "last"):
            shell, shown, seen = set_up(tmp_path, game, players, pick, renderers, seed=players)
            problems += seen
            assert shell.session is not None and shell.session.header["players"] == players
            CHECKS[game](shell, shown, players)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", ["DE", "EN", "FR", "JP", "MX", "RU", "TM", "TW"])
def test_every_drinker_is_introduced_with_every_word_whole(tmp_path, renderers, code):
    """The introduction (the first screen of a game set up as usual) shows each character's
    card with its three names whole: the Brandenburg Gate, champagne."""
    shell = Shell(Journal(tmp_path / "j.sqlite3"), clock=lambda: 0.0, rng=random.Random(3))
    shell.begin_setup("tchin-tchin")
    nav(shell, "next", "next", "next", "next", "ok")  # 8 players
    nav(shell, "next", "ok")  # choose the options first
    nav(shell, "ok")  # no event cards
    nav(shell, "next", "ok")  # characters picked by the host
    q = shell.setup_queue[0]
    assert q.key == "station_1"
    codes = [v for _, v in q.options(shell.setup_answers)]
    nav(shell, *["next"] * codes.index(code), "ok")
    while shell.mode == "setup":
        nav(shell, "ok")  # the rest as the menus put them, the introduction first
    assert shell.scene().title == "Meet the drinkers"
    assert not looked_at(shell, renderers, code)


def test_the_largest_goblets_table_fits_the_smallest_window(tmp_path, renderers):
    """Twelve players: six goblets, each before a pair, 11 and 12 at the last one."""
    shell = Shell(Journal(tmp_path / "j.sqlite3"), clock=lambda: 0.0, rng=random.Random(5))
    shell.begin_setup("goblets")
    nav(shell, *["next"] * 10, "ok", "ok")  # 12 players, start now
    assert shell.session is not None and shell.session.header["players"] == 12
    assert not looked_at(shell, renderers, "12 players")
