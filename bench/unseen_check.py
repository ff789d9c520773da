"""The acceptance check on voices kept out of everything: ``python -m bench.unseen_check``.

The reserved voices (never used to train, tune or choose a threshold): Debian's festival voices
for Czech, Finnish, Catalan and Russian, and hibari-tts's neural voice (installed apart, e.g.
``pip install --target DIR hibari-tts`` and ``--hibari DIR``).  Each says the six toasts as its
speakers would (hibari: as English speakers say them, sa-LUD, kan-PAI, PROST, in its own phoneme
notation) and look-alike words and party sentences, at two speaking rates.  Clips are made like
the acceptance corpus: 16 kHz, speech at -26 dBFS, 0.5 s around it; clean, pink noise and
5-talker babble at 10 dB.  They are written as WAV files and judged as ``clinkbox speech
classify`` judges them (:func:`hardware.speech.audio.read_wav`, the engine's ``classify``, the
most confident toast), with the shipped spotter and, with ``--lexicon``, another one.  With
``--claims`` they are judged too as a game judges a claim (``clinkbox speech classify --expect
TOAST``): for each toast k expected in turn, a clip of k is right when the first toast heard is
k, and any other clip (another toast, a look-alike, talk) is a false accept when it is.

Run it once, at the end: its figures choose nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import wave
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from bench.corpus import FLOOR_DBFS, active_power, pink_noise, trim, write_wav
from bench.results_file import share
from bench.spotter_data import CLASSES, held_out_babble
from bench.voices import Voice
from hardware.speech.audio import RATE, read_wav, resample

#: (voice id, festival voice, its speakers' spelling of each toast, its look-alikes and talk)
FESTIVAL: tuple[tuple[str, str, dict[str, str], tuple[str, ...]], ...] = (
    ("cs-dita", "czech_dita",
     {"prost": "Prost", "cheers": "Čírs", "tchin tchin": "Čin čin", "kanpai": "Kanpaj",
      "salud": "Salud", "na zdorovie": "Na zdorovje"},
     ("sýr", "salát", "děkuji", "ahoj", "pošta", "Kdo je na řadě", "Ještě jednu sklenku")),
    ("cs-machac", "czech_machac",
     {"prost": "Prost", "cheers": "Čírs", "tchin tchin": "Čin čin", "kanpai": "Kanpaj",
      "salud": "Salud", "na zdorovie": "Na zdorovje"},
     ("sýr", "salát", "děkuji", "ahoj", "pošta", "Kdo je na řadě", "Ještě jednu sklenku")),
    ("fi-mv", "hy_fi_mv_diphone",
     {"prost": "Prost", "cheers": "Tsiirs", "tchin tchin": "Tsin tsin", "kanpai": "Kanpai",
      "salud": "Salud", "na zdorovie": "Na zdorovje"},
     ("kiitos", "salaatti", "hei", "posti", "Kenen vuoro on", "Vielä yksi lasi")),
    ("fi-lj", "suo_fi_lj_diphone",
     {"prost": "Prost", "cheers": "Tsiirs", "tchin tchin": "Tsin tsin", "kanpai": "Kanpai",
      "salud": "Salud", "na zdorovie": "Na zdorovje"},
     ("kiitos", "salaatti", "hei", "posti", "Kenen vuoro on", "Vielä yksi lasi")),
    ("ca-ona", "upc_ca_ona_hts",
     {"prost": "Prost", "cheers": "Txirs", "tchin tchin": "Txin txin", "kanpai": "Kanpai",
      "salud": "Salud", "na zdorovie": "Na zdaróvie"},
     ("gràcies", "amanida", "hola", "correu", "De qui és el torn", "Una copa més")),
    ("ru-nsh", "msu_ru_nsh_clunits",
     {"prost": "Прост", "cheers": "Чирз", "tchin tchin": "Чин-чин", "kanpai": "Канпай",
      "salud": "Салуд", "na zdorovie": "На здоровье"},
     ("спасибо", "салат", "привет", "почта", "просто", "Чья очередь", "Ещё по одной")),
)
#: hibari's notation (misaki): the toasts as English speakers say them
HIBARI_TOASTS = {
    "prost": ("[Prost](/pɹˈOst/)", "[Prost](/pɹˈɔst/)"),
    "cheers": ("Cheers!", "[Cheers](/ʧˈɪɹz/)"),
    "tchin tchin": ("[Tchin tchin](/ʧˈɪn ʧˈɪn/)",),
    "kanpai": ("[Kanpai](/kɑnpˈI/)", "[Kanpai](/kˈɑnpI/)"),
    "salud": ("[Salud](/sɑlˈud/)", "[Salud](/səlˈud/)"),
    "na zdorovie": ("[Na zdorovie](/nɑ zdˈɔɹəvjə/)",),
}
ENGLISH_OTHERS = ("cheese", "salad", "thank you", "can I pay", "I am so tired", "chin up",
                  "hello", "pros and cons", "post", "chicken", "pass the crisps please",
                  "who wants another drink", "campaign", "salute")
SPEEDS = (1.0, 1.25)


def _festival(name: str, text: str, speed: float) -> np.ndarray:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        Voice("x", "festival", "festival", name, speed, "reserved").say(text, raw)
        return _read(raw)


def _read(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        rate, width = w.getframerate(), w.getsampwidth()
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16 if width == 2 else np.uint8)
    x = pcm.astype(np.float32) / (32768.0 if width == 2 else 128.0)
    return trim(resample(x, rate, RATE))


def clips(hibari_dir: Path | None) -> list[dict[str, Any]]:
    """Every reserved voice's utterances: voice, text, toast id (None for others), samples."""
    out = []
    for vid, name, toasts, others in FESTIVAL:
        for speed in SPEEDS:
            for tid, text in toasts.items():
                out.append({"voice": f"{vid}-{speed}", "text": text, "toast": tid,
                            "say": ("festival", name, text, speed)})
            for text in others:
                out.append({"voice": f"{vid}-{speed}", "text": text, "toast": None,
                            "say": ("festival", name, text, speed)})
    if hibari_dir is not None:
        for speed in SPEEDS:
            for tid, texts in HIBARI_TOASTS.items():
                for text in texts:
                    out.append({"voice": f"hibari-{speed}", "text": text, "toast": tid,
                                "say": ("hibari", "", text, speed)})
            for text in ENGLISH_OTHERS:
                out.append({"voice": f"hibari-{speed}", "text": text, "toast": None,
                            "say": ("hibari", "", text, speed)})
    return out


