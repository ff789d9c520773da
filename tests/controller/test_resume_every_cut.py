"""A box stopped at any moment of a game (kill -9, a power cut) resumes exactly where it was.

Scripted games of all three games are played once uninterrupted on a real SQLite journal.
Then the journal is cut after each of its rows in turn (the game's row left ``playing``, as
a box killed before it journaled the game's end leaves it), the box restarts on the cut
journal, resumes, and the rest of the script is played into it. The resumed game must end
as the uninterrupted one did: the same events, byte for byte, the same hands and secrets
(every seat's view), the same outcome, the same journal (its export), closed as over.
Some cuts are made the way a killed box leaves its journal (the WAL not checkpointed,
the running mark set), some with a torn row after the cut; the box's own path is checked
too: a shell driven by buttons, the pad and phones, with box seats.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import replay
from controller.flow import Input
from controller.journal import Journal
from controller.session import GameSession, resume
from controller.shell import Shell
from hardware.buttons import ButtonEvent
from models.goblets import to_dict as goblets_to_dict

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
#: scripts with the awkward moments: Tchin Tchin's ties, vetoes, event cards and listening
#: windows; Cheers' cheers and limit discards; Goblets' tie-break and the Plotter
SCRIPTS = ["tchin/rules_ties_veto", "tchin/events",
           "cheers/actions_and_cheers", "cheers/limit_after_cheers",
           "goblets/memory_legacy", "goblets/characters_c"]


def script(name: str) -> tuple[dict[str, Any], list[Input]]:
    path = REPLAYS / f"{name}.jsonl"
    return replay.load(path.read_text(encoding="utf-8").splitlines(), path.name)


def engine(session: GameSession) -> Any:
    flow = session.flow
    return next(getattr(flow, a) for a in ("referee", "state", "engine") if hasattr(flow, a))


def table_state(session: GameSession) -> tuple[Any, ...]:
    """Everything any seat may know (its hand, its goal, its screen), and the outcome."""
    e = engine(session)
    views = []
    for seat in (None, *range(1, 13)):
        try:
            views.append(repr(e.view(seat)))
        except Exception as exc:  # a seat not at this table
            views.append(type(exc).__name__)
    return tuple(views), repr(e.outcome), session.finished


def cut(full: Path, rows: int, into: Path, torn: bool = False) -> Path:
    """The journal as a box stopped after its game's ``rows``-th input row leaves it."""
    into.mkdir()
    db = into / "journal.sqlite3"
    shutil.copy(full, db)
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM inputs WHERE seq > ?", (rows,))
        con.execute("UPDATE games SET status='playing', ended=NULL")
        if torn:
            con.execute("INSERT INTO inputs (game_id, seq, line) VALUES (1, ?, ?)", (rows + 1, '{"t": 9'))
    con.close()
    return db


def play_through(header: dict[str, Any], inputs: list[Input], db: Path) -> GameSession:
    journal = Journal(db)
    session = finish(GameSession(header, journal=journal), inputs)
    journal.close()
    return session


def finish(session: GameSession, rest: list[Input]) -> GameSession:
    """The rest of the script, then its timers, as the live box lets time run (which journals
    a game that ended on a timer as over)."""
    for inp in rest:
        session.feed(inp)
    session.run_out()
    session.advance(session.clock.now())
    return session


def status(db: Path) -> str:
    con = sqlite3.connect(db)
    try:
        return str(con.execute("SELECT status FROM games WHERE id=1").fetchone()[0])
    finally:
        con.close()


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_game_cut_after_any_row_resumes_and_ends_as_it_would_have(tmp_path: Path, name: str) -> None:
    header, inputs = script(name)
    full_db = tmp_path / "full.sqlite3"
    whole = play_through(header, inputs, full_db)
    expected_export = Journal(full_db).export(1)
    expected = table_state(whole)
    for k in range(len(inputs) + 1):
        torn = k % 3 == 1  # a power cut that tore the row after the cut
        db = cut(full_db, k, tmp_path / f"cut{k}", torn=torn)
        journal = Journal(db)
        session = resume(journal)
        assert session is not None, f"{name}: cut after row {k}: not offered for resume"
        assert session.events == whole.events[:len(session.events)], f"{name}: row {k}: resumed elsewhere"
        finish(session, inputs[k:])
        assert session.events == whole.events, f"{name}: cut after row {k}: the resumed game went otherwise"
        assert table_state(session) == expected, f"{name}: cut after row {k}: hands or secrets differ"
        assert journal.export(1) == expected_export, f"{name}: cut after row {k}: the journal differs"
        journal.close()
        assert status(db) == status(full_db) == "over", f"{name}: cut after row {k}: not journaled as over"


