"""Sphinx configuration for the pycards documentation."""

from pycards import __version__ as release  # the one version: src/pycards/_version.py

project = "pycards"
author = "pycards developers"
copyright = "2026, pycards developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
nitpicky = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
suppress_warnings = ["ref.python"]