def make_corpus(out: Path, hibari_dir: Path | None, seed: int = 5) -> list[dict[str, Any]]:
    """Write the clips (clean, pink 10 dB, babble 10 dB) and return their manifest."""
    tts = None
    if hibari_dir is not None:
        sys.path.insert(0, str(hibari_dir))
        from hibari import Hibari  # type: ignore[import-not-found]

        tts = Hibari()
    babble = held_out_babble(seed)
    rng = np.random.default_rng(seed)
    rows = []
    for i, c in enumerate(clips(hibari_dir)):
        kind, name, text, speed = c["say"]
        try:
            if kind == "festival":
                speech = _festival(name, text, speed)
            else:
                assert tts is not None
                speech = trim(resample(np.asarray(tts(text, speed=speed, seed=0), np.float32),
                                       24000, RATE))
        except Exception as err:  # noqa: BLE001 - a voice that cannot say it is reported
            print(f"{c['voice']} {text!r}: {err}", file=sys.stderr)
            continue
        if len(speech) < RATE // 10:
            print(f"{c['voice']} {text!r}: nothing said", file=sys.stderr)
            continue
        pad = RATE // 2
        s = speech * (10 ** (-26 / 20) / np.sqrt(active_power(speech)))
        base = np.concatenate([np.zeros(pad, np.float32), s, np.zeros(pad, np.float32)])
        base += rng.standard_normal(len(base)).astype(np.float32) * 10 ** (FLOOR_DBFS / 20)
        for cond in ("clean", "pink", "babble"):
            x = base.copy()
            if cond == "pink":
                x += pink_noise(len(x), rng) * np.sqrt(active_power(s) / 10)
            elif cond == "babble":
                at = int(rng.integers(0, len(babble) - len(x)))
                x += babble[at: at + len(x)] * np.sqrt(active_power(s) / 10)
            x *= min(1.0, 0.98 / float(np.max(np.abs(x))))
            rel = f"{c['voice']}/{i:04d}-{cond}.wav"
            write_wav(out / rel, x)
            rows.append({"file": rel, "voice": c["voice"], "text": text, "toast": c["toast"],
                         "cond": cond})
    (out / "manifest.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                                for r in rows))
    return rows


def judge(corpus: Path, rows: list[dict[str, Any]], lexicon: str) -> dict[str, Any]:
    """The spotter of ``lexicon`` on every clip, as ``clinkbox speech classify`` decides."""
    from controller.speech_cli import best_toast
    from hardware.speech.spotter import SpotterEngine

    engine = SpotterEngine(lexicon)
    right: dict[str, list[bool]] = defaultdict(list)
    fa: list[bool] = []
    per_toast: dict[str, list[bool]] = defaultdict(list)
    per_voice: dict[str, list[bool]] = defaultdict(list)
    fired: dict[str, int] = defaultdict(int)
    for r in rows:
        v = best_toast(engine.classify(read_wav(corpus / r["file"])))
        said = v.toast if v else None
        if r["toast"]:
            ok = said == r["toast"]
            right["clean" if r["cond"] == "clean" else "10db"].append(ok)
            if r["cond"] != "clean":
                right[r["cond"]].append(ok)
            if r["cond"] == "clean":
                per_toast[r["toast"]].append(ok)
                per_voice[r["voice"].split("-")[0]].append(ok)
        else:
            fa.append(said is not None)
            if said:
                fired[f"{r['text']} -> {said}"] += 1

    return {"accuracy_clean": share(right["clean"]), "accuracy_10db": share(right["10db"]),
            "accuracy_pink10": share(right["pink"]), "accuracy_babble10": share(right["babble"]),
            "false_accept": share(fa), "toasts": len(right["clean"]) + len(right["10db"]),
            "others": len(fa),
            "per_toast_clean": {t: share(per_toast[t]) for t in CLASSES},
            "per_voice_clean": {k: share(v) for k, v in sorted(per_voice.items())},
            "false_accepts": dict(sorted(fired.items(), key=lambda kv: -kv[1]))}


def judge_claims(corpus: Path, rows: list[dict[str, Any]], lexicon: str) -> dict[str, Any]:
    """Claim by claim, as the game decides (:func:`bench.spotter_lofo.claims` on files): each
    toast k expected in turn (:meth:`hardware.speech.spotter.SpotterEngine.expect`), the first
    toast the file is heard saying decides."""
    from hardware.speech.spotter import SpotterEngine

    engine = SpotterEngine(lexicon)
    out: dict[str, Any] = {}
    for name, lowered in (("now", False), ("expecting", True)):
        right: dict[str, list[bool]] = defaultdict(list)
        per_toast: dict[str, list[bool]] = defaultdict(list)
        fa: dict[str, list[bool]] = defaultdict(list)
        fired: dict[str, int] = defaultdict(int)
        for k in CLASSES:
            engine.expect([k] if lowered else None)
            for r in rows:
                heard = [h.toast for h in engine.classify(read_wav(corpus / r["file"]))
                         if h.toast is not None]
                first = heard[0] if heard else None
                if r["toast"] == k:
                    ok = first == k
                    right["clean" if r["cond"] == "clean" else "10db"].append(ok)
                    if r["cond"] != "clean":
                        right[r["cond"]].append(ok)
                    else:
                        per_toast[k].append(ok)
                else:
                    fa[k].append(first == k)
                    if first == k:
                        fired[f"{r['text']} -> {k}"] += 1
        engine.expect(None)

        out[name] = {"right_clean": share(right["clean"]), "right_10db": share(right["10db"]),
                     "right_pink10": share(right["pink"]), "right_babble10": share(right["babble"]),
                     "false_accept": round(float(np.mean([np.mean(v) for v in fa.values()])), 4),
                     "per_toast_clean": {t: share(per_toast[t]) for t in CLASSES},
                     "false_accepts": dict(sorted(fired.items(), key=lambda kv: -kv[1])[:20])}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.unseen_check", description=__doc__)
    ap.add_argument("--corpus", type=Path, default=Path("/tmp/clinkbox-unseen"))
    ap.add_argument("--hibari", type=Path, help="folder where hibari-tts is installed")
    ap.add_argument("--lexicon", nargs="*", default=["spotter-en"],
                    help="spotter lexicons to judge with (a name or a .json path)")
    ap.add_argument("--out", type=Path, default=Path("bench/unseen.json"))
    ap.add_argument("--claims", action="store_true",
                    help="judge claims too, each toast expected in turn, as a game does")
    args = ap.parse_args(argv)
    manifest = args.corpus / "manifest.jsonl"
    if manifest.exists():
        rows = [json.loads(line) for line in manifest.read_text().splitlines()]
    else:
        rows = make_corpus(args.corpus, args.hibari)
    result = {"clips": len(rows), "voices": sorted({r["voice"] for r in rows}),
              **{lex: judge(args.corpus, rows, lex) for lex in args.lexicon}}
    if args.claims:
        result["claims"] = {lex: judge_claims(args.corpus, rows, lex) for lex in args.lexicon}
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
