"""The table teaches the ear: each player's own toast, kept as a template the spotter matches.

During Tchin Tchin's introduction every player says their toast once.  :func:`make_template`
turns such a clip into a :class:`Template`: what the spotter's networks heard where the toast
ends (their last hidden layers, :meth:`~hardware.speech.spotter.Ensemble.forward`), for the
clip as said and for copies of it with pink noise added at 15, 10 and 5 dB (the box makes those
copies itself: a party is loud, and a template heard only in the quiet matches little in noise).
No audio is kept.  Once the table has taught two toasts or more, each 80 ms step of listening
compares what the networks hear now with the templates (cosine similarity; the best template
and copy of each toast counts), and:

- a toast the network alone does not fire is heard when one taught toast's similarity is at
  least ``min_similarity``, ahead of every other taught toast's by ``margin``, and the network
  gives it at least ``min_probability`` (it has an inkling of it);
- a taught toast the network fires without being sure (under ``sure_probability``) is heard only
  if its template agrees: similarity at least ``agree_similarity`` and no other taught toast's
  higher.  Otherwise that step fires nothing (the network's false accepts on a player's
  look-alike words are what this saves).

With a single toast taught there is nothing to tell it from, so the templates are not used and
the network decides as before.  The numbers were chosen on accented voices used for nothing else
(``python -m bench.enrol_bench --grid``, every combination of a grid replayed on their
steps; docs/speech.md, "The table teaches the ear").  An
:class:`Enrolment` is plain data (:meth:`Enrolment.to_list`), so the box journals it and a
resumed game hears as before.
"""

from __future__ import annotations

import threading
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hardware.speech.audio import RATE, active_power, pink_noise, to_float
from hardware.speech.vad import VoiceActivity

#: samples at or beyond this magnitude count as clipped
CLIP_LEVEL = 32000
#: the noisy copies of an enrolment clip: pink noise this far under the speech (dB; chosen on
#: the dev voices among 10; 5; 10 and 5; 10 and 0; 15, 10 and 5)
NOISY_COPIES_DB: tuple[float, ...] = (15.0, 10.0, 5.0)
#: a template's copies: as said, and the noisy ones
MAX_COPIES = 1 + len(NOISY_COPIES_DB)
#: where the word ends the network gives the toast at least this, or the clip (or a noisy copy)
#: teaches nothing: noise, or a word nothing like it
LEAST_PROBABILITY = 0.01


class EnrolRefused(ValueError):
    """An enrolment clip that cannot teach the ear; the message is the reason, for the screen."""


@dataclass(frozen=True, eq=False)
class Template:
    """One enrolled toast: what the spotter's networks heard where it ends, one unit-length row
    per copy of the clip (as said, in noise), rounded to 4 decimals so a journaled copy is exact."""

    toast: str
    features: np.ndarray
    source: str = "intro"
    """"intro" (said at the introduction) or "confirmed" (a toast won during play)."""

    def to_dict(self) -> dict[str, Any]:
        return {"toast": self.toast, "source": self.source,
                "features": np.round(self.features, 4).tolist()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Template:
        if "features" not in d:
            raise ValueError("an enrolled toast's template is of an older kind (no features): "
                             "say the toast again")
        f = np.asarray(d["features"], np.float32)
        if f.ndim != 2 or not 1 <= len(f) <= MAX_COPIES or f.shape[1] < 8 or not np.isfinite(f).all():
            raise ValueError(f"an enrolled toast's template has the wrong shape: {f.shape}")
        return cls(str(d["toast"]), f, str(d.get("source", "intro")))

    @classmethod
    def of(cls, toast: str, features: np.ndarray, source: str = "intro") -> Template:
        """A template of feature rows (made unit length), rounded as a journaled one would be."""
        f = np.atleast_2d(np.asarray(features, np.float32))
        f = f / (np.linalg.norm(f, axis=1, keepdims=True) + 1e-9)
        return cls(toast, np.round(f, 4).astype(np.float32), source)


@dataclass
class Enrolment:
    """This table's toasts, and how closely what the spotter hears must match one."""

    templates: list[Template] = field(default_factory=list)
    min_similarity: float = 0.93
    margin: float = 0.05
    min_probability: float = 0.003
    sure_probability: float = 0.5
    """Under this the network's own firing of a taught toast needs the template's agreement."""
    agree_similarity: float = 0.6
    max_templates_per_toast: int = 4
    """An intro clip and up to three confirmed toasts (the oldest confirmed one goes first)."""

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.templates)

    def add(self, template: Template) -> None:
        with self._lock:
            same = [t for t in self.templates if t.toast == template.toast]
            if len(same) >= self.max_templates_per_toast:
                oldest = next((t for t in same if t.source == "confirmed"), same[0])
                self.templates.remove(oldest)
            self.templates.append(template)

    def clear(self) -> None:
        with self._lock:
            self.templates.clear()

    def in_use(self) -> bool:
        """Whether the templates decide anything: two toasts or more taught."""
        with self._lock:
            return len({t.toast for t in self.templates}) >= 2

    def to_list(self) -> list[dict[str, Any]]:
        with self._lock:
            return [t.to_dict() for t in self.templates]

    def load(self, records: list[dict[str, Any]], width: int | None = None) -> None:
        """Replace the templates by journaled ones; with ``width`` (what the spotter's networks
        give a step), a template of another width is refused: networks other than these learned
        it (a box updated since), and it could never match."""
        templates = [Template.from_dict(r) for r in records]
        if width is not None:
            for t in templates:
                if t.features.shape[1] != width:
                    raise ValueError(
                        f"the template of {t.toast!r} has {t.features.shape[1]} numbers where this "
                        f"spotter's networks give {width}: other networks learned it")
        with self._lock:
            self.templates = templates

    def similarities(self, heard: np.ndarray, toasts: tuple[str, ...]) -> np.ndarray:
        """Each toast's best similarity to what the networks heard (``heard``: one step's
        features); -1 for a toast not taught (or taught by a spotter of another shape)."""
        with self._lock:
            templates = list(self.templates)
        s = np.full(len(toasts), -1.0)
        for t in templates:
            if t.toast in toasts and t.features.shape[1] == len(heard):
                i = toasts.index(t.toast)
                s[i] = max(s[i], float((t.features @ heard).max()))
        return s

    def decide(self, fired: int, p: np.ndarray, heard: np.ndarray, toasts: tuple[str, ...]) -> int:
        """The class (1-based, as in ``p``; 0: none) one step fires, given the network's own
        choice ``fired``, its probabilities ``p`` and what it heard (features)."""
        return self.choose(fired, p, self.similarities(heard, toasts))

    def choose(self, fired: int, p: np.ndarray, s: np.ndarray) -> int:
        """:meth:`decide` given the step's similarities ``s`` (:meth:`similarities`): the rule
        alone, so that its numbers can be tried on steps heard once
        (``python -m bench.enrol_bench --grid``)."""
        if int((s > -1).sum()) < 2:
            return fired  # one toast alone has nothing to be told from
        if fired:
            k = fired - 1
            if s[k] <= -1 or p[fired] >= self.sure_probability:
                return fired
            return fired if s[k] >= self.agree_similarity and s[k] >= s.max() else 0
        order = np.argsort(s)
        best, second = int(order[-1]), int(order[-2])
        if s[best] >= self.min_similarity and s[best] - s[second] >= self.margin \
                and p[best + 1] >= self.min_probability:
            return best + 1
        return 0


