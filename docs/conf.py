"""Sphinx configuration for the pycards documentation."""

project = "pycards"
author = "pycards developers"
copyright = "2026, pycards developers"
release = "0.1.0"

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
