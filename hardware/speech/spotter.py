"""The toast spotter: a small network over pre-trained speech embeddings, run as audio arrives.

Instead of waiting for a stretch of speech to end and then decoding it, the spotter scores the
last two seconds of audio every 80 ms:

1. a log-mel spectrogram (32 bands, 10 ms frames) and Google's ``speech_embedding`` network turn
   each 0.78 s of audio into a 96-number embedding, one every 80 ms. Both ship as ONNX files in
   the ``openwakeword`` wheel (its ``resources/models``); this module runs them with
   onnxruntime and uses nothing else of that package. The embedding was trained on a great deal
   of real speech, which is what lets a classifier trained on synthetic voices generalise. A
   live stream works each frame of each of its layers out once (:class:`EmbeddingStream`), not
   the whole 0.78 s window every step;
2. small two-layer networks (weights in ``lexicons/spotter-<lang>*.npz``, trained by ``make
   spotter`` on synthetic and neural voices that the benchmark does not report on), averaged,
   read the last ``window`` embeddings and give the probability of "no toast" and of each
   toast *ending just now*;
3. a toast is heard when its probability is at least its threshold (``thresholds``, one per
   toast, else the one ``threshold``) on ``confirm`` steps in a row (one step alone is often a
   flicker of babble), unless the stretch it covers holds one pitch frame after frame like a
   string of beeps (``steady_veto``, :mod:`hardware.speech.steady`); the spotter then cannot
   fire again for ``refractory_s``.

So a toast is decided about 0.1-0.2 s after it ends whether or not the room goes quiet, which a
decoder that waits for silence cannot do in babble.  The batch entry point (:meth:`classify`)
runs the very same stream over an array, so a file and the live microphone give the same result.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hardware.speech.audio import RATE, to_float
from hardware.speech.enrol import Enrolment
from hardware.speech.heard import Heard, SpeechModelError
from hardware.speech.lexicon import LEXICON_DIR, Lexicon, load_lexicon
from hardware.speech.steady import steady_share
from hardware.speech.vad import VoiceActivity

MEL_HOP = 160  # samples per mel frame
MEL_WIN = 512  # samples under one mel frame
EMB_FRAMES = 76  # mel frames under one embedding
EMB_HOP = 8  # mel frames between embeddings (80 ms)
EMB_DIM = 96
STEP = EMB_HOP * MEL_HOP  # samples between two decisions (1280 = 80 ms)
#: samples from an embedding's first sample to its last: (76 - 1) * 160 + 512
EMB_SPAN = (EMB_FRAMES - 1) * MEL_HOP + MEL_WIN


def feature_models_dir() -> Path:
    """Where the ``openwakeword`` wheel keeps the mel and embedding ONNX files."""
    try:
        import openwakeword
    except ImportError as err:
        raise SpeechModelError(
            "the toast spotter needs the openwakeword package (its speech-embedding model): "
            "`pip install openwakeword==0.4.0`") from err
    return Path(openwakeword.__file__).parent / "resources" / "models"


class Embedder:
    """The two ONNX feature networks, one thread each (they are small; threads fight on a Pi).
    ``whole=False`` keeps to the embedding network as shipped, one window at a time (for
    arrays and live streams alike)."""

    def __init__(self, models: Path | None = None, whole: bool = True) -> None:
        try:
            import onnxruntime as ort
        except ImportError as err:
            raise SpeechModelError("the toast spotter needs onnxruntime") from err
        models = models or feature_models_dir()
        opts = ort.SessionOptions()
        opts.inter_op_num_threads = 1
        opts.intra_op_num_threads = 1
        opts.log_severity_level = 3
        try:
            self._mel = ort.InferenceSession(str(models / "melspectrogram.onnx"), opts,
                                             providers=["CPUExecutionProvider"])
            self._emb = ort.InferenceSession(str(models / "embedding_model.onnx"), opts,
                                             providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime raises its own Fail/NoSuchFile errors
            raise SpeechModelError(f"the speech-embedding model in {models} is unusable: {err}"
                                   ) from err
        self._whole = None  # the same network over a whole spectrogram (see embeddings())
        graph = whole_sequence_graph(models / "embedding_model.onnx") if whole else None
        if graph is not None:
            try:
                self._whole = ort.InferenceSession(graph, opts, providers=["CPUExecutionProvider"])
            except Exception:  # noqa: BLE001 - not runnable here: the window-by-window path
                self._whole = None
        #: the network cut for live streams (:func:`streaming_stages`): session, input, stage
        self._stages: list[tuple[Any, str, Stage]] = []
        for stage in (streaming_stages(models / "embedding_model.onnx") or []) if whole else []:
            try:
                piece = ort.InferenceSession(stage.graph, opts, providers=["CPUExecutionProvider"])
            except Exception:  # noqa: BLE001 - not runnable here: window by window
                self._stages = []
                break
            self._stages.append((piece, piece.get_inputs()[0].name, stage))
        self._lock = threading.Lock()

    @property
    def streams(self) -> bool:
        """Whether a live stream works each frame out once (:class:`EmbeddingStream`) rather
        than each 76-frame window whole."""
        return bool(self._stages)

    @property
    def whole_sequence(self) -> bool:
        """Whether :meth:`embeddings` runs the network once over a whole spectrogram."""
        return self._whole is not None

    def mel(self, pcm: np.ndarray) -> np.ndarray:
        """Mel frames (n, 32) of int16-scaled samples: frame k covers samples [160k, 160k+512)."""
        if len(pcm) < MEL_WIN:
            return np.zeros((0, 32), np.float32)
        with self._lock:
            out = self._mel.run(None, {"input": pcm.astype(np.float32)[None]})[0]
        return np.asarray(out, np.float32).reshape(-1, 32) / 10.0 + 2.0

    def embed(self, windows: np.ndarray) -> np.ndarray:
        """Embeddings (n, 96) of mel windows (n, 76, 32)."""
        if len(windows) == 0:
            return np.zeros((0, EMB_DIM), np.float32)
        with self._lock:
            out = self._emb.run(None, {"input_1": windows.astype(np.float32)[..., None]})[0]
        return np.asarray(out, np.float32).reshape(-1, EMB_DIM)

    def embeddings(self, pcm: np.ndarray, batch: int | None = None) -> np.ndarray:
        """Every embedding of an int16 array (embedding j ends at sample ``j * 1280 +
        EMB_SPAN``): in one go, or ``batch`` embeddings at a time, so that a live stream sharing
        this embedder waits for one batch at most.  Where the whole-sequence network could be
        made (:func:`whole_sequence_graph`) it runs once over each piece's frames, which gives
        the very same numbers as window by window in about an eighth of the time."""
        spec = self.mel(pcm)
        n = (len(spec) - EMB_FRAMES) // EMB_HOP + 1
        if n <= 0:
            return np.zeros((0, EMB_DIM), np.float32)
        step = n if batch is None else batch
        if self._whole is not None:
            return np.concatenate([self._embed_frames(spec, i, min(step, n - i))
                                   for i in range(0, n, step)])
        idx = np.arange(EMB_FRAMES)[None, :] + EMB_HOP * np.arange(n)[:, None]
        return np.concatenate([self.embed(spec[idx[i: i + step]]) for i in range(0, n, step)])

    def _embed_frames(self, spec: np.ndarray, first: int, count: int) -> np.ndarray:
        """Embeddings ``first`` to ``first + count`` of a spectrogram, by the whole-sequence
        network over just the frames they cover."""
        assert self._whole is not None
        frames = spec[first * EMB_HOP: first * EMB_HOP + (count - 1) * EMB_HOP + EMB_FRAMES]
        with self._lock:
            out = self._whole.run(None, {"input_1": frames.astype(np.float32)[None, :, :, None]})[0]
        return np.asarray(out, np.float32).reshape(-1, EMB_DIM)[:count]


def whole_sequence_graph(path: Path) -> bytes | None:
    """The embedding network made to read a spectrogram of any length: its convolutions slide
    over time without padding and its pools stride 8 frames in all, the embeddings' hop, so run
    over ``76 + 8 (n - 1)`` frames it gives the ``n`` embeddings of the windows 8 frames apart,
    each computed exactly as in its own window.  Two edits: the reshape after the input's
    padding copies the frame count instead of fixing 76, and the last reshape (channels, time)
    becomes a transpose (time, channels).  None when the ``onnx`` package is missing or the
    graph is not the one expected (then :class:`Embedder` goes window by window)."""
    model = _whole_sequence_model(path)
    return None if model is None else bytes(model.SerializeToString())


def _whole_sequence_model(path: Path) -> Any:
    """:func:`whole_sequence_graph`'s model, not yet serialised (None where it cannot be made)."""
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        return None
    try:
        model = onnx.load(str(path))
        graph = model.graph
        shapes = {i.name: i for i in graph.initializer}
        first, last = graph.node[1], graph.node[-1]
        if (first.op_type != "Reshape" or last.op_type != "Reshape"
                or numpy_helper.to_array(shapes[first.input[1]]).tolist() != [-1, 1, 76, 34]
                or numpy_helper.to_array(shapes[last.input[1]]).tolist() != [-1, 1, 1, 96]):
            return None
        shapes[first.input[1]].CopyFrom(
            numpy_helper.from_array(np.array([0, 1, -1, 34], np.int64), first.input[1]))
        transpose = helper.make_node("Transpose", [last.input[0]], list(last.output),
                                     perm=[0, 2, 3, 1])
        graph.node.remove(last)
        graph.node.append(transpose)
        graph.initializer.remove(shapes[last.input[1]])
        graph.input[0].type.tensor_type.shape.dim[1].dim_param = "frames"
        graph.output[0].type.tensor_type.shape.dim[1].dim_param = "steps"
        return model
    except Exception:  # noqa: BLE001 - any surprise in the graph: the window-by-window path
        return None