def kill_snapshots(header: dict[str, Any], inputs: list[Input], tmp: Path) -> Iterator[tuple[int, Path]]:
    """The journal's files as a box killed after each input leaves them: the box's own journal
    (its running mark set), its WAL never checkpointed since the game started."""
    live = tmp / "live"
    live.mkdir()
    journal = Journal(live / "journal.sqlite3", watch=True)
    session = GameSession(header, journal=journal)
    for k in range(len(inputs) + 1):
        if k:
            session.feed(inputs[k - 1])
        if session.finished:
            break
        snap = tmp / f"killed{k}"
        snap.mkdir()
        for suffix in ("", "-wal", "-shm"):
            part = live / f"journal.sqlite3{suffix}"
            if part.exists():
                shutil.copy(part, snap / part.name)
        yield k, snap / "journal.sqlite3"
    journal.close()


@pytest.mark.parametrize("name", ["tchin/rules_ties_veto", "cheers/actions_and_cheers", "goblets/russian_two"])
def test_a_box_killed_after_any_input_resumes_from_its_wal_twice_over(tmp_path: Path, name: str) -> None:
    header, inputs = script(name)
    whole = replay.run(header, inputs, lambda ev: None)
    for k, db in kill_snapshots(header, inputs, tmp_path):
        if k % 4:
            continue  # a WAL is checked in pure Python at each start: every fourth kill is enough
        journal = Journal(db, watch=True)
        assert not journal.notices, f"{name}: killed after input {k}: {journal.notices}"
        session = resume(journal)
        assert session is not None, f"{name}: killed after input {k}: not offered for resume"
        half = k + (len(inputs) - k) // 2
        for inp in inputs[k:half]:
            session.feed(inp)
        twice = db.parent.with_name(db.parent.name + "-again")  # killed again, in the resumed game
        twice.mkdir()
        for part in db.parent.iterdir():
            shutil.copy(part, twice / part.name)
        journal._db.close()
        again = Journal(twice / db.name, watch=True)
        assert not again.notices, f"{name}: killed after input {k} and {half}: {again.notices}"
        session = resume(again)
        assert session is not None, f"{name}: killed after input {k} and {half}: not offered again"
        finish(session, inputs[half:])
        assert session.events == whole.events, f"{name}: killed after {k} and {half}: went otherwise"
        assert table_state(session) == table_state(whole)
        again.close()


# -- the fixes ---------------------------------------------------------------------------------

def test_a_game_whose_last_input_ended_it_resumes_on_its_end_and_is_never_offered_again(tmp_path: Path) -> None:
    """Killed between its last input's row and the game's end: the resumed game is over at once;
    the journal says so, and the next start offers nothing."""
    header, inputs = script("cheers/odd_three")
    full_db = tmp_path / "full.sqlite3"
    assert play_through(header, inputs, full_db).finished
    db = cut(full_db, len(inputs), tmp_path / "cut")
    shell = Shell(Journal(db))
    assert shell.mode == "resume"
    shell.resume_game()
    assert shell.session is not None and shell.session.finished, "on the end screen"
    shell.to_main()
    shell.journal.close()
    assert status(db) == "over"
    assert Shell(Journal(db)).mode == "main", "a game that is over is not offered for resume again"


@pytest.mark.parametrize("name", ["tchin/rules_tourists_7", "tchin/seed_example"])
def test_a_game_started_with_a_station_disabled_resumes_as_it_was_played(tmp_path: Path, name: str) -> None:
    """A station stuck at the box's start is disabled for that game (it casts no veto vote);
    after a restart with the station free, the resumed game still plays without it, and the
    export replays the game as it was played."""
    header, inputs = script(name)
    for station in range(1, header["players"] + 1):
        kept = [i for i in inputs if i.station != station]  # the panel drops a disabled station's edges
        full = tmp_path / f"live{station}.sqlite3"
        journal = Journal(full)
        live = GameSession(header, journal=journal, disabled=frozenset({station}))
        finish(live, kept)
        export = journal.export(live.game_id)
        journal.close()
        assert json.loads(export.splitlines()[0])["disabled"] == [station]
        assert replay.run(*replay.load(export.splitlines(), "export.jsonl"), lambda ev: None).events \
            == live.events, f"{name}: station {station} disabled: the export replays otherwise"
        k = len(kept) * 2 // 3
        resumed = resume(Journal(cut(full, k, tmp_path / f"cut{station}")), disabled=frozenset())
        assert resumed is not None  # restarted with nothing stuck now
        finish(resumed, kept[k:])
        assert resumed.events == live.events, f"{name}: station {station} disabled: resumed otherwise"


def test_a_header_naming_disabled_stations_badly_is_refused_by_name() -> None:
    from controller.flow import HeaderError

    header, _ = script("tchin/seed_example")
    with pytest.raises(HeaderError, match="must list station numbers"):
        GameSession({**header, "disabled": ["3"]})


# -- the box's own path: buttons, the pad, phones, box seats -----------------------------------

