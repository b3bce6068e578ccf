"""ginrules: Gin Rummy rules as data."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ginrules")
except PackageNotFoundError:  # running from a checkout that is not installed
    __version__ = "0.0.0"
