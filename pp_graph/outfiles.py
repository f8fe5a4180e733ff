"""Writing output files: atomically (temporary file, then rename), with the permissions the umask gives.

``tempfile.mkstemp`` creates files 0600 whatever the umask, so a graph or report written through it was
unreadable to the group even where every other file the user writes is; the mode is set from the umask
before the rename. OS errors become OutputError naming the file and the reason, never a traceback.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from pp_graph.errors import OutputError


def _umask() -> int:
    # No call reads the umask without setting it; this sets it back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def output_mode() -> int:
    """The mode a new regular file gets under the current umask (0644 under the usual 022)."""
    return 0o666 & ~_umask()


def reason(e: OSError) -> str:
    if isinstance(e, NotADirectoryError):
        return "a parent of it is a file, not a folder"
    if isinstance(e, FileExistsError):
        return "exists and is not a folder"
    if isinstance(e, IsADirectoryError):
        return "is a folder"
    return e.strerror or str(e)


def ensure_dir(path: Path) -> None:
    """Create ``path`` (and parents) or raise OutputError saying why not."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(str(path), f"cannot create the output folder ({reason(e)})") from e
    if not path.is_dir():
        raise OutputError(str(path), "cannot create the output folder (exists and is not a folder)")
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(str(path), "the output folder is not writable (Permission denied)")


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write to a temporary file in the same folder, then rename: readers never see half a file."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    atomic_stream(path, lambda fh: fh.write(payload))


def atomic_stream(path: Path, fill: Callable[[BinaryIO], object]) -> None:
    """Like atomic_write, the bytes ``fill`` writes into the open file: a large graph streamed to disk, never
    held whole in memory beside its quads."""
    ensure_dir(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise OutputError(str(path), f"cannot be written ({reason(e)})") from e
    try:
        with os.fdopen(fd, "wb") as fh:
            fill(fh)
            fh.flush()
            os.fchmod(fh.fileno(), output_mode())
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(str(path), f"cannot be written ({reason(e)})") from e
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