class Table:
    """A shell on a journal, driven by a made-up monotonic clock, as the service drives it."""

    def __init__(self, db: Path, now: float, phones: tuple[int, ...] = ()) -> None:
        self.now = now
        self.shell = Shell(Journal(db), decision_lag_s=0.5, rng=random.Random(1), clock=lambda: self.now)
        self.shell.phone_seats.update(phones)

    def tell(self, g: float, kind: str, detail: Any) -> None:
        shell = self.shell
        self.now = max(self.now, shell.t0 + g)
        if kind in ("press", "release"):
            shell.button(ButtonEvent(self.now, kind == "press", station=detail))
        elif kind == "nav":
            shell.button(ButtonEvent(self.now, True, nav=detail))
            shell.button(ButtonEvent(self.now + 0.01, False, nav=detail))
        elif kind == "do":
            shell.do(detail, self.now)
        shell.tick(self.now)

    def rows(self) -> int:
        session = self.shell.session
        assert session is not None and session.game_id is not None
        return len(self.shell.journal.load(session.game_id).inputs)


def choose(rng: random.Random, session: GameSession, held: set[int]) -> tuple[str, Any, float]:
    """What the table does next: the awaited seat's buzzer, menu keys, a phone's move, a wait."""
    flow, e = session.flow, engine(session)
    gate = getattr(flow, "gate", None)
    r = rng.random()
    if r < 0.15 and e.current_player is not None and e.legal_actions():
        a = rng.choice(e.legal_actions())
        return "do", a.to_dict() if hasattr(a, "to_dict") else goblets_to_dict(a), 0.3
    if r < 0.2:
        return "wait", None, rng.choice([1.5, 11.0, 46.0])  # a box seat moves, a view times out
    if gate is not None and gate.state == "waiting" and r < 0.6:
        return ("press", gate.seat, 0.3) if gate.seat <= 8 else ("nav", "ok", 0.3)
    if held and r < 0.45:
        return "release", rng.choice(sorted(held)), 0.4
    if r < 0.5:
        return "press", rng.randrange(1, 9), 0.2
    nav = rng.choice(["next", "next", "prev", "ok", "ok", "ok", "back"])
    if nav == "back" and not flow.own_back and session.scene().private_for is None:
        nav = "next"  # the box's own "Leave this game?" is no part of the game
    return "nav", nav, 0.5


@pytest.mark.parametrize("name,bots,phones,seed", [
    ("cheers/limit_after_cheers", [], (), 0),  # seating, every goal revealed behind its buzzer
    ("cheers/actions_and_cheers", [2], (3,), 1),  # a box seat, a seat on its phone
    ("goblets/characters_c", [], (1,), 2),  # the Plotter
    ("goblets/memory_legacy", [4], (), 3),  # a box seat, the tie-break
])
def test_a_game_played_on_the_box_resumes_after_any_row(tmp_path: Path, name: str, bots: list[int],
                                                         phones: tuple[int, ...], seed: int) -> None:
    header, _ = script(name)
    header = {**header, "bots": bots} if bots else header
    rng = random.Random(seed)
    full = tmp_path / "live.sqlite3"
    table = Table(full, 1000.0, phones)
    table.shell.setup_game = header["game"]
    table.shell.start_game(dict(header))
    live = table.shell.session
    assert live is not None
    told: list[tuple[float, str, Any]] = []
    after: dict[int, int] = {0: 0}  # rows journaled -> how many told things it took
    held: set[int] = set()
    g = 0.0
    while len(told) < 45 and not live.finished:
        kind, detail, step = choose(rng, live, held)
        g += step
        if kind == "press":
            held.add(detail)
        elif kind == "release":
            held.discard(detail)
        told.append((g, kind, detail))
        table.tell(g, kind, detail)
        after.setdefault(table.rows(), len(told))
    table.tell(g + 60.0, "wait", None)
    live.run_out()
    live.advance(live.clock.now())
    table.shell.journal.close()
    expected = table_state(live)
    for k, n in after.items():
        again = Table(cut(full, k, tmp_path / f"cut{k}"), 50_000.0, phones)
        again.shell.resume_game()
        session = again.shell.session
        assert session is not None, f"{name}: cut after row {k}: not resumed"
        for g_, kind, detail in told[n:]:
            again.tell(g_, kind, detail)
        again.tell(g + 60.0, "wait", None)
        session.run_out()
        session.advance(session.clock.now())
        assert again.shell.session is session
        assert session.events == live.events, f"{name}: cut after row {k}: the resumed game went otherwise"
        assert table_state(session) == expected, f"{name}: cut after row {k}: hands or secrets differ"
        again.shell.journal.close()


def test_a_game_its_timers_end_while_run_out_is_journaled_as_over(tmp_path):
    import flows_for_tests  # noqa: F401  (registers "countdown-test": three rings end it)

    journal = Journal(tmp_path / "j")
    session = GameSession({"game": "countdown-test", "players": 2, "seed": 1}, journal=journal)
    for i in range(3):
        session.feed(Input(0.1 * i, "press", station=1), settle=True)
    assert not session.finished and journal.in_progress() is not None
    session.run_out()  # the rings come 2 s after each press: the last one ends the game
    assert session.finished
    assert journal.in_progress() is None, "a game over is never offered for resume"
