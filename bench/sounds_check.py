"""The spotter on party sounds no fit heard: ``python -m bench.sounds_check``.

The spotter's negatives hold the party's sounds that are no speech
(:data:`bench.party_sounds.NAMES`: tones, chords, a buzzer, a doorbell, glasses, music...).
This measures the same kinds of sound made from other numbers (:data:`HELD_OUT`: other
frequencies, other draws), and strings of beeps (``chirps``: a kind no fit holds), none of them
in any fit: each judged as ``clinkbox speech classify`` judges a file, clean and in pink noise
at 10 dB, and every toast it fires is a false accept (``speech_sounds_false_accept``, target as
for speech: at most 0.03).  Writes ``bench/sounds.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

#: sounds of the kinds the spotter's negatives hold, at numbers none of them uses, and 60
#: strings of beeps
HELD_OUT: tuple[str, ...] = (
    *(f"tone {f}" for f in (180, 300, 440, 600, 880, 1200, 1700, 2400)),
    *(f"beeps {f}" for f in (600, 1200, 2400)),
    *(f"chord {f}" for f in (147, 196, 262, 330)),
    *(f"organ {f}" for f in (131, 196)),
    *(f"square {f}" for f in (150, 260, 440)),
    *(f"saw {f}" for f in (120, 160)),
    *(f"hum {f}" for f in (130, 200, 260)),
    *(f"whistle {f}" for f in (1300, 1900)),
    *(f"sweep {f}" for f in (4, 5)),
    *(f"siren {f}" for f in (3, 4)),
    *(f"doorbell {f}" for f in (3, 4)),
    *(f"ring {f}" for f in (3,)),
    *(f"clink {f}" for f in (5, 6, 7)),
    *(f"claps {f}" for f in (4, 5)),
    *(f"beat {f}" for f in (4, 5)),
    *(f"music {f}" for f in (5, 6, 7)),
    *(f"chirps {f}" for f in range(101, 161)),
)

CONDS = ("clean", "pink")


def run(out: Path = Path("bench/sounds.json"), lexicon: str | Path = "spotter-en",
        names: tuple[str, ...] = HELD_OUT) -> dict[str, Any]:
    """Every sound of ``names`` judged clean and in pink noise; returns the keys for
    ``bench/results.json``."""
    from bench.party_sounds import NAMES, sound
    from bench.real_speech import most_confident
    from hardware.speech.spotter import SpotterEngine

    heard_in_fit = sorted(set(names) & set(NAMES))
    if heard_in_fit:
        raise ValueError(f"sounds the spotter was fitted on cannot measure it: {heard_in_fit}")
    spotter = SpotterEngine(lexicon)
    verdicts = [(name, cond, most_confident(spotter, sound(name), cond,
                                            zlib.crc32(f"{name} {cond}".encode())))
                for name in names for cond in CONDS]
    fired = [{"sound": name, "cond": cond, "toast": best.toast,
              "confidence": round(best.confidence, 3)}
             for name, cond, best in verdicts if best is not None]

    def count(judged: list[Any]) -> tuple[int, int]:  # (fired, judged)
        return sum(best is not None for best in judged), len(judged)

    by_cond = {c: count([b for _, cond, b in verdicts if cond == c]) for c in CONDS}
    by_kind = {k: count([b for name, _, b in verdicts if name.split()[0] == k])
               for k in dict.fromkeys(name.split()[0] for name in names)}
    rate = round(len(fired) / len(verdicts), 3)
    report = {
        "lexicon": str(lexicon), "sounds": len(names), "clips": len(verdicts),
        "false_accept": rate,
        "false_accept_by_cond": {c: round(f / n, 3) for c, (f, n) in by_cond.items()},
        "fired_by_kind": {k: f"{f}/{n}" for k, (f, n) in by_kind.items()},
        "fired_as": dict(Counter(str(f["toast"]) for f in fired).most_common()), "fired": fired,
    }
    out.write_text(json.dumps(report, indent=1) + "\n")
    return {"speech_sounds_false_accept": rate}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.sounds_check", description=__doc__)
    ap.add_argument("--out", type=Path, default=Path("bench/sounds.json"))
    ap.add_argument("--lexicon", default="spotter-en",
                    help="the spotter's lexicon: a name or a path to its json")
    args = ap.parse_args(argv)
    json.dump(run(args.out, args.lexicon), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
