"""Atomic file writes: a reader sees the old file or the new one, never half of either.

The one home of "write to a temporary file in the same folder, flush, fsync, rename over": the
recorded answers, the run state handed to xdist workers and the HTML report all write this way.
A failed write (full disk, a kill between the steps) leaves no temporary file behind. And the
reading of a file a user names (:func:`read_text`): a regular file, to a bound.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["write_atomic", "not_a_file", "replace_file", "read_text", "same_file", "NotAFileError"]


class NotAFileError(OSError):
    """The path to write is no place for a file (:func:`not_a_file`)."""


def write_atomic(
    path: str | os.PathLike[str], text: str | Iterable[str], *, mode: int | None = None, durable: bool = True
) -> Path:
    """Write ``text`` (UTF-8; or its pieces, one after another) to ``path`` atomically; parent
    folders are created. Pieces are written as they come: a large page is never joined in memory.

    ``mode`` sets the file's permissions (a temporary file is private, ``0o600``, by default).
    ``durable=False`` skips the fsync: still atomic for readers, but not across a power cut.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "a" / "b.txt", "hello").read_text()
    'hello'
    >>> sorted(p.name for p in (folder / "a").iterdir())  # no temporary file left
    ['b.txt']
    """
    target = Path(path)
    why = not_a_file(target)
    if why:
        raise NotAFileError(f"{target}: {why}")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for piece in [text] if isinstance(text, str) else text:
                fh.write(piece)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        replace_file(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return target


def not_a_file(path: Path) -> str | None:
    """Why ``path`` is no place for a file written whole, or ``None``: an existing folder, or a
    device, pipe or socket. Renaming over ``/dev/null`` would put a regular file in its place for
    the whole machine; a symlink is replaced itself, never what it points to."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"it cannot be looked at ({exc.strerror or exc})"
    if stat.S_ISDIR(st.st_mode):
        return "it is a folder"
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        return "it is not a regular file (a device, a pipe or a socket)"
    return None


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether ``a`` and ``b`` name one file: the same path once resolved (``x``, ``./x`` and a
    link to it), or, where both exist, one file on disk (a hard link, a case-insensitive file
    system). An output written over one of a command's inputs (or over its other output) would
    destroy it: such a pair is refused before anything is written."""
    try:
        if Path(a).resolve() == Path(b).resolve():
            return True
    except (OSError, RuntimeError):  # a loop of symlinks: its samefile below says
        pass
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them does not exist (yet), or holds a NUL
        return False


def replace_file(tmp: str | os.PathLike[str], target: Path) -> None:
    """Rename ``tmp`` over ``target``, unless ``target`` has become something no file may replace
    since it was checked (:func:`not_a_file`)."""
    why = not_a_file(target)
    if why:
        raise NotAFileError(f"{target}: {why}")
    os.replace(tmp, target)


def read_text(path: Path, limit: int) -> str:
    """The UTF-8 text of the regular file at ``path`` (or a link to one), of at most ``limit`` bytes.

    A pipe would wait for a writer and ``/dev/zero`` never end, so neither is opened.

    Raises
    ------
    FileNotFoundError
        When there is nothing at ``path``.
    OSError
        When it cannot be read, is no regular file or is larger than ``limit`` bytes (saying which).
    UnicodeDecodeError
        When it is not UTF-8.
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError("it is not a regular file (a folder, a device, a pipe or a socket)")
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"it is larger than the {limit:,} bytes such a file may have")
    return data.decode("utf-8")
