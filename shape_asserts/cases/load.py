"""Case files (TOML) → checked :class:`~shape_asserts.cases.model.Case` objects.

Every case is resolved to its family and checked as it loads, so a mistake in a case file is a
:class:`~shape_asserts.exceptions.CaseError` naming the file, the case and the key — never a
model's failure at judge time:

- an unknown family;
- an unknown or ill-typed parameter: the family's ``params`` checks the parameters it knows,
  asking for each by name, so a key it never asks for is unknown;
- an unknown or ill-typed threshold, checked against the family's thresholds dataclass;
- a bad prompt: a prompt is one text, ``seed:circle-N``, or a table of ``ru``/``en`` texts;
- a ``grid_size`` that is not a whole number from 1 to :data:`MAX_GRID_SIZE` (a grid of a billion
  cells would hang the reference drawer and the report long before any model is asked);
- a number that is not finite (``nan``, ``inf``) anywhere in a case table: TOML allows them, and a
  model would otherwise be asked for "a circle of radius nan";
- values nested deeper than :data:`MAX_NESTING` (no case needs more than a list of points).
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from shape_asserts.cases.expand import expand_matrix
from shape_asserts.cases.model import CASE_ID_RE, Case
from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import Family, with_overrides
from shape_asserts.families.prompts import LANGS, SEED_CIRCLE_PROMPTS
from shape_asserts.families.registry import get_family
from shape_asserts.fileio import read_text
from shape_asserts.geometry.drawing import MAX_POINTS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["BENCHMARK", "load_cases", "builtin_case_files", "builtin_cases", "MAX_GRID_SIZE"]

#: Largest ``grid_size`` a case may ask for: 20 times the seed's 50×50 grid. The parser refuses
#: drawings of over 10,000 points, so a bigger grid could not be drawn in full anyway.
MAX_GRID_SIZE = 1_000

#: Largest case file read: some 50,000 cases; a bigger one is more likely ``/dev/zero`` than cases.
MAX_CASE_FILE_BYTES = 16 * 2**20

#: Deepest nesting of lists and tables a case table may hold (a list of [x, y] points is 2 deep).
MAX_NESTING = 8

_BUILTIN_DIR = Path(__file__).parent
#: The benchmark matrix's folder under the built-in cases, and the tag (and marker) of its cases.
BENCHMARK = "benchmark"

#: Keys of a case table that are not the family's parameters.
_RESERVED = {"id", "family", "thresholds", "tags", "prompt", "description"}

#: ``prompt = "seed:circle-N"`` asks the seed post's N-th prompt verbatim.
_SEED_PROMPT = re.compile(r"seed:circle-(\d+)")


def builtin_case_files(*, benchmark: bool = False) -> list[Path]:
    """The case files shipped with the package, in load order; ``benchmark`` adds the benchmark
    matrix's (``benchmark/*.toml``, after the others: run with ``-m benchmark``)."""
    files = sorted(_BUILTIN_DIR.glob("*.toml"))
    return files + (sorted((_BUILTIN_DIR / BENCHMARK).glob("*.toml")) if benchmark else [])


@functools.cache
def builtin_cases() -> tuple[Case, ...]:
    """The built-in cases, loaded once per process (for lookups that must not read files twice)."""
    return tuple(load_cases())


def _freeze(d: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType({k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()})


def _given_prompts(value: Any, where: str) -> tuple[dict[str, str] | None, int | None]:
    """A case's ``prompt`` value → (texts by language, or None for the family's) and a seed number."""
    if value is None:
        return None, None
    if isinstance(value, str):
        seed = _SEED_PROMPT.fullmatch(value)
        if value.startswith("seed:circle-"):
            if seed is None or int(seed[1]) not in SEED_CIRCLE_PROMPTS:
                raise CaseError(
                    f"{where}: prompt {value!r} names no seed prompt; known: "
                    f"{', '.join(f'seed:circle-{n}' for n in sorted(SEED_CIRCLE_PROMPTS))}"
                )
            return None, int(seed[1])
        if not value.strip():
            raise CaseError(f"{where}: 'prompt' is empty; give the text, or leave it out for the family's prompt")
        return {lang: value for lang in LANGS}, None
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(LANGS))
        if unknown:
            raise CaseError(
                f"{where}: unknown prompt language{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(repr(k) for k in unknown)}; known: {', '.join(LANGS)}"
            )
        for lang, text in value.items():
            if not isinstance(text, str) or not text.strip():
                raise CaseError(f"{where}: prompt.{lang} must be the prompt's text, got {text!r}")
        if not value:
            raise CaseError(f"{where}: 'prompt' is an empty table; give {' and '.join(LANGS)} texts")
        return dict(value), None
    raise CaseError(
        f"{where}: 'prompt' must be a text, 'seed:circle-N' or a table of {'/'.join(LANGS)} texts, got {value!r}"
    )