def check_clip(pcm: np.ndarray) -> list[tuple[int, int]]:
    """The speech spans (samples) of an enrolment clip; :class:`EnrolRefused` for a clip that
    clips or holds no speech."""
    pcm = np.asarray(pcm, np.int16).reshape(-1)
    if len(pcm) < RATE // 2:
        raise EnrolRefused("too short: say the toast again")
    clipped = float(np.mean(np.abs(pcm.astype(np.int32)) >= CLIP_LEVEL))
    if clipped > 0.001:
        raise EnrolRefused(f"too loud: {clipped:.1%} of it clips; say it again, further from the microphone")
    vad = VoiceActivity()
    spans = vad.feed(to_float(pcm)) + vad.flush()
    if not spans:
        raise EnrolRefused("no speech heard: say the toast again")
    return [(s.start, s.end) for s in spans]


def noisy_copy(pcm: np.ndarray, spans: list[tuple[int, int]], snr_db: float = 10.0) -> np.ndarray:
    """The clip with pink noise ``snr_db`` under its speech (``spans``), the same every time
    (the noise is seeded by the clip)."""
    x = pcm.astype(np.float32)
    speech = np.concatenate([x[a:b] for a, b in spans])
    gain = np.sqrt(active_power(speech) / 10 ** (snr_db / 10))
    rng = np.random.default_rng(zlib.crc32(pcm.tobytes()))
    return np.clip(np.round(x + pink_noise(len(x), rng) * gain), -32768, 32767).astype(np.int16)


def _heard_at_end(engine: Any, x: np.ndarray, ends: np.ndarray, cls: int, end: int
                  ) -> tuple[np.ndarray, float] | None:
    """What the networks heard at the step (of windows ``x`` ending at ``ends``) near ``end``
    where ``cls`` is likeliest, and that probability; None if no step ends near it."""
    near = np.flatnonzero((ends >= end - 0.1 * RATE) & (ends <= end + 0.5 * RATE))
    if len(near) == 0:
        return None
    p, heard = engine.net.forward(x[near])
    i = int(np.argmax(p[:, cls]))
    return heard[i], float(p[i, cls])


def make_template(engine: Any, pcm: np.ndarray, toast: str, source: str = "intro") -> Template:
    """A template of ``toast`` from a clip of one player saying it (a toast spotter ``engine``).

    Refused (:class:`EnrolRefused`, with the reason for the screen) when the clip clips, holds no
    speech, holds too long or too short a stretch, or the spotter is sure it is another toast.
    """
    if toast not in engine.toasts:
        raise EnrolRefused(f"{toast!r} is not one of the toasts")
    pcm = np.asarray(pcm, np.int16).reshape(-1)
    spans = check_clip(pcm)
    start, end = spans[0][0], spans[-1][1]
    if end - start > 2.5 * RATE:
        raise EnrolRefused("too long: say just the toast")
    if end - start < 0.05 * RATE:
        raise EnrolRefused("too short: say the toast again")
    x, ends = engine.windows(pcm)
    if len(x) == 0:
        raise EnrolRefused("too short: say the toast again")
    cls = engine.toasts.index(toast) + 1
    heard = {engine.toasts[k - 1] for k in map(engine.fires, engine.net.probabilities(x)) if k}
    if heard and toast not in heard:
        raise EnrolRefused(f"heard {' or '.join(sorted(heard))}, not {toast}: say {toast} again")
    said = _heard_at_end(engine, x, ends, cls, end)
    if said is None:
        raise EnrolRefused("the toast was cut off: say it again")
    if said[1] < LEAST_PROBABILITY:
        raise EnrolRefused(f"that did not sound like {toast}: say it again")
    copies = [said[0]]
    for snr in NOISY_COPIES_DB:
        nx, nends = engine.windows(noisy_copy(pcm, spans, snr))
        noisy = _heard_at_end(engine, nx, nends, cls, end)
        if noisy is not None and noisy[1] >= LEAST_PROBABILITY:  # else lost in the noise
            copies.append(noisy[0])
    return Template.of(toast, np.stack(copies), source)
