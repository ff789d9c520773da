"""The spotter on real people talking: ``python -m bench.real_speech``.

Every other measure of the ear is on synthesized voices.  The one real human speech the package
registries carry that this project can use is a handful of recordings shipped as examples in the
``moonshine-voice`` wheel (MIT; readings of Dickens and Beckett and a short spoken sentence,
about 87 seconds in all, none of them a toast): they are read here, never trained or tuned on,
and every toast the spotter fires in them is a false accept on real speech.  The spotter judges
each file as ``clinkbox speech classify`` does (after a lead-in of the file's own quiet), so a
fire anywhere in a file counts, where the live box would judge only the seconds after a press.

Writes ``bench/real_speech.json``; returns ``speech_real_fires_per_min`` for
``bench/results.json`` (no target: a measure of what the box will meet, not of a toast).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

RECORDINGS = ("beckett.wav", "two_cities.wav", "endgame_nagg_nell.wav", "clone-test.wav")


def recordings() -> list[Path]:
    """The real recordings, where the ``moonshine-voice`` wheel is installed (``make bench``'s
    ``voices`` extra); its code is never imported, only its files read."""
    spec = importlib.util.find_spec("moonshine_voice")
    if spec is None or not spec.submodule_search_locations:
        return []
    assets = Path(next(iter(spec.submodule_search_locations))) / "assets"
    return [assets / name for name in RECORDINGS if (assets / name).exists()]


def run(out: Path = Path("bench/real_speech.json"), lexicon: str | Path = "spotter-en"
        ) -> dict[str, Any]:
    from hardware.speech.audio import RATE, read_wav
    from hardware.speech.spotter import SpotterEngine

    files = recordings()
    if not files:
        raise RuntimeError("no real recordings here: pip install moonshine-voice "
                           "(make bench's voices extra)")
    spotter = SpotterEngine(lexicon)
    per_file, seconds, fires = [], 0.0, 0
    for path in files:
        pcm = read_wav(path)
        heard = [h for h in spotter.classify(pcm) if h.toast]
        per_file.append({"file": path.name, "seconds": round(len(pcm) / RATE, 1),
                         "fired": [{"toast": h.toast, "at_s": round(h.start, 2),
                                    "confidence": round(h.confidence, 3)} for h in heard]})
        seconds += len(pcm) / RATE
        fires += len(heard)
    rate = round(fires / (seconds / 60), 2)
    report = {"fires": fires, "seconds": round(seconds, 1), "fires_per_min": rate,
              "files": per_file}
    out.write_text(json.dumps(report, indent=1) + "\n")
    return {"speech_real_fires_per_min": rate, "speech_real": {"fires": fires,
                                                               "seconds": round(seconds, 1)}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.real_speech", description=__doc__)
    ap.add_argument("--out", type=Path, default=Path("bench/real_speech.json"))
    ap.add_argument("--lexicon", default="spotter-en",
                    help="the spotter's lexicon: a name or a path to its json")
    args = ap.parse_args(argv)
    json.dump(run(args.out, args.lexicon), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