#: operations that work on each frame of a layer alone
_FRAMEWISE_OPS = frozenset({"Relu", "LeakyRelu", "BatchNormalization", "Max", "Transpose"})


@dataclass(frozen=True)
class Stage:
    """One piece of the embedding network cut for streaming: ``context`` more input frames
    than it needs for its first output, ``stride`` input frames per output after that, time
    along ``axis`` of its input and output."""

    graph: bytes
    context: int
    stride: int
    axis: int


def streaming_stages(path: Path) -> list[Stage] | None:
    """The whole-sequence network (:func:`whole_sequence_graph`) cut after each pool that halves
    time: four pieces, each a few convolutions sliding over time without padding and at most one
    halving.  Fed the spectrogram 8 frames at a time (one embedding's hop), each piece is run only
    on its new frames and the few before them its kernels reach back to, so a live stream works
    out each frame of each layer once instead of every layer of a 76-frame window every step:
    the same numbers (the pools' pairs fall where they fall in a window, since windows start 8
    frames apart) in under half the time here (four small calls instead of one big one).  None
    where the graph is not as expected."""
    model = _whole_sequence_model(path)
    if model is None:
        return None
    try:
        from onnx import TensorProto, helper

        graph = model.graph
        inits = {i.name: i for i in graph.initializer}
        pieces: list[list[Any]] = [[]]
        for node in graph.node:
            pieces[-1].append(node)
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            if node.op_type == "MaxPool" and list(attrs["strides"])[0] == 2:
                if list(attrs["kernel_shape"])[0] != 2:
                    return None
                pieces.append([])
        stages: list[Stage] = []
        inp = graph.input[0].name
        for k, nodes in enumerate(pieces):
            context, stride = 0, 1
            for node in nodes:
                attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
                time_kernel = list(attrs.get("kernel_shape", [1]))[0]
                time_stride = list(attrs.get("strides", [1]))[0]
                time_pads = list(attrs.get("pads", [0, 0, 0, 0]))[::2]
                if node.op_type == "Conv" and time_stride == 1 and not any(time_pads):
                    context += time_kernel - 1
                elif node.op_type == "MaxPool" and time_stride == 2:
                    stride = 2  # the piece's last node (kernel 2: checked above)
                elif node.op_type == "MaxPool" and time_stride == time_kernel == 1:
                    pass  # pools the bands only
                elif node.op_type not in _FRAMEWISE_OPS and not (
                        k == 0 and node.op_type in ("Pad", "Reshape")):
                    return None  # something that mixes frames in a way not accounted for
            out = nodes[-1].output[0]
            used = {i for n in nodes for i in n.input if i in inits}
            dims = ["n", "a", "b", "c"]
            sub = helper.make_graph(
                nodes, f"stage{k}",
                [helper.make_tensor_value_info(inp, TensorProto.FLOAT, dims)],
                [helper.make_tensor_value_info(out, TensorProto.FLOAT, dims)],
                [inits[i] for i in sorted(used)])
            piece = helper.make_model(sub, opset_imports=model.opset_import,
                                      ir_version=model.ir_version)
            # time is the input's axis 1 (frames, bands, 1); after the first reshape, axis 2
            stages.append(Stage(bytes(piece.SerializeToString()), context, stride,
                                1 if k == 0 else 2))
            inp = out
        if [s.stride for s in stages] != [2, 2, 2, 1]:
            return None
        return stages
    except Exception:  # noqa: BLE001 - any surprise in the graph: window by window
        return None


