"""Every exception class pp-graph defines survives a pickle round trip with its message and fields: errors raised in
worker processes (convert --jobs) must reach the parent as themselves."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import pp_graph
from pp_graph.errors import OutputError


def _exception_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(pp_graph.__path__, "pp_graph."):
        if ".cli.__main__" in info.name:
            continue
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


CLASSES = _exception_classes()


def _instance(cls: type[BaseException]) -> BaseException:
    """An instance built through the class's own ``__init__``, a distinct value per parameter."""
    params = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name != "self"]
    args: list[Any] = []
    for i, p in enumerate(params):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            if not args and p.kind is p.VAR_POSITIONAL:
                args.append(f"message of {cls.__name__}")
            continue
        numeric = any(t in str(p.annotation) for t in ("int", "float"))
        args.append(400 + i if numeric else f"{p.name}-{i}")
    return cls(*args)


def test_the_walk_finds_the_known_classes() -> None:
    names = {c.__name__ for c in CLASSES}
    assert {"InputError", "ContractError", "OutputError", "LedgerError", "RemoteHTTPError", "CLIError"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_round_trip(cls: type[BaseException]) -> None:
    err = _instance(cls)
    err.__dict__.setdefault("extra_field", "kept")  # fields set after construction travel too
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls
    assert str(back) == str(err) and back.args == err.args
    assert back.__dict__ == err.__dict__


def _fail_writing(target: str) -> None:
    raise OutputError(target, "No space left on device")


def test_an_output_error_crosses_a_process_pool() -> None:
    with ProcessPoolExecutor(1) as pool, pytest.raises(OutputError) as info:
        pool.submit(_fail_writing, "out/a.ttl").result(timeout=60)
    assert info.value.target == "out/a.ttl" and info.value.problem == "No space left on device"
    assert str(info.value) == "out/a.ttl: No space left on device" and info.value.fatal
