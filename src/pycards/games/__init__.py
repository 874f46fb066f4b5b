"""The games: one facade module per game of the engine.

Each module ``pycards.games.<name>`` (the engine's name of the game) holds
the game's rules dataclass with its presets, its observation, its text views
and its helpers (``nodde``, ``notakers``, ``nancy``, ``cribbage``), over the
generic layer of :mod:`pycards.game`; ``cribbage_table`` is cribbage's
discard table.  A module registers its game when it is imported, and
:func:`pycards.game.load_game` finds every game by name, so nothing needs to
import these modules by hand.
"""
