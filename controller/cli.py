"""``clinkbox``: the box's command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from controller import config as config_mod
from controller.cli_text import CLASSIFY_DESCRIPTION, MIC_TEST_DESCRIPTION, classify_args, mic_test_args

START = time.monotonic()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="clinkbox",
        description="A party box that deals, times and referees drinking games.",
    )
    p.add_argument("--config", help="the TOML config file (default: ~/.config/clinkbox/clinkbox.toml)")
    p.add_argument("-v", "--verbose", action="store_true", help="log more")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="start the box (the default): GPIO on a Pi, the simulator elsewhere")
    run.add_argument("--simulate", action="store_true", help="keyboard instead of GPIO, even on a Pi")
    run.add_argument("--headless", action="store_true", help="no window (draw off screen)")
    run.add_argument("--frames", metavar="DIR", help="headless: write a PNG of the screen every second")
    run.add_argument("--seconds", type=float, help="stop after this many seconds")
    run.add_argument("--script", metavar="FILE.jsonl",
                     help="play a replay file's inputs into the live box at their times (resumes it "
                          "if the journal holds it unfinished), print the game's events, stop")
    run.add_argument("--run-on", type=float, default=60.0, metavar="SECONDS",
                     help="with --script: how long the game plays on after the last input before its "
                          "remaining timers are run out at once, as a replay runs them (default 60)")
    run.add_argument("--exit-after-menu", action="store_true",
                     help="stop as soon as the main menu is drawn; print the start-up time")

    rp = sub.add_parser("replay", help="play a scripted game (JSON lines) and print the decisions")
    rp.add_argument("file", help="the replay file (header line, then one input per line), or - for stdin")

    doc = sub.add_parser("doctor", help="check pins, buttons, LEDs, microphone, speech model, display, sound")
    doc.add_argument("--no-interactive", action="store_true",
                     help="no hands-on tests (press each button, watch each LED, hear a test sound)")

    sp = sub.add_parser("speech", help="speech tools")
    ssub = sp.add_subparsers(dest="speech_command", metavar="SPEECH_COMMAND")
    classify_args(ssub.add_parser("classify", help="which toast each WAV file holds, as JSON lines",
                                  description=CLASSIFY_DESCRIPTION))
    mic_test_args(sub.add_parser("mic-test", help="live: the microphone's level and each toast heard",
                                 description=MIC_TEST_DESCRIPTION))

    sh = sub.add_parser("screenshots", help="draw the README's screens headless into a folder")
    sh.add_argument("--out", default="docs/screens")

    jr = sub.add_parser("journal", help="list the journal's games, or export one as a replay file")
    jr.add_argument("--export", type=int, metavar="GAME_ID")
    sub.add_parser("version", help="print the version")
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # the reader stopped (``clinkbox replay FILE | head``): no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
        return 141  # as a tool stopped by SIGPIPE


def _main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args, extra = parser.parse_known_args(args_list)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    command = args.command or "run"
    if command == "speech":
        if getattr(args, "speech_command", None) != "classify":
            parser.parse_args(["speech", "--help"])
            return 2
        from controller.speech_cli import classify_main

        return classify_main(args_list[args_list.index("classify") + 1:])
    if command == "mic-test":
        from controller.speech_cli import mic_test_main

        return mic_test_main(args_list[args_list.index("mic-test") + 1:])
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if command == "replay":
        from controller.replay import ReplayError
        from controller.replay import main as replay_main

        if args.config:  # not read: the file's header holds every option the game was played with
            try:
                config_mod.load(args.config)
            except config_mod.ConfigError as exc:
                print(f"clinkbox replay: warning: config error: {exc} (a replay does not use the config)",
                      file=sys.stderr)
        try:
            return replay_main(args.file, sys.stdout)
        except ReplayError as exc:
            print(f"clinkbox replay: {exc}", file=sys.stderr)
            return 2
    if command == "version":
        from importlib.metadata import version

        print(version("clinkbox"))
        return 0
    if command == "screenshots":
        from controller.screenshots import write_all

        for path in write_all(Path(args.out)):
            print(path)
        return 0
    if command == "journal":
        return journal_main(args)
    cfg, problem = load_config(args.config)
    if command == "doctor":
        from controller.doctor import main as doctor_main

        return doctor_main(cfg, problem, interactive=False if args.no_interactive else None,
                           config_path=Path(args.config) if args.config else None)
    return run_box(cfg, args, problem)


def journal_main(args: argparse.Namespace) -> int:
    """``clinkbox journal [--export ID]``. Exit status 2 when the journal cannot be read (nor
    the config that says where it is), 1 when an exported game had unreadable inputs (each named,
    left out of the export)."""
    import sqlite3

    from controller.journal import Journal, JournalError

    try:  # the journal's folder is the config's data_dir: a broken config is not guessed past
        cfg = config_mod.load(args.config)
    except config_mod.ConfigError as exc:
        print(f"clinkbox journal: config error: {exc}", file=sys.stderr)
        return 2
    journal_log = logging.getLogger("controller.journal")
    level = journal_log.level
    journal_log.setLevel(logging.CRITICAL)  # what it finds opening is said below, once, for a terminal
    try:
        j = Journal(cfg.data_path() / "journal.sqlite3")
    finally:
        journal_log.setLevel(level)
    try:
        if j.unusable is not None:
            print(f"clinkbox journal: {j.unusable}", file=sys.stderr)
            return 2
        if j.set_aside_as is not None:  # its games are in the file set aside, not in the fresh one
            print(f"clinkbox journal: {j.set_aside_as}", file=sys.stderr)
            return 2
        if j.wal_lost is not None:
            print(f"clinkbox journal: {j.wal_lost}: commits since the last checkpoint are lost",
                  file=sys.stderr)
        for notice in j.notices:
            print(f"clinkbox journal: {notice}", file=sys.stderr)
        if args.export is None:
            try:
                games = j.games()
            except sqlite3.DatabaseError as exc:
                print(f"clinkbox journal: the games in {j.path} cannot be read ({exc})", file=sys.stderr)
                return 2
            for gid, game, status in games:
                print(json.dumps({"id": gid, "game": game, "status": status}))
            return 0
        try:
            saved = j.load(args.export)
        except (JournalError, sqlite3.DatabaseError) as exc:
            print(f"clinkbox journal: {exc}", file=sys.stderr)
            return 2
        sys.stdout.write(j.replay_text(saved))
        if saved.skipped:
            print(f"clinkbox journal: game {saved.id}: {saved.skipped} unreadable input(s) left out "
                  "of the export (named above)", file=sys.stderr)
            return 1
        return 0
    finally:
        j.close()


def load_config(path: str | None) -> tuple[config_mod.Config, str | None]:
    """The config; a broken one is reported and the defaults are used, so the box still starts."""
    try:
        return config_mod.load(path), None
    except config_mod.ConfigError as exc:
        logging.getLogger("clinkbox").error("config error: %s; starting with the defaults", exc)
        return config_mod.Config(), f"Config error: {exc}. Running on defaults."


def run_box(cfg: config_mod.Config, args: argparse.Namespace, problem: str | None) -> int:
    from controller.app import Box

    mode = "headless" if args.headless or args.frames else None
    box = Box(cfg, simulate=True if args.simulate else None, mode=mode,
              frames_dir=Path(args.frames) if args.frames else None)
    if problem:
        box.shell.notices.append(problem)
    if args.script:
        from controller.script_feed import ScriptError, ScriptFeeder

        try:
            box.script = ScriptFeeder.from_file(args.script)
            box.script.run_on_s = args.run_on
        except ScriptError as exc:
            box.close()
            print(f"clinkbox run: {exc}", file=sys.stderr)
            return 2
    try:
        result = asyncio.run(box.run(exit_after_menu=args.exit_after_menu, seconds=args.seconds))
    except KeyboardInterrupt:  # Ctrl-C at the terminal: the box has closed (journal, pins, phones)
        logging.getLogger("clinkbox").info("stopped (Ctrl-C); the journal keeps the game to resume")
        return 130
    if args.script and box.script.error is not None:
        print(f"clinkbox run: {box.script.error}", file=sys.stderr)
        return 2
    if args.exit_after_menu and box.menu_shown_at is not None:
        print(json.dumps({"startup_s": round(box.menu_shown_at - START, 3)}))
    if result in ("poweroff", "reboot"):
        subprocess.run(["systemctl", result], check=False)
    if result == "restart":
        return 75  # systemd's Restart=always brings the box back
    return 0


if __name__ == "__main__":
    sys.exit(main())
