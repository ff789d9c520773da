"""The table teaches the ear: each player's own toast, kept as templates the spotter matches.

During Tchin Tchin's introduction every player says their toast once.  :func:`make_template`
turns such a clip into a :class:`Template`: the speech's log-mel frames (normalised over the
clip) and the spotter network's first hidden layer at the step where the word ends.  No audio is
kept.  While listening, a toast the network alone is not sure of is still heard when all of
these hold for one enrolled toast:

- the recent audio matches that toast's template by dynamic time warping (mean frame distance at
  most ``max_cost``), and clearly better than the templates of every other toast the table has
  taught (by ``margin``): the table's other toasts, said by the same people in the same room,
  are the look-alikes a template must beat;
- the network's own probability for that toast is at least ``min_probability`` (it has an
  inkling of it);
- it matches the table's template better, by ``lookalike_margin``, than every look-alike word of
  that toast the box ships (``lexicons/lookalikes-en.npz``, made by
  ``python -m bench.make_lookalikes``: "solid", "salute", "saloon"... for salud, said by the
  spotter's tuning voices), so that a player's "salad" is not taken for their "salud".

Once the table has taught two toasts or more, the network alone needs ``sure_threshold`` (more
than the spotter's own threshold) to fire a taught toast: the templates carry the recall, and the
network's false accepts on look-alike words are fewer.  With a single toast taught there is
nothing to tell it from, so the templates are not used and the network decides as before.

The numbers were chosen on accented voices used for nothing else (docs/speech.md, "The table
teaches the ear").  An :class:`Enrolment` is plain data (:meth:`Enrolment.to_list`), so the
box journals it and a resumed game hears as before.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hardware.speech.audio import RATE, to_float
from hardware.speech.vad import VoiceActivity

MEL_HOP = 160
#: a template may have ended this many mel frames (10 ms) before the step that tests it
SEARCH_BACK = 25
#: recent mel frames a step is matched against (2 s), and normalised over
QUERY_FRAMES = 200
#: samples at or beyond this magnitude count as clipped
CLIP_LEVEL = 32000


class EnrolRefused(ValueError):
    """An enrolment clip that cannot teach the ear; the message is the reason, for the screen."""


def normalise(mel: np.ndarray) -> np.ndarray:
    """Each of the 32 bands to zero mean and unit spread over the frames given."""
    return ((mel - mel.mean(axis=0)) / (mel.std(axis=0) + 1e-3)).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Template:
    """One enrolled toast: its speech's normalised log-mel frames and the network's first hidden
    layer where it ends (unit length), rounded to 4 decimals so that a journaled copy is exact."""

    toast: str
    mel: np.ndarray
    hidden: np.ndarray
    source: str = "intro"
    """"intro" (said at the introduction) or "confirmed" (a toast won during play)."""

    def to_dict(self) -> dict[str, Any]:
        return {"toast": self.toast, "source": self.source,
                "mel": np.round(self.mel, 4).tolist(), "hidden": np.round(self.hidden, 4).tolist()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Template:
        mel = np.asarray(d["mel"], np.float32)
        hidden = np.asarray(d["hidden"], np.float32)
        if mel.ndim != 2 or mel.shape[1] != 32 or not 5 <= len(mel) <= 300 or hidden.ndim != 1:
            raise ValueError(f"an enrolled toast's template has the wrong shape: {mel.shape}, {hidden.shape}")
        return cls(str(d["toast"]), mel, hidden, str(d.get("source", "intro")))

    @classmethod
    def of(cls, toast: str, mel: np.ndarray, hidden: np.ndarray, source: str = "intro") -> Template:
        """A template rounded as a journaled one would be."""
        h = hidden / (np.linalg.norm(hidden) + 1e-9)
        return cls(toast, np.round(mel, 4).astype(np.float32), np.round(h, 4).astype(np.float32), source)


def dtw_end_costs(template: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Subsequence dynamic time warping: for each query frame, the mean frame distance of the
    best alignment of the whole template ending there (steps (1,1), (1,2), (2,1))."""
    n, m = len(template), len(query)
    if n == 0 or m == 0:
        return np.full(m, np.inf)
    cost = np.sqrt(((template[:, None, :] - query[None, :, :]) ** 2).sum(-1))
    inf = np.full(m, np.inf)
    d_prev2, d_prev = inf, cost[0].copy()
    for i in range(1, n):
        diag = np.concatenate([[np.inf], d_prev[:-1]])
        skip = np.concatenate([[np.inf, np.inf], d_prev[:-2]])
        stay = np.concatenate([[np.inf], d_prev2[:-1]])
        d_prev2, d_prev = d_prev, cost[i] + np.minimum(np.minimum(diag, skip), stay)
    return d_prev / n


