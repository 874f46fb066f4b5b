"""The registered games as fixtures (``tests/_games.py`` builds them from the
game modules; parametrize with ``_games.game_params()``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _games import GAMES, GameCase

from pycards import engine
from pycards.define import DefinedGame


@pytest.fixture(params=list(GAMES), ids=list(GAMES))
def game_case(request: pytest.FixtureRequest) -> GameCase:
    """Each registered game in turn."""
    case: GameCase = GAMES[request.param]
    return case


@pytest.fixture(autouse=True)
def _defined_games_stay_in_their_test() -> Iterator[None]:
    """Each test starts with the games of the test session (the built-in
    ones, and any a test module defined) and no port of :mod:`pycards.define`
    listed, and leaves them so, whatever another test (or the import of one)
    registered: a port asked for by name, or a description registered in the
    test, stays known to the engine, and a port to ``find_game``
    (``pycards.define`` keeps its class), but ``game_names()`` lists it only
    in the test that registered it."""

    def unlist(keep: set[str]) -> None:
        for name, cls in list(engine.registered_games().items()):
            if issubclass(cls, DefinedGame) and (name in engine._OFFERED or name not in keep):
                del engine._GAMES[name]

    unlist(set(engine.registered_games()))
    before = set(engine.registered_games())
    yield
    unlist(before)
