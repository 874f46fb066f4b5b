"""Environments for learning and search: pycards games in other ecosystems.

Each adapter lives in its own module and needs its ecosystem installed (an
optional extra of the ``pycards`` distribution); importing this package
imports none of them:

* :mod:`pycards.envs.pettingzoo` (extra ``pettingzoo``): PettingZoo AEC
  environments for every game and player count;
* :mod:`pycards.envs.gymnasium` (extra ``gymnasium``): a single-agent
  Gymnasium environment, the other seats played by built-in bots;
* :mod:`pycards.envs.vector` (numpy only): N games stepped in C by one call;
* :mod:`pycards.envs.openspiel` (extra ``openspiel``): every game registered
  with ``pyspiel`` as a Python game.

The helpers here are shared by all of them.
"""

from pycards.envs._common import make_game, observation_bounds

__all__ = ["make_game", "observation_bounds"]
