"""One plugin setting, as :data:`shape_asserts.plugin.options.OPTIONS` declares it: its flag, ini
twin, default, type and rules, and how its value is read, checked and cast for a run."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

__all__ = ["CASTS", "INI_TYPES", "Option", "finite", "http_url", "url_shown"]

#: What a value may be. ``names``, ``paths`` and ``pairs`` are repeatable on the command line and
#: one per line in the ini file; ``choice`` is a string from ``choices``; a ``flag`` is given bare or
#: true/false. ``pairs`` (``KEY=VALUE`` each) come ini first, then command line, so that a key given
#: on the command line wins over the ini's, key by key.
CASTS: dict[str, Callable[[str], Any]] = {
    "flag": lambda raw: bool(("false", "true").index(raw.lower())),  # anything else: ValueError
    "str": str,
    "choice": str,
    "path": str,
    "int": int,
    "float": float,
    "names": str,
    "paths": str,
    "pairs": str,
}
INI_TYPES: dict[str, Literal["linelist", "paths", "string"]] = {
    "names": "linelist",
    "paths": "paths",
    "pairs": "linelist",
}


@dataclass(frozen=True)
class Option:
    """One setting: its command-line flag, its ini twin, its default and the values it allows.

    ``ini`` is also the command-line option's ``dest``; ``field`` is the name :func:`resolve`
    returns the value under (the :class:`~shape_asserts.plugin.suite.Settings` field it fills).
    ``check`` tells whether a value of the right type is allowed, and ``allowed`` says which are,
    for the error message (``--samples must be a whole number ≥ 1, got 0``).
    """

    flag: str
    ini: str
    field: str
    kind: str
    help: str
    default: Any = None
    default_text: str = ""
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    check: Callable[[Any], bool] | None = None
    allowed: str = ""
    base: str = "rootdir"
    #: A ``path`` that names a folder: one that exists as anything else is refused at start.
    folder: bool = False
    #: How an error message shows a refused value (:func:`url_shown` for a URL that may hold a token).
    shown: Callable[[Any], str] = str

    def __post_init__(self) -> None:
        if self.kind not in CASTS:
            raise ValueError(f"{self.flag}: kind must be one of {', '.join(CASTS)}, got {self.kind!r}")

    @property
    def repeatable(self) -> bool:
        return self.kind in ("names", "paths", "pairs")

    @property
    def allows(self) -> str:
        return f"one of {', '.join(self.choices)}" if self.choices else self.allowed

    @property
    def shown_default(self) -> str:
        """The default as ``--help`` and the README say it ('' when there is none)."""
        if self.default_text or self.default in (None, ()):
            return self.default_text
        return ", ".join(self.default) if isinstance(self.default, tuple) else str(self.default)

    @property
    def help_text(self) -> str:
        """The help ``pytest --help`` shows: the README's, plus what the README says in other columns."""
        text = self.help + ("; repeatable" if self.repeatable else "")
        return f"{text} (default: {self.shown_default})" if self.shown_default else text

    def value(self, config: pytest.Config) -> Any:
        """This setting's value for the run: checked, cast, paths made absolute."""
        given = config.getoption(self.ini)
        ini = config.getini(self.ini)
        if self.kind == "paths":  # the command line's files add to the ini's (already absolute)
            self._check(self.flag, given or [])
            return tuple(self._absolute(p, config, self.base) for p in (given or [])) + tuple(ini)
        if self.kind == "pairs":  # read as KEY=VALUE by what they configure, later ones winning
            self._check(self.flag, given or [])
            return tuple(ini) + tuple(given or [])
        if given is not None:
            name, value, base = self.flag, given, self.base
        elif ini not in ("", []):
            name, base = f"ini setting {self.ini}", "rootdir"
            value = ini if self.repeatable else self._cast(name, ini)
        else:
            name, value, base = "", self.default, "rootdir"
        if name:
            self._check(name, value)
        if self.kind == "names":
            return tuple(value)
        if self.kind == "path" and value is not None:
            path = self._absolute(value, config, base)
            if self.folder:
                self._check_folder(name or self.flag, path)
            return path
        return value

    def _cast(self, name: str, raw: str) -> Any:
        try:
            return CASTS[self.kind](raw.strip())
        except ValueError:
            raise pytest.UsageError(f"{name} must be {self.allows}, got {raw!r}") from None

    def _check(self, name: str, value: Any) -> None:
        items = list(value) if self.repeatable else [value]
        if CASTS[self.kind] is str and any(not str(v).strip() for v in items):
            raise pytest.UsageError(f"{name} needs {self.allows}, got an empty one")
        twice = sorted({v for v in items if items.count(v) > 1}) if self.kind == "names" else []
        if twice:
            raise pytest.UsageError(f"{name} names {', '.join(twice)} more than once; give each once")
        if self.choices and value not in self.choices:
            raise pytest.UsageError(f"{name} must be {self.allows}, got {value!r}")
        if self.check is not None and not self.check(value):
            raise pytest.UsageError(f"{name} must be {self.allows}, got {self.shown(value)}")

    @staticmethod
    def _check_folder(name: str, path: Path) -> None:
        """Refuse a folder path that is, or lies under, something other than a folder (a file):
        every read and write under it would fail, once per case."""
        for part in (path, *path.parents):
            if part.exists() or part.is_symlink():
                if part.is_dir():
                    return
                what = "a file" if part.is_file() else "not a folder"
                where = f"{part} is {what}" if part == path else f"{part}, on its way, is {what}"
                raise pytest.UsageError(
                    f"{name} must be a folder, but {where}: name a folder (one that does not exist yet is made)"
                )

    @staticmethod
    def _absolute(value: str | Path, config: pytest.Config, base: str) -> Path:
        path = Path(value)
        if path.is_absolute():
            return path
        return (Path(config.invocation_params.dir) if base == "cwd" else Path(config.rootpath)) / path


def finite(low: float, high: float = math.inf, *, above: bool = False) -> Callable[[Any], bool]:
    """A check: a finite number from ``low`` (or above it) to ``high``; NaN and infinity never pass."""
    return lambda v: math.isfinite(v) and (v > low if above else v >= low) and v <= high


def http_url(value: Any) -> bool:
    """A check: an ``http://`` or ``https://`` URL with a host, a port if any that reads, no
    ``user:password@`` (the HTTP client refuses one beside the provider's key, on every call) and
    no space or control character anywhere."""
    from urllib.parse import urlsplit

    text = str(value)
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        return False  # urlsplit strips a leading space the HTTP client then sends: "/%20http://…"
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises on a port that is no number, or out of range
    except ValueError:  # an unclosed IPv6 bracket, a bad port
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and parts.username is None


def url_shown(value: Any) -> str:
    """A URL as an error message shows it: up to its host and port, without ``user:password@``
    (that, a path or a query may hold a token); ``…`` where anything was left out.

    >>> url_shown("http://user:pw@127.0.0.1:8000/v1?key=abc")
    'http://127.0.0.1:8000…'
    >>> url_shown("http://[::1")
    'http://[::1'
    """
    text = str(value)
    head = re.match(r"([^:/?#]*:)?(//)?([^/?#]*)", text)
    assert head is not None  # every part may be empty: it always matches
    scheme, slashes, netloc = head.group(1) or "", head.group(2) or "", head.group(3)
    host = netloc.rpartition("@")[2]
    cut = len(text) > head.end() or host != netloc
    return f"{scheme}{slashes}{host}{'…' if cut else ''}"
