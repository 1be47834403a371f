"""The run's arguments for the provider, read at start: ``--model-arg`` and the named configurations.

Read once, when pytest is configured, so that a mistake (a malformed ``KEY=VALUE``, a TOML error,
a table without ``model``, a secret) stops the run with one line naming the file or the argument
and the fix (exit 4), before anything is asked. What they mean and which wins:
:mod:`shape_asserts.asking.model_config`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shape_asserts.exceptions import ModelConfigError

# The parsing (and tomllib) is imported only by a run that has something to read: the plugin
# configures every pytest run where it is installed, most of which configure no model.

__all__ = ["configured", "near_misses", "provider_settings"]

#: The ini twin of ``--model-arg`` (the option's ``dest`` too).
MODEL_ARGS_INI = "shape_model_args"


def provider_settings(config: pytest.Config, models_file: Path | None) -> dict[str, Any]:
    """The :class:`~shape_asserts.plugin.suite.Settings` fields ``provider_args`` and ``configs``.

    ``--model-arg`` items come after the ini's, so a key given on the command line wins. The
    rootdir's ``pyproject.toml`` configurations come first, then ``models_file``'s (``--shape-models``,
    ini ``shape_models_file``), which win for a name defined in both.

    Raises
    ------
    pytest.UsageError
        Naming the argument or file that is wrong, and the fix.
    """
    ini, given = config.getini(MODEL_ARGS_INI), config.getoption(MODEL_ARGS_INI) or []
    pyproject = Path(config.rootpath) / "pyproject.toml"
    if not (ini or given or models_file is not None or _may_configure(pyproject)):
        return {"provider_args": {}, "configs": {}}
    from shape_asserts.asking.model_config import parse_model_args, read_models_file, read_pyproject

    try:
        model_args = parse_model_args(ini, f"ini setting {MODEL_ARGS_INI}")
        model_args.update(parse_model_args(given, "--model-arg"))
        configs = read_pyproject(pyproject)
        if models_file is not None:
            configs.update(read_models_file(models_file))
    except ModelConfigError as exc:
        raise pytest.UsageError(f"shape-asserts: {exc}") from None
    return {"provider_args": model_args, "configs": configs}


def _may_configure(pyproject: Path) -> bool:
    """Whether ``pyproject`` may hold ``[tool.shape-asserts.models]``: it names shape-asserts at all."""
    try:
        return b"shape-asserts" in pyproject.read_bytes()
    except OSError:
        return False  # none, or unreadable: pytest itself says so when it reads its ini there


def near_misses(models: tuple[str, ...], configs: dict[str, Any] | Any) -> str | None:
    """The run header's line for a ``--model`` that names no configuration but nearly does one (a
    typo: it would be asked as a litellm model of that name), or ``None``."""
    if not configs:
        return None
    import difflib

    said = []
    for model in models:
        if model in configs:
            continue
        close = difflib.get_close_matches(model, list(configs), n=1, cutoff=0.8)
        if close:
            said.append(f"{model} (did you mean {close[0]}?)")
    if not said:
        return None
    return (
        f"shape-asserts: {', '.join(said)} names no model configuration, so it is asked as a litellm model "
        f"of that name; configurations: {', '.join(configs)}"
    )


def configured(models: tuple[str, ...], configs: dict[str, Any] | Any) -> str | None:
    """The run header's line naming what each of the run's configurations asks, when its name is
    not its model (``gpt-4o = openai/gpt-4o-mini``): the summary, the gate and the recordings go
    by the name, and a name may read as another model's; ``None`` when there is none."""
    pairs = [f"{m} = {configs[m].model}" for m in models if m in configs and configs[m].model != m]
    if not pairs:
        return None
    return f"shape-asserts: model configurations (results and recordings go by the name): {'; '.join(pairs)}"