class EmbeddingStream:
    """One live stream's embeddings, worked out as its mel frames arrive (:func:`streaming_stages`):
    push frames in order, get the embeddings whose windows they complete.  Embedding ``j`` is the
    one of frames ``[8j, 8j + 76)`` counted from the first frame pushed."""

    def __init__(self, embedder: "Embedder") -> None:
        assert embedder.streams
        self._embedder = embedder
        self._pending: list[np.ndarray | None] = [None] * len(embedder._stages)

    def push(self, mel: np.ndarray) -> np.ndarray:
        """Embeddings (n, 96) completed by mel frames (m, 32)."""
        x: np.ndarray = np.asarray(mel, np.float32)[None, :, :, None]
        for k, (session, name, stage) in enumerate(self._embedder._stages):
            held = self._pending[k]
            buf = x if held is None else np.concatenate([held, x], axis=stage.axis)
            n = (buf.shape[stage.axis] - stage.context) // stage.stride
            if n <= 0:
                self._pending[k] = buf
                return np.zeros((0, EMB_DIM), np.float32)
            take = [slice(None)] * buf.ndim
            take[stage.axis] = slice(0, n * stage.stride + stage.context)
            with self._embedder._lock:
                x = session.run(None, {name: buf[tuple(take)]})[0]
            take[stage.axis] = slice(n * stage.stride, None)
            self._pending[k] = buf[tuple(take)]
        return np.asarray(x, np.float32).reshape(-1, EMB_DIM)


