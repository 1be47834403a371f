"""Errors the harness raises, each naming what was wrong and how to fix it."""

from __future__ import annotations

__all__ = [
    "ShapeAssertsError",
    "DrawingFormatError",
    "FixtureError",
    "ProviderError",
    "Unreachable",
    "CaseError",
]


class ShapeAssertsError(Exception):
    """Base class of every error this package raises on purpose."""


class DrawingFormatError(ShapeAssertsError, ValueError):
    """A model's answer could not be read as a drawing (the model failed the format)."""


class FixtureError(ShapeAssertsError):
    """A recorded answer is missing, stale or corrupt (the harness cannot replay it)."""


class ProviderError(ShapeAssertsError):
    """The model could not be asked: missing key, authentication, outage, exhausted retries."""


class Unreachable(ProviderError):
    """No connection could be opened to the model's server (refused, unresolved), every attempt.

    ``reason`` is the message without the model and the attempts: what a case not asked after it is told.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[type[Unreachable], tuple[str, str]]:
        return type(self), (str(self), self.reason)


class CaseError(ShapeAssertsError, ValueError):
    """A case definition (built in or from a user's file) is invalid."""
