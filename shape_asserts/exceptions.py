"""Errors the harness raises, each naming what was wrong and how to fix it."""

from __future__ import annotations

__all__ = [
    "ShapeAssertsError",
    "DrawingFormatError",
    "FixtureError",
    "ProviderError",
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


class CaseError(ShapeAssertsError, ValueError):
    """A case definition (built in or from a user's file) is invalid."""