@dataclass(frozen=True)
class Net:
    """The classifier: standardise, ReLU layers, softmax over "none" + the toasts."""

    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    @classmethod
    def load(cls, path: Path) -> "Net":
        try:
            with np.load(path) as z:
                n = 1
                layers = []
                while f"w{n}" in z:
                    layers.append((np.asarray(z[f"w{n}"], np.float32),
                                   np.asarray(z[f"b{n}"], np.float32)))
                    n += 1
                net = cls(np.asarray(z["mean"], np.float32), np.asarray(z["scale"], np.float32),
                          tuple(layers))
        except FileNotFoundError as err:
            raise SpeechModelError(f"spotter weights {path} do not exist") from err
        except (KeyError, ValueError, OSError) as err:
            raise SpeechModelError(f"spotter weights {path} are unreadable: {err}") from err
        shapes = [net.mean.shape[0]] + [w.shape[1] for w, _ in net.layers]
        if not net.layers or any(w.shape[0] != shapes[i] or b.shape != (w.shape[1],)
                                 for i, (w, b) in enumerate(net.layers)):
            raise SpeechModelError(f"spotter weights {path} have inconsistent shapes")
        return net

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    @property
    def classes(self) -> int:
        return int(self.layers[-1][0].shape[1])

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities and the last hidden layer's activations for each row of flattened
        embedding windows."""
        h = (x - self.mean) / self.scale
        for w, b in self.layers[:-1]:
            h = np.maximum(h @ w + b, 0.0)
        w, b = self.layers[-1]
        z = h @ w + b
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True), h

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities for each row of flattened embedding windows."""
        return self.forward(x)[0]


