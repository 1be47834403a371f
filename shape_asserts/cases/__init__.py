"""Cases: a prompt plus its expectations, loaded from TOML data files.

Built-in cases live in ``shape_asserts/cases/*.toml``; users add their own files with
``--shape-cases FILE`` (or the ``shape_cases`` ini setting) without writing Python. A file holds
``[[case]]`` tables (one case each) and ``[[matrix]]`` tables (a family, fixed parameters, and lists
of start angles and directions that expand into one case each). A matrix may instead carry a
``vary`` table — each key a list of values, or a table of ``label = value`` — expanding into the
cartesian product, with each key's label (the value itself, or its label; ``[10, 10]`` → ``10-10``)
filling ``{key}`` in the id template. When two cases would ask the same
question (same family and parameters), the first one wins, so the seed's verbatim cases replace
their twins in the generated matrix.

Case ids are stable, readable and filesystem-safe: ``circle-start330-cw``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from shape_asserts.exceptions import CaseError
from shape_asserts.families.prompts import LANGS
from shape_asserts.geometry.raster import point_on_circle
from shape_asserts.families.registry import get_family
from shape_asserts.families.base import with_overrides

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["Case", "load_cases", "builtin_case_files", "case_for_prompt", "CASE_ID_RE"]

#: Ids are used as file names and test ids: lowercase letters, digits, '-', '_' and '.'.
CASE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")

_BUILTIN_DIR = Path(__file__).parent

#: Every prompt of every loaded case → the case (the reference drawer answers from this).
_BY_PROMPT: dict[str, "Case"] = {}
#: Whether the built-in cases are in ``_BY_PROMPT`` (a user-only load must not hide them).
_BUILTIN_LOADED = False


@dataclass(frozen=True, eq=False)
class Case:
    """One question to a model and what a good answer must satisfy."""

    id: str
    family: str
    params: Mapping[str, Any]
    thresholds: Mapping[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    source: str = "builtin"
    prompts: Mapping[str, str] = field(default_factory=dict)
    _hashes: dict[str, str] = field(default_factory=dict, repr=False)

    def prompt(self, lang: str = "ru") -> str:
        """The prompt text in ``lang``."""
        if lang not in self.prompts:
            raise CaseError(f"case {self.id} has no prompt in {lang!r}")
        return self.prompts[lang]

    def messages(self, lang: str = "ru") -> list[dict[str, str]]:
        """Chat messages sent to the model: the prompt as one user message, as in the seed."""
        return [{"role": "user", "content": self.prompt(lang)}]

    def prompt_hash(self, lang: str = "ru") -> str:
        """SHA-256 of the exact messages sent; a recording made for other messages is stale."""
        cached = self._hashes.get(lang)
        if cached is None:
            blob = json.dumps(self.messages(lang), ensure_ascii=False, sort_keys=True)
            cached = self._hashes[lang] = hashlib.sha256(blob.encode("utf-8")).hexdigest()
        return cached

    @property
    def grid_size(self) -> int:
        return int(self.params.get("grid_size", 50))

    @property
    def variant(self) -> str:
        """What distinguishes this case inside its group (e.g. start and direction)."""
        fam = get_family(self.family)
        return ", ".join(f"{k}={_show(self.params.get(k))}" for k in fam.variant_keys)

    @property
    def group(self) -> str:
        """Cases asking the same thing but for the variant keys share a group (for stability)."""
        fam = get_family(self.family)
        fixed = {k: v for k, v in self.params.items() if k not in fam.variant_keys and k != "seed_prompt"}
        return f"{self.family}:{json.dumps(fixed, sort_keys=True, default=str)}"

    def ideal(self):
        """The ideal drawing of this case, as ordered points (N, 2)."""
        return get_family(self.family).ideal(self)

    def score(self, drawing):
        """Score a parsed drawing against this case."""
        return get_family(self.family).score(drawing, self)


def _show(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "(" + ",".join(_show(x) for x in v) + ")"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def builtin_case_files() -> list[Path]:
    """The case files shipped with the package, in load order."""
    return sorted(_BUILTIN_DIR.glob("*.toml"))


def _freeze(d: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType({k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()})


_RESERVED = {"id", "family", "thresholds", "tags", "prompt", "description"}


def _make_case(raw: Mapping[str, Any], source: str) -> Case:
    cid = raw.get("id")
    if not isinstance(cid, str) or not CASE_ID_RE.match(cid):
        raise CaseError(f"{source}: case id {cid!r} must match {CASE_ID_RE.pattern}")
    try:
        fam = get_family(str(raw.get("family", "")))
    except CaseError as exc:
        raise CaseError(f"{source}: case {cid}: {exc}") from None
    params = {k: v for k, v in raw.items() if k not in _RESERVED}
    prompt = raw.get("prompt")
    if isinstance(prompt, str) and prompt.startswith("seed:circle-"):
        params["seed_prompt"] = int(prompt.rsplit("-", 1)[1])
        prompt = None
    if raw.get("description") is not None:
        params["description"] = str(raw["description"])
    try:
        params = fam.params(params)
    except CaseError as exc:
        raise CaseError(f"{source}: case {cid}: {exc}") from None
    thresholds = raw.get("thresholds") or {}
    if not isinstance(thresholds, dict):
        raise CaseError(f"{source}: case {cid}: 'thresholds' must be a table")
    if fam.thresholds is not None:
        # a typo or a wrong type here would otherwise surface at judge time, as the model's failure
        try:
            with_overrides(fam.thresholds, thresholds)
        except ValueError as exc:
            raise CaseError(f"{source}: case {cid}: {exc}") from None
    tags = tuple(str(t) for t in raw.get("tags", ()))
    case = Case(id=cid, family=fam.name, params=_freeze(params), thresholds=dict(thresholds),
                tags=tags, source=source)
    if isinstance(prompt, dict):
        prompts = {lang: str(prompt[lang]) for lang in LANGS if lang in prompt}
    elif isinstance(prompt, str):
        prompts = {lang: prompt for lang in LANGS}
    else:
        prompts = {lang: fam.prompt(case, lang) for lang in LANGS}
    object.__setattr__(case, "prompts", MappingProxyType(prompts))
    return case


def _expand_matrix(raw: Mapping[str, Any], source: str) -> Iterable[dict[str, Any]]:
    template = raw.get("id")
    if not isinstance(template, str):
        raise CaseError(f"{source}: a [[matrix]] needs an 'id' template such as 'circle-start{{angle:03d}}-{{direction}}'")
    if "vary" in raw:
        yield from _expand_vary(raw, template, source)
        return
    angles = raw.get("angles") or []
    directions = raw.get("directions") or ["cw"]
    if "center" not in raw or "radius" not in raw:
        raise CaseError(f"{source}: matrix {template}: needs 'center' and 'radius' to place start points")
    # the radius only places the start points: the prompt lets the model choose it, as the seed does
    base = {k: v for k, v in raw.items() if k not in ("angles", "directions", "id", "radius")}
    for angle in angles:
        for direction in directions:
            case = dict(base)
            case["start"] = list(point_on_circle(tuple(raw["center"]), raw["radius"], angle))
            case["direction"] = direction
            try:
                case["id"] = template.format(angle=int(angle), direction=direction, **{
                    k: v for k, v in raw.items() if isinstance(v, (int, float, str))})
            except (KeyError, ValueError) as exc:
                raise CaseError(f"{source}: matrix id template {template!r}: {exc}") from None
            yield case


def _label(value: Any, where: str) -> Any:
    """How a varied value appears in an id: itself if scalar, numbers joined by '-' if a list."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, list) and value and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
        return "-".join(str(_label(x, where)) for x in value)
    raise CaseError(f"{where}: value {value!r} has no name for the id; give the list as a table "
                    "of label = value, e.g. {{ tl = [10, 10] }}")


