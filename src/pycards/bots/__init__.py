"""Bots: the protocol every bot follows, the built-in bots, and a registry by name.

A bot is given a :class:`~pycards.view.PlayerView` (what its seat may know)
and returns an action id.  :func:`make_bot` builds a bot from a spec string
such as ``"random"`` or ``"ismcts:simulations=1000"``; :func:`register_bot`
adds your own so the arena and the command line can seat it by name.
"""

from .base import Bot, RandomBot, bot_names, make_bot, parse_bot_spec, register_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "parse_bot_spec", "register_bot"]