class _Asked(dict[str, Any]):
    """A case's parameters that note which keys the family's ``params`` asks for by name.

    A family's ``params`` reads every parameter it accepts (``p.get(k)``, ``p[k]``, ``k in p``) to
    check it, so a key it never asks for is one it does not know. Copying (``dict(p)``) asks for
    nothing; going through every key (``items()``, ``keys()``, ``values()``) tells nothing, and then
    no key is reported.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.asked: set[str] = set()
        self.listed = False

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def keys(self) -> Any:
        self.listed = True
        return super().keys()

    def items(self) -> Any:
        self.listed = True
        return super().items()

    def values(self) -> Any:
        self.listed = True
        return super().values()


def _check_grid_size(raw: Mapping[str, Any], where: str) -> None:
    """CaseError unless a given ``grid_size`` is a whole number from 1 to :data:`MAX_GRID_SIZE`."""
    if "grid_size" not in raw:
        return
    g = raw["grid_size"]
    if isinstance(g, bool) or not isinstance(g, int) or not 1 <= g <= MAX_GRID_SIZE:
        raise CaseError(f"{where}: 'grid_size' must be a whole number from 1 to {MAX_GRID_SIZE:,}, got {g!r}")


def _params(fam: Family, raw: Mapping[str, Any], seed: int | None, where: str) -> dict[str, Any]:
    """The family's completed parameters for a case table; CaseError for an unknown or bad key."""
    _check_grid_size(raw, where)
    given = {k: v for k, v in raw.items() if k not in _RESERVED}
    params = _Asked(given)
    if seed is not None:
        params["seed_prompt"] = seed
    if raw.get("description") is not None:
        params["description"] = str(raw["description"])
    try:
        done = fam.params(params)
    except CaseError as exc:
        # a misspelt key often shows as the real one missing ('start_vertx' → 'start' is required)
        absent = sorted(params.asked - set(params))
        typos = [
            (k, close[0])
            for k in sorted(set(given) - params.asked)
            if (close := difflib.get_close_matches(k, absent, n=1))
        ]
        hint = "".join(f"; {k!r} is not a parameter of the {fam.name} family: did you mean {m!r}?" for k, m in typos)
        raise CaseError(f"{where}: {exc}{hint}") from None
    # a typo ('radus') would otherwise load fine and leave the family asking something else
    unknown = [] if params.listed else sorted(set(given) - params.asked)
    if unknown:
        known = sorted(params.asked - {"seed_prompt"})
        close = difflib.get_close_matches(unknown[0], known, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise CaseError(
            f"{where}: unknown parameter{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(k) for k in unknown)} for the {fam.name} family; {hint}"
            f"it reads: {', '.join(known)}"
        )
    return dict(done)


def _thresholds(fam: Family, raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A case's threshold overrides, checked against the family's thresholds dataclass."""
    thresholds = raw.get("thresholds") or {}
    if not isinstance(thresholds, dict):
        raise CaseError(f"{where}: 'thresholds' must be a table")
    if fam.thresholds is None:
        if thresholds:
            raise CaseError(
                f"{where}: the {fam.name} family has no thresholds to override; "
                f"remove {', '.join(repr(k) for k in sorted(thresholds))}"
            )
        return {}
    # a typo or a wrong type here would otherwise surface at judge time, as the model's failure
    try:
        with_overrides(fam.thresholds, thresholds)
    except ValueError as exc:
        raise CaseError(f"{where}: {exc}") from None
    return dict(thresholds)


def _check_values(value: Any, key: str, where: str, depth: int = 0) -> None:
    """CaseError for a number that is not finite, or a value nested deeper than :data:`MAX_NESTING`."""
    if depth > MAX_NESTING:
        raise CaseError(f"{where}: {key!r} is nested more than {MAX_NESTING} deep; no case parameter needs that")
    if isinstance(value, float) and not math.isfinite(value):
        raise CaseError(f"{where}: {key!r} is {value!r}; give a finite number")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_values(v, f"{key}.{k}", where, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_values(v, f"{key}[{i}]", where, depth + 1)


def _make_case(raw: Mapping[str, Any], source: str) -> Case:
    cid = raw.get("id")
    if not isinstance(cid, str) or not CASE_ID_RE.match(cid):
        raise CaseError(f"{source}: case id {cid!r} must match {CASE_ID_RE.pattern}")
    # a recording is named <id>.json, and <id>.<lang>.json for a --lang other than the default:
    # "x.en" would share its file with case "x" under --lang en, each run calling the other's corrupt
    lang = next((lang for lang in LANGS if cid.endswith(f".{lang}")), None)
    if lang is not None:
        base = cid[: -len(lang) - 1]
        raise CaseError(
            f"{source}: case id {cid!r} ends in '.{lang}', which names the --lang {lang} recording of case "
            f"{base!r}: rename it (e.g. {base + '-' + lang!r})"
        )
    where = f"{source}: case {cid}"
    for key, value in raw.items():
        _check_values(value, key, where)
    try:
        fam = get_family(str(raw.get("family", "")))
    except CaseError as exc:
        raise CaseError(f"{where}: {exc}") from None
    given, seed = _given_prompts(raw.get("prompt"), where)
    params = _params(fam, raw, seed, where)
    thresholds = _thresholds(fam, raw, where)
    tags = raw.get("tags", ())
    if not isinstance(tags, (list, tuple)):
        raise CaseError(f"{where}: 'tags' must be a list of words, got {tags!r}")
    case = Case(
        id=cid,
        family=fam.name,
        params=_freeze(params),
        thresholds=thresholds,
        tags=tuple(str(t) for t in tags),
        source=source,
        resolved=fam,
    )
    prompts = given if given is not None else {lang: fam.prompt(case, lang) for lang in LANGS}
    if seed is not None and prompts["ru"] != SEED_CIRCLE_PROMPTS[seed]:
        raise CaseError(
            f"{where}: prompt 'seed:circle-{seed}' is a seed circle prompt, which the {fam.name} "
            "family does not ask; leave 'prompt' out, or give the text"
        )
    object.__setattr__(case, "prompts", MappingProxyType(prompts))
    return case


def _check_drawable(case: Case, source: str) -> None:
    """CaseError unless the case's own ideal drawing fits in an answer (:data:`MAX_POINTS`): a
    spiral of many turns on a grid of 1,000 asks more points than any answer may hold, and no
    model, the exact reference drawer included, could pass it."""
    points = len(case.ideal())
    if points > MAX_POINTS:
        raise CaseError(
            f"{source}: case {case.id}: its exact drawing has {points:,} points, more than an answer may "
            f"hold ({MAX_POINTS:,}): no model could draw it; ask a smaller shape or a smaller grid"
        )


def _same_question(case: Case) -> str:
    p = {k: v for k, v in case.params.items() if k != "seed_prompt"}
    return json.dumps([case.family, p], sort_keys=True, default=str)


def _read(path: Path, source: str) -> list[Mapping[str, Any]]:
    """The raw case tables of one file, matrices expanded, in order."""
    try:
        doc = tomllib.loads(read_text(path, MAX_CASE_FILE_BYTES))
    except FileNotFoundError:
        raise CaseError(f"case file {path} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CaseError(f"case file {path} could not be read: {exc}") from None
    except RecursionError:  # the TOML parser recurses once per level of nested arrays or tables
        raise CaseError(f"case file {path} nests its values too deep to read; no case needs that") from None
    for key in doc:  # a misspelt table ([[cases]]) would otherwise load as no case, without a word
        if key not in ("case", "matrix"):
            close = difflib.get_close_matches(key, ["case", "matrix"], n=1)
            hint = f" (did you mean [[{close[0]}]]?)" if close else ""
            raise CaseError(
                f"{source}: unknown table or key {key!r}{hint}; a case file holds [[case]] and [[matrix]] tables"
            )
    raws: list[Mapping[str, Any]] = []
    for kind in ("case", "matrix"):
        tables = doc.get(kind, [])
        # `[case]` instead of `[[case]]` parses as one table, whose keys would be read as cases
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise CaseError(f"{source}: '{kind}' must be an array of tables, written [[{kind}]]")
        for raw in tables:
            raws.extend([raw] if kind == "case" else expand_matrix(raw, source))
    return raws


def load_cases(
    paths: Iterable[str | Path] | None = None, *, builtin: bool = True, benchmark: bool = False
) -> list[Case]:
    """Cases from the built-in files and ``paths``, in order, first of equal questions winning
    among the built-in files; a case of ``paths`` asking a question asked before is an error.

    ``benchmark`` adds the built-in benchmark matrix (cases tagged ``benchmark``) after the other
    built-in files.

    Raises
    ------
    CaseError
        For an unreadable file, a malformed table, an unknown family, parameter, threshold or
        prompt key, or a duplicate id — naming the file and the case.
    """
    files: list[Path] = list(builtin_case_files(benchmark=benchmark)) if builtin else []
    files += [Path(p) for p in (paths or [])]
    cases: list[Case] = []
    ids: dict[str, str] = {}
    questions: dict[str, Case] = {}
    for path in files:
        builtin_dir = path.parent == _BUILTIN_DIR or path.parent == _BUILTIN_DIR / BENCHMARK
        source = "builtin:" + path.relative_to(_BUILTIN_DIR).as_posix() if builtin_dir else str(path)
        for raw in _read(path, source):
            case = _make_case(raw, source)
            if not builtin_dir:
                _check_drawable(case, source)
            key = _same_question(case)
            if key in questions:
                if builtin_dir:
                    continue  # the benchmark's matrix meets a built-in case: one question, asked once
                first = questions[key]
                raise CaseError(
                    f"{source}: case {case.id} asks the same question as {first.id} ({first.source}), and a run "
                    "asks each question once (its thresholds would be ignored); change its parameters or drop it"
                )
            if case.id in ids:
                raise CaseError(f"{source}: case id {case.id} is already defined in {ids[case.id]}")
            ids[case.id] = source
            questions[key] = case
            cases.append(case)
    return cases
