"""Oh Hell (docs/oh_hell.rst), a game defined from a description
(:mod:`pycards.define`): 3 to 7 players, hands of 7 cards down to 1 and up
to 7 again, the next card turned up for trumps, each player bids his
tricks (the dealer, last, may not make the bids total the tricks), a trick
a point and 10 more for the exact bid.

>>> game = OhHellGame(num_players=4)
>>> state = game.new_initial_state(seed=3)
>>> state.legal_actions()[:3]  # bids of 0, 1, 2 tricks
[52, 53, 54]
"""

from __future__ import annotations

from pycards.define import Bidding, Contract, TrickGame
from pycards.engine import game_info

__all__ = ["DESCRIPTION", "EVENT_KINDS", "OhHellGame", "OhHellObservation", "OhHellRules"]

#: The rules of Oh Hell as a description (Parlett, "The Penguin Book of Card Games").
DESCRIPTION = TrickGame(
    name="oh_hell",
    title="OhHell",
    players=(3, 7),
    hand_sizes=(7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7),
    deals=13,
    trump="turnup",
    bidding=Bidding(hook=True),
    contract=Contract(kind="exact", made_bonus=10),
    trick_points=1,
    trick_points_always=True,
    preset="parlett",
)
#: The game class (registered with the engine as ``"oh_hell"``).
OhHellGame = DESCRIPTION.register(__name__)
#: Its rules: ``first_dealer`` only.
OhHellRules = OhHellGame.RULES_TYPE
#: What one seat knows (docs/define.rst, "The observation").
OhHellObservation = OhHellGame.OBSERVATION_TYPE
#: The event kinds, by kind id.
EVENT_KINDS: tuple[str, ...] = game_info("oh_hell").event_names