class Ensemble:
    """Several networks trained on differently mixed data; their probabilities are averaged
    (a flicker one of them sees in babble rarely fools the other)."""

    def __init__(self, nets: list[Net]) -> None:
        if not nets:
            raise SpeechModelError("the toast spotter has no weights")
        if len({(n.inputs, n.classes) for n in nets}) != 1:
            raise SpeechModelError("the toast spotter's networks differ in inputs or classes")
        self.nets = nets

    @property
    def inputs(self) -> int:
        return self.nets[0].inputs

    @property
    def classes(self) -> int:
        return self.nets[0].classes

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """The members' class probabilities, averaged."""
        return np.mean([n.probabilities(x) for n in self.nets], axis=0)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The averaged probabilities, and what the networks heard: each member's last hidden
        layer at unit length, side by side, the whole at unit length (what enrolment compares;
        trained to tell the toasts apart in noise, it is steadier than the sound's own frames)."""
        out = [n.forward(x) for n in self.nets]
        feats = [h / (np.linalg.norm(h, axis=1, keepdims=True) + 1e-6) for _, h in out]
        return (np.mean([p for p, _ in out], axis=0),
                (np.concatenate(feats, axis=1) / np.sqrt(len(feats))).astype(np.float32))

    def features(self, x: np.ndarray) -> np.ndarray:
        """What the networks heard in each row (:meth:`forward`'s second half)."""
        return self.forward(x)[1]

    @property
    def feature_width(self) -> int:
        """How many numbers :meth:`features` gives a row (each member's last hidden layer)."""
        return int(self.features(np.zeros((1, self.inputs), np.float32)).shape[1])


@dataclass(frozen=True)
class Spot:
    """One toast fired by a :class:`SpotStream`: sample positions in that stream."""

    toast: str
    start: int
    end: int
    probability: float


class SpotStream:
    """Feed int16 blocks in order; get the toasts as they are spotted.

    Positions are sample counts since the stream's first sample.  The end of a toast is the end
    of the window that fired it; its start is where the voice detector heard that speech begin
    (bounded to ``max_word_s`` before the end).
    """

    def __init__(self, engine: "SpotterEngine") -> None:
        self.engine = engine
        self._audio = np.zeros(0, np.int16)  # not yet turned into mel frames
        self._audio_at = 0  # stream position of _audio[0]
        embedder = engine.embedder
        self._emb_stream = EmbeddingStream(embedder) if embedder.streams else None
        self._mel = np.zeros((0, 32), np.float32)  # recent mel frames (window by window only)
        self._mel_at = 0  # frame index of _mel[0] (streaming: of the next frame)
        self._next_emb = 0  # index of the next embedding to compute
        self._embs: list[np.ndarray] = []
        self._recent_p: list[np.ndarray] = []  # the last ``confirm`` steps' probabilities
        self._quiet_until = -1  # position before which no toast may fire again
        self._vad = VoiceActivity()
        self._onsets: list[int] = []  # recent speech onsets heard by the detector
        self._heard = np.zeros(0, np.int16)  # the last few seconds fed, ending at ``position``
        self._keep = int((engine.max_word_s + 0.5) * RATE) if engine.steady_veto else 0

    @property
    def position(self) -> int:
        """Samples fed so far."""
        return self._audio_at + len(self._audio)

    def feed(self, block: np.ndarray) -> list[Spot]:
        """Add a block of int16 samples; the toasts that fired in it."""
        block = np.asarray(block, np.int16).reshape(-1)
        if len(block) == 0:
            return []
        self._track_onsets(block)
        self._audio = np.concatenate([self._audio, block])
        if self._keep:
            self._heard = np.concatenate([self._heard, block])[-self._keep:]
        # nothing to decide before the next embedding's last frame (each step's frames at once:
        # a handful of network calls a step rather than a handful a block)
        if self.position < self._next_emb * STEP + EMB_SPAN:
            return []
        # whole mel frames now computable: frame k needs samples up to 160k + 512
        first = self._mel_at + len(self._mel)
        last = (self.position - MEL_WIN) // MEL_HOP
        seg = self._audio[first * MEL_HOP - self._audio_at: last * MEL_HOP + MEL_WIN - self._audio_at]
        new = self.engine.embedder.mel(seg)
        keep_from = (last + 1) * MEL_HOP - self._audio_at
        self._audio_at += keep_from
        self._audio = self._audio[keep_from:]
        if self._emb_stream is not None:  # each frame worked out once
            self._mel_at += len(new)
            embs = self._emb_stream.push(new)
        else:  # each 76-frame window whole
            self._mel = np.concatenate([self._mel, new])
            embs = self._window_embeddings()
        ends = (self._next_emb + np.arange(len(embs))) * STEP + EMB_SPAN
        self._next_emb += len(embs)
        return self._decide(embs, ends)

    def _track_onsets(self, block: np.ndarray) -> None:
        self._vad.feed(to_float(block))
        start = self._vad.speech_start
        if start is not None and (not self._onsets or self._onsets[-1] != start):
            self._onsets.append(start)
            self._onsets = self._onsets[-16:]

    def _window_embeddings(self) -> np.ndarray:
        """The embeddings of the whole windows now in ``_mel``, each window computed whole."""
        windows: list[np.ndarray] = []
        first = self._next_emb
        while True:
            lo = (first + len(windows)) * EMB_HOP - self._mel_at
            if lo + EMB_FRAMES > len(self._mel):
                break
            windows.append(self._mel[lo: lo + EMB_FRAMES])
        if not windows:
            return np.zeros((0, EMB_DIM), np.float32)
        drop = (first + len(windows)) * EMB_HOP - self._mel_at
        self._mel = self._mel[drop:]
        self._mel_at += drop
        return self.engine.embedder.embed(np.stack(windows))

    def _decide(self, embs: np.ndarray, ends: np.ndarray) -> list[Spot]:
        """Each new embedding's step: the networks' verdict on the last ``window`` of them."""
        spots: list[Spot] = []
        net, k = self.engine.net, self.engine.window
        enrolment = self.engine.enrolment
        for emb, end in zip(embs, ends.tolist()):
            self._embs.append(emb)
            if len(self._embs) > k:
                del self._embs[0]
            if len(self._embs) < k:
                continue
            x = np.concatenate(self._embs)[None]
            p, heard = net.forward(x)
            self._recent_p = (self._recent_p + [p[0]])[-self.engine.confirm:]
            if len(self._recent_p) < self.engine.confirm:
                continue
            p = np.min(self._recent_p, axis=0)
            best = fires(p, self.engine.thresholds)
            if enrolment is not None:  # this table's toasts: heard, or an unsure toast vetoed
                best = enrolment.decide(best, p, heard[0], self.engine.toasts)
            if not best or end < self._quiet_until:
                continue
            start = self._start_of(end)
            if not self._steady(start, end):
                self._quiet_until = end + int(self.engine.refractory_s * RATE)
                spots.append(Spot(self.engine.toasts[best - 1], start, end, float(p[best])))
        return spots

    def _steady(self, start: int, end: int) -> bool:
        """Whether the stretch from ``start`` to ``end`` holds one pitch like a beep, not a
        voice (:mod:`hardware.speech.steady`; never when the lexicon sets no ``steady_veto``)."""
        veto = self.engine.steady_veto
        if not self._keep or veto is None:
            return False
        heard_at = self.position - len(self._heard)
        share = steady_share(self._heard[max(0, start - heard_at): max(0, end - heard_at)])
        return share is not None and share >= veto

    def _start_of(self, end: int) -> int:
        """Where the toast ending at ``end`` began: the last speech onset before it."""
        earliest = end - int(self.engine.max_word_s * RATE)
        before = [s for s in self._onsets if s < end - int(0.15 * RATE)]
        guess = before[-1] if before else end - int(0.6 * RATE)
        return max(guess, earliest)


class SpotterEngine:
    """The toast spotter as an engine: ``classify`` for arrays, ``stream`` for live audio."""

    name = "spotter"
    streaming = True

    def __init__(self, lexicon: str | Path = "spotter-en", *, threshold: float | None = None,
                 embedder: Embedder | None = None) -> None:
        self.lexicon: Lexicon = load_lexicon(lexicon)
        extra: dict[str, Any] = self.lexicon.extra
        self.toasts: tuple[str, ...] = tuple(extra.get("classes", [e.toast for e in
                                                                   self.lexicon.entries]))
        weights = extra.get("weights", f"{self.lexicon.engine}-{self.lexicon.language}.npz")
        lex_path = Path(lexicon)
        base = lex_path.parent if lex_path.suffix else LEXICON_DIR
        files = [Path(str(w)) for w in (weights if isinstance(weights, list) else [weights])]
        self.net = Ensemble([Net.load(f if f.is_absolute() else base / f) for f in files])
        self.window = int(extra.get("window", 16))
        self.threshold = float(threshold if threshold is not None else extra.get("threshold", 0.5))
        per_toast = {} if threshold is not None else dict(extra.get("thresholds") or {})
        if set(per_toast) - set(self.toasts):
            raise SpeechModelError(f"spotter thresholds for toasts it does not know: "
                                   f"{sorted(set(per_toast) - set(self.toasts))}")
        #: each class's least firing probability now (index 0, "no toast", never fires): the
        #: lexicon's, but for the toasts :meth:`expect` listens for
        self.thresholds = np.array([np.inf] + [float(per_toast.get(t, self.threshold))
                                               for t in self.toasts], np.float32)
        self.base_thresholds = self.thresholds.copy()
        """The lexicon's thresholds, when no toast is expected."""
        expected = {} if threshold is not None else dict(extra.get("expected_thresholds") or {})
        if set(expected) - set(self.toasts):
            raise SpeechModelError(f"spotter expected_thresholds for toasts it does not know: "
                                   f"{sorted(set(expected) - set(self.toasts))}")
        bad = {t: v for t, v in expected.items()
               if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1}
        if bad:
            raise SpeechModelError(f"spotter expected_thresholds must be probabilities in (0, 1]: {bad}")
        #: each class's threshold while it is a word the game waits for (never above its own)
        self.expected_thresholds = np.minimum(self.base_thresholds, np.array(
            [np.inf] + [float(expected.get(t, np.inf)) for t in self.toasts], np.float32))
        self.refractory_s = float(extra.get("refractory_s", 1.0))
        self.confirm = max(1, int(extra.get("confirm", 1)))
        self.max_word_s = float(extra.get("max_word_s", 1.5))
        veto = extra.get("steady_veto")
        if veto is not None and (isinstance(veto, bool) or not isinstance(veto, (int, float))
                                 or not 0 < veto <= 1):
            raise SpeechModelError(f"spotter steady_veto must be a share in (0, 1] or absent, "
                                   f"not {veto!r}")
        #: a toast whose stretch holds one pitch for at least this share of its steps is a beep
        #: (:mod:`hardware.speech.steady`); None: no such veto
        self.steady_veto: float | None = None if veto is None else float(veto)
        if self.net.inputs != self.window * EMB_DIM or self.net.classes != len(self.toasts) + 1:
            raise SpeechModelError(
                f"spotter weights expect {self.net.inputs} inputs and {self.net.classes} classes; "
                f"the lexicon says {self.window} embeddings and {len(self.toasts)} toasts")
        self.embedder = embedder or Embedder()
        self.enrolment: Enrolment | None = None
        """This table's toasts (:mod:`hardware.speech.enrol`); None: the network alone decides."""

    def fires(self, p: np.ndarray) -> int:
        """The toast one step's probabilities ``p`` fire (0: none): of the toasts at or above
        their own thresholds, the most probable."""
        return fires(p, self.thresholds)

    def expect(self, words: Collection[str] | None) -> None:
        """Listen for ``words`` (toast ids) at their ``expected_thresholds``: the game waits for
        one of them (a card's drinker's toast), so any other toast, or none, is the same mistake,
        and only these need telling from look-alikes. None or empty: every toast at its own
        threshold again. Safe from another thread than the one feeding a stream: the thresholds
        are swapped whole."""
        wanted = frozenset(words or ())
        unknown = wanted - set(self.toasts)
        if unknown:
            raise ValueError(f"expect: {sorted(unknown)} are not toasts of this spotter "
                             f"({', '.join(self.toasts)})")
        thr = self.base_thresholds.copy()
        for i, t in enumerate(self.toasts, 1):
            if t in wanted:
                thr[i] = self.expected_thresholds[i]
        self.thresholds = thr

    def stream(self) -> SpotStream:
        """A fresh stream to feed live audio to."""
        return SpotStream(self)

    def windows(self, samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every step's network input over an array (after the same lead-in as :meth:`classify`)
        and where each step ends, in samples of the array: what enrolment learns from."""
        pcm = np.asarray(samples, np.int16).reshape(-1)
        lead = quiet_part(pcm, int(LEAD_S * RATE))
        emb = self.embedder.embeddings(np.concatenate([lead, pcm, quiet_part(pcm, int(TAIL_S * RATE))]),
                                       batch=LEARN_BATCH)
        k = self.window
        if len(emb) < k:
            return np.zeros((0, k * EMB_DIM), np.float32), np.zeros(0, np.int64)
        x = np.stack([emb[j - k + 1: j + 1].reshape(-1) for j in range(k - 1, len(emb))])
        ends = np.arange(k - 1, len(emb)) * STEP + EMB_SPAN - len(lead)
        return x, ends

    def classify(self, samples: np.ndarray) -> list[Heard]:
        """Every toast spotted in 16 kHz mono int16 ``samples`` (times relative to them).

        Live, the stream has been running for minutes when a toast comes; an array starts
        cold.  So the array is preceded by ``LEAD_S`` of its own quietest part (the room before
        anyone spoke) and followed by ``TAIL_S`` of it, so that a toast at either edge is judged
        as it would be live.
        """
        pcm = np.asarray(samples, np.int16).reshape(-1)
        lead = quiet_part(pcm, int(LEAD_S * RATE))
        s = self.stream()
        s.feed(lead)
        spots: list[Spot] = []
        for i in range(0, len(pcm), STEP):
            spots += s.feed(pcm[i: i + STEP])
        spots += s.feed(quiet_part(pcm, int(TAIL_S * RATE)))
        n0 = len(lead)
        return [Heard(sp.toast, max(0, sp.start - n0) / RATE, min(sp.end - n0, len(pcm)) / RATE,
                      round(sp.probability, 3)) for sp in spots]


LEAD_S = 1.6
TAIL_S = 0.4
#: embedding windows per network pass when learning a toast (a live stream waits for one at most)
LEARN_BATCH = 16


def fires(p: np.ndarray, thresholds: np.ndarray) -> int:
    """The class one step's probabilities ``p`` fire under per-class ``thresholds`` (index 0,
    "no toast", is never fired): of the toasts at or above their thresholds, the most probable;
    0 when none is."""
    over = p[1:] >= thresholds[1:]
    if not over.any():
        return 0
    return int(np.argmax(np.where(over, p[1:], -1.0))) + 1


def quiet_part(pcm: np.ndarray, n: int, piece_s: float = 0.5) -> np.ndarray:
    """``n`` samples made of the quietest ``piece_s`` of ``pcm`` played forwards, backwards,
    forwards... (no clicks at the joins, and no short loop the features could latch on to); a
    faint hiss when the array is too short or silent (exact zeros upset the features)."""
    piece = int(piece_s * RATE)
    if len(pcm) >= piece:
        hop = piece // 4
        k = (len(pcm) - piece) // hop + 1
        c = np.concatenate([[0.0], np.cumsum(pcm.astype(np.float64) ** 2)])
        power = c[np.arange(k) * hop + piece] - c[np.arange(k) * hop]
        at = int(np.argmin(power)) * hop
        quiet = pcm[at: at + piece]
        if float(np.abs(quiet).max(initial=0)) > 2:
            there_and_back = np.concatenate([quiet, quiet[::-1]])
            return np.tile(there_and_back, n // len(there_and_back) + 1)[:n].astype(np.int16)
    rng = np.random.default_rng(len(pcm))
    return np.clip(rng.normal(0, 3, n), -32768, 32767).astype(np.int16)


def save_net(path: Path, net: Net) -> None:
    """Write the classifier's weights (float32): mean, scale, w1, b1, w2, b2..."""
    arrays: dict[str, Any] = {"mean": net.mean, "scale": net.scale}
    for n, (w, b) in enumerate(net.layers, 1):
        arrays[f"w{n}"], arrays[f"b{n}"] = w, b
    np.savez_compressed(path, **arrays)
