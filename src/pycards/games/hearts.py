"""Hearts (docs/hearts.rst), a game defined from a description
(:mod:`pycards.define`): four players, three cards passed left, right,
across or held, the two of clubs leads, hearts broken, every heart a point
against and the queen of spades thirteen, shooting the moon; the game ends
when a player reaches 100 points against.

>>> game = HeartsGame(num_players=4)
>>> state = game.new_initial_state(seed=3)
>>> len(state.legal_actions())  # three cards to pass, from 13
13
"""

from __future__ import annotations

from pycards.define import Passing, TrickGame
from pycards.engine import game_info

__all__ = ["DESCRIPTION", "EVENT_KINDS", "HeartsGame", "HeartsObservation", "HeartsRules"]

#: The rules of Hearts as a description (Hoyle's: Morehead, "Hoyle's Rules of Games").
DESCRIPTION = TrickGame(
    name="hearts",
    title="Hearts",
    players=4,
    deals=0,
    target=-100,
    passing=Passing(count=3, directions=(1, 3, 2, 0)),
    lead="card",
    lead_card="2C",
    break_suit="H",
    no_points_first_trick=True,
    card_points={"H": -1, "QS": -13},
    shoot_the_moon=True,
    preset="hoyle",
)
#: The game class (registered with the engine as ``"hearts"``).
HeartsGame = DESCRIPTION.register(__name__)
#: Its rules: ``first_dealer`` only.
HeartsRules = HeartsGame.RULES_TYPE
#: What one seat knows (docs/define.rst, "The observation").
HeartsObservation = HeartsGame.OBSERVATION_TYPE
#: The event kinds, by kind id.
EVENT_KINDS: tuple[str, ...] = game_info("hearts").event_names
