"""Typed errors. Library code raises these; only the CLI turns them into exit codes."""

from __future__ import annotations

from typing import Any

from pp_graph.urls import without_userinfo


def _restore(cls: type[BaseException], args: tuple[Any, ...]) -> BaseException:
    """Rebuild an error without calling its ``__init__`` (whose parameters differ from ``args``); its fields come
    back from the pickled ``__dict__``."""
    err = cls.__new__(cls)
    err.args = args
    return err


class PPGraphError(Exception):
    """Base class of every error pp-graph raises on purpose. Survives pickling with its message and fields, so an
    error raised in a worker process reaches the parent as itself (not as a broken pool)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (type(self), self.args), self.__dict__


class InputError(PPGraphError):
    """A policy file (or other input) cannot be used; names the input and the problem."""

    def __init__(self, source: str, problem: str) -> None:
        # A URL's user information (a password, a token) is never repeated in a message.
        source, problem = without_userinfo(source), without_userinfo(problem)
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem


class DataFileError(PPGraphError):
    """A bundled data file (lexicon, table, prompt, query) is malformed."""


class VocabularyError(PPGraphError):
    """A term is not in the vocabulary it claims to be from."""


class GroundingError(PPGraphError):
    """A span does not match the source text at its offsets."""


class ConfigError(PPGraphError):
    """An option or configuration value is wrong."""


class PlaneError(PPGraphError):
    """The privacy data plane refused an input: an untyped value, a missing label, a scope violation."""


class ContractError(PlaneError):
    """A contract file is malformed; names the file and the key."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        super().__init__(f"{source}: [{key}] {problem}")
        self.source = source
        self.key = key
        self.problem = problem


class LedgerError(PlaneError):
    """The ledger database cannot be read or written (corrupt file, wrong schema, bad checkpoint)."""


class ProofError(LedgerError):
    """A Merkle inclusion or consistency proof does not verify (or is malformed)."""


class ModelError(PPGraphError):
    """A learned-model folder is missing, incomplete, or does not match its manifest."""


class ModelUnavailable(ModelError):
    """The sequence model file is missing, unreadable or does not match its recorded digest."""


class ModelMismatch(ModelUnavailable):
    """An input the model was trained on (its spaCy pipeline, whose labels are features) differs from the one
    installed: its answers would change silently, so it is refused."""


class OutputError(PPGraphError):
    """An output file or folder cannot be written; names it and the reason. Every further write would fail
    the same way, so a batch stops at the first one (``fatal``)."""

    fatal = True

    def __init__(self, target: str, problem: str) -> None:
        super().__init__(f"{target}: {problem}")
        self.target = target
        self.problem = problem


class QueryTimeout(PPGraphError):
    """A query ran past its time limit (``--timeout``); names the query and the limit."""

    def __init__(self, what: str, seconds: float) -> None:
        super().__init__(
            f"{what}: stopped after the time limit of {seconds:g} s; narrow the query, add a LIMIT, or raise --timeout"
        )
        self.what = what
        self.seconds = seconds


class StageContractError(Exception):
    """A backend returned output not aligned with the segments (a bug in the backend, not in the input)."""