def _expand_vary(raw: Mapping[str, Any], template: str, source: str) -> Iterable[dict[str, Any]]:
    """A matrix's ``vary`` table → one case per combination of its values (cartesian product)."""
    where = f"{source}: matrix {template}"
    vary = raw["vary"]
    if "angles" in raw or "directions" in raw:
        raise CaseError(f"{where}: give either 'angles'/'directions' (circle start points) or 'vary', not both")
    if not isinstance(vary, dict) or not vary:
        raise CaseError(f"{where}: 'vary' must be a table of lists or of label = value tables")
    axes: list[tuple[str, list[tuple[Any, Any]]]] = []
    for name, values in vary.items():
        if isinstance(values, dict):
            options = [(label, value) for label, value in values.items()]
        elif isinstance(values, list):
            options = [(_label(value, f"{where}: vary.{name}"), value) for value in values]
        else:
            raise CaseError(f"{where}: vary.{name} must be a list or a table of label = value, got {values!r}")
        if not options:
            raise CaseError(f"{where}: vary.{name} is empty")
        axes.append((name, options))
    base = {k: v for k, v in raw.items() if k not in ("vary", "id")}
    scalars = {k: v for k, v in raw.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    for combo in itertools.product(*(options for _, options in axes)):
        case = dict(base)
        labels = {}
        for (name, _), (label, value) in zip(axes, combo):
            case[name] = value
            labels[name] = label
        try:
            case["id"] = template.format(**{**scalars, **labels})
        except (KeyError, ValueError, IndexError) as exc:
            raise CaseError(f"{source}: matrix id template {template!r}: {exc!r}") from None
        yield case


def _same_question(case: Case) -> str:
    p = {k: v for k, v in case.params.items() if k != "seed_prompt"}
    return json.dumps([case.family, p], sort_keys=True, default=str)


def load_cases(paths: Iterable[str | Path] | None = None, *, builtin: bool = True) -> list[Case]:
    """Cases from the built-in files and ``paths``, in order, first of equal questions winning.

    Raises
    ------
    CaseError
        For an unreadable file, a malformed table, an unknown family or a duplicate id — naming the
        file and the case.
    """
    global _BUILTIN_LOADED
    files: list[Path] = list(builtin_case_files()) if builtin else []
    files += [Path(p) for p in (paths or [])]
    cases: list[Case] = []
    ids: dict[str, str] = {}
    questions: set[str] = set()
    for path in files:
        source = "builtin:" + path.name if path.parent == _BUILTIN_DIR else str(path)
        try:
            doc = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CaseError(f"case file {path} does not exist") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise CaseError(f"case file {path} could not be read: {exc}") from None
        raws: list[dict[str, Any]] = []
        for kind in ("case", "matrix"):
            tables = doc.get(kind, [])
            # `[case]` instead of `[[case]]` parses as one table, whose keys would be read as cases
            if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
                raise CaseError(f"{source}: '{kind}' must be an array of tables, written [[{kind}]]")
            for raw in tables:
                raws.extend([raw] if kind == "case" else _expand_matrix(raw, source))
        for raw in raws:
            case = _make_case(raw, source)
            key = _same_question(case)
            if key in questions:
                continue
            if case.id in ids:
                raise CaseError(f"{source}: case id {case.id} is already defined in {ids[case.id]}")
            ids[case.id] = source
            questions.add(key)
            cases.append(case)
    for case in cases:
        for text in case.prompts.values():
            _BY_PROMPT.setdefault(text, case)
    if builtin:
        _BUILTIN_LOADED = True
    return cases


def case_for_prompt(text: str) -> Case | None:
    """The loaded case whose prompt is exactly ``text`` (loads the built-in cases on first use)."""
    if not _BUILTIN_LOADED:
        load_cases()
    return _BY_PROMPT.get(text)
