"""Errors the harness raises, each naming what was wrong and how to fix it."""

from __future__ import annotations

__all__ = [
    "ShapeAssertsError",
    "DrawingFormatError",
    "FixtureError",
    "ProviderError",
    "ModelUnavailable",
    "CaseError",
    "ModelConfigError",
]


class ShapeAssertsError(Exception):
    """Base class of every error this package raises on purpose."""


class DrawingFormatError(ShapeAssertsError, ValueError):
    """A model's answer could not be read as a drawing (the model failed the format)."""


class FixtureError(ShapeAssertsError):
    """A recorded answer is missing, stale or corrupt (the harness cannot replay it)."""


class ProviderError(ShapeAssertsError):
    """The model could not be asked: missing key, authentication, outage, exhausted retries."""

    #: Whether the last attempt may still be billed (it timed out, or its connection broke after
    #: the request went out): ``--max-cost`` then counts it at its call's worst case.
    maybe_billed: bool = False


class ModelUnavailable(ProviderError):
    """Every call to this model would fail as this one did: no connection to its server, a key it
    refuses, a model or provider it does not know. The run asks the model nothing more.

    ``reason`` completes "an earlier call …" for the cases not asked after it.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[type[ModelUnavailable], tuple[str, str]]:
        return type(self), (str(self), self.reason)


class CaseError(ShapeAssertsError, ValueError):
    """A case definition (built in or from a user's file) is invalid."""


class ModelConfigError(ShapeAssertsError, ValueError):
    """An argument for the provider (``--model-arg``) or a model configuration (``--shape-models``)
    is malformed, unknown or a secret."""
