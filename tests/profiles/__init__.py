"""One module per game, named after it, each setting ``PROFILE``: what the
shared tests need to know of that game (see ``tests/_games.py``)."""