@dataclass
class Enrolment:
    """This table's toasts, and how closely a stretch must match one to be heard."""

    templates: list[Template] = field(default_factory=list)
    max_cost: float = 3.4
    margin: float = 0.7
    min_probability: float = 0.03
    lookalike_margin: float = 0.2
    sure_threshold: float = 0.8
    """What the network alone needs to fire a taught toast (while the templates are in use)."""
    min_similarity: float = -1.0
    """Cosine of the first hidden layer to the template's; off (-1): on the dev voices it cost
    right toasts and saved no false accepts."""
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

    def threshold_for(self, toast: str, threshold: float) -> float:
        """What the network alone needs to fire ``toast``: ``sure_threshold`` for a taught toast
        while the templates are in use, else the spotter's own ``threshold``."""
        if not self.in_use():
            return threshold
        with self._lock:
            taught = any(t.toast == toast for t in self.templates)
        return max(threshold, self.sure_threshold) if taught else threshold

    def to_list(self) -> list[dict[str, Any]]:
        with self._lock:
            return [t.to_dict() for t in self.templates]

    def load(self, records: list[dict[str, Any]]) -> None:
        """Replace the templates by journaled ones."""
        templates = [Template.from_dict(r) for r in records]
        with self._lock:
            self.templates = templates

    def match(self, recent_mel: np.ndarray, hidden: np.ndarray, probabilities: np.ndarray,
              toasts: tuple[str, ...], lookalikes: dict[str, list[np.ndarray]] | None = None) -> int | None:
        """The class index (1-based, as in ``probabilities``) of the enrolled toast the recent
        audio matches, or None.  ``recent_mel`` ends at the step being judged; ``lookalikes``:
        each toast's look-alike words (:func:`load_lookalikes`), which it must match worse."""
        with self._lock:
            templates = list(self.templates)
        if len({t.toast for t in templates if t.toast in toasts}) < 2:
            return None  # one toast alone has nothing to be told from
        candidates = [t for t in templates
                      if t.toast in toasts and probabilities[toasts.index(t.toast) + 1] >= self.min_probability]
        if not candidates:
            return None
        query = normalise(recent_mel[-QUERY_FRAMES:])
        best: dict[str, float] = {}
        for t in templates:  # every taught toast competes for the margin, not only the candidates
            if t.toast not in toasts:
                continue
            c = float(dtw_end_costs(t.mel, query)[-SEARCH_BACK:].min())
            best[t.toast] = min(c, best.get(t.toast, np.inf))
        ranked = sorted(best.items(), key=lambda kv: kv[1])
        toast, cost = ranked[0]
        if cost > self.max_cost or ranked[1][1] - cost < self.margin:
            return None
        k = toasts.index(toast) + 1
        if probabilities[k] < self.min_probability:
            return None
        for other in (lookalikes or {}).get(toast, ()):
            if float(dtw_end_costs(other, query)[-SEARCH_BACK:].min()) < cost + self.lookalike_margin:
                return None
        if self.min_similarity > -1.0:
            h = hidden / (np.linalg.norm(hidden) + 1e-9)
            if max(float(h @ t.hidden) for t in templates if t.toast == toast) < self.min_similarity:
                return None
        return k


def load_lookalikes(path: Path) -> dict[str, list[np.ndarray]]:
    """The look-alike words' templates (``python -m bench.make_lookalikes``), by toast."""
    with np.load(path) as z:
        toasts, lengths, mel = [str(t) for t in z["toasts"]], z["lengths"], z["mel"].astype(np.float32)
    if mel.ndim != 2 or mel.shape[1] != 32 or int(lengths.sum()) != len(mel) or len(lengths) != len(toasts):
        raise ValueError(f"look-alike templates {path} are malformed")
    out: dict[str, list[np.ndarray]] = {}
    for toast, a, b in zip(toasts, np.cumsum(lengths) - lengths, np.cumsum(lengths)):
        out.setdefault(toast, []).append(mel[a:b])
    return out


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


def make_template(engine: Any, pcm: np.ndarray, toast: str, source: str = "intro") -> Template:
    """A template of ``toast`` from a clip of one player saying it (a toast spotter ``engine``).

    Refused (:class:`EnrolRefused`, with the reason for the screen) when the clip clips, holds no
    speech, holds too long a stretch, or the spotter is sure it is another toast.
    """
    if toast not in engine.toasts:
        raise EnrolRefused(f"{toast!r} is not one of the toasts")
    pcm = np.asarray(pcm, np.int16).reshape(-1)
    spans = check_clip(pcm)
    start, end = spans[0][0], spans[-1][1]
    if end - start > 2.5 * RATE:
        raise EnrolRefused("too long: say just the toast")
    x, ends = engine.windows(pcm)
    if len(x) == 0:
        raise EnrolRefused("too short: say the toast again")
    p = engine.net.probabilities(x)
    cls = engine.toasts.index(toast) + 1
    heard = {engine.toasts[k - 1] for k in map(engine.fires, p) if k}
    if heard and toast not in heard:
        raise EnrolRefused(f"heard {' or '.join(sorted(heard))}, not {toast}: say {toast} again")
    near = np.flatnonzero((ends >= end - 0.1 * RATE) & (ends <= end + 0.5 * RATE))
    if len(near) == 0:
        raise EnrolRefused("the toast was cut off: say it again")
    step = int(near[np.argmax(p[near, cls])])
    if p[step, cls] < 0.01:  # noise, or a word nothing like it: such a template never helps
        raise EnrolRefused(f"that did not sound like {toast}: say it again")
    hidden = engine.net.nets[0].first_hidden(x[step: step + 1])[0]
    mel = normalise(engine.embedder.mel(pcm))
    first, last = start // MEL_HOP, min(len(mel), end // MEL_HOP)
    if last - first < 5:
        raise EnrolRefused("too short: say the toast again")
    return Template.of(toast, mel[first:last], hidden, source)
