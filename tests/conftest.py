"""The registered games as fixtures (``tests/_games.py`` builds them from the
game modules; parametrize with ``_games.game_params()``)."""

from __future__ import annotations

import pytest
from _games import GAMES, GameCase


@pytest.fixture(params=list(GAMES), ids=list(GAMES))
def game_case(request: pytest.FixtureRequest) -> GameCase:
    """Each registered game in turn."""
    case: GameCase = GAMES[request.param]
    return case
