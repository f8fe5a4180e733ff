"""The package version: a leaf module, so that anything may import it without importing the package's front door."""

__version__ = "0.1.0"
