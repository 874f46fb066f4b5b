"""The version of pycards: the one place it is written (``pyproject.toml``
reads it, and :data:`pycards.__version__` is this)."""

__version__ = "0.1.0"
