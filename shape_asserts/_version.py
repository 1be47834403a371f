"""The package version (its one home; the facade and the CLI show it)."""

__version__ = "0.1.0"
