"""Whist (docs/whist.rst), a game defined from a description
(:mod:`pycards.define`): four players in two partnerships, the dealer's
last card turned for trumps, a point for each trick past six, five points
a game (short whist; honours are not scored).

>>> game = WhistGame(num_players=4)
>>> state = game.new_initial_state(seed=3)
>>> len(state.legal_actions())  # the first lead: any of 13 cards
13
"""

from __future__ import annotations

from pycards.define import TrickGame
from pycards.engine import game_info

__all__ = ["DESCRIPTION", "EVENT_KINDS", "WhistGame", "WhistObservation", "WhistRules"]

#: The rules of short Whist as a description (Cavendish, "The Laws and Principles of Whist").
DESCRIPTION = TrickGame(
    name="whist",
    title="Whist",
    players=4,
    partners=True,
    deals=0,
    target=5,
    trump="dealer_card",
    trick_points=1,
    book=6,
    preset="cavendish",
)
#: The game class (registered with the engine as ``"whist"``).
WhistGame = DESCRIPTION.register(__name__)
#: Its rules: ``first_dealer`` only.
WhistRules = WhistGame.RULES_TYPE
#: What one seat knows (docs/define.rst, "The observation").
WhistObservation = WhistGame.OBSERVATION_TYPE
#: The event kinds, by kind id.
EVENT_KINDS: tuple[str, ...] = game_info("whist").event_names
