"""Spades (docs/spades.rst), a game defined from a description
(:mod:`pycards.define`): four players in two partnerships, spades always
trumps and not led until broken, each player bids his tricks (0 is nil),
a side scores ten a trick bid when it makes its bid and a point an
overtrick, loses ten a trick bid when set, a hundred for ten overtricks
(bags); a nil is worth a hundred; 500 points a game, lost at -200.

>>> game = SpadesGame(num_players=4)
>>> state = game.new_initial_state(seed=3)
>>> len(state.legal_actions())  # bids of 0 (nil) to 13
14
"""

from __future__ import annotations

from pycards.define import Bidding, Contract, TrickGame
from pycards.engine import game_info

__all__ = ["DESCRIPTION", "EVENT_KINDS", "SpadesGame", "SpadesObservation", "SpadesRules"]

#: The rules of Spades as a description (Parlett, "The Penguin Book of Card Games").
DESCRIPTION = TrickGame(
    name="spades",
    title="Spades",
    players=4,
    partners=True,
    deals=0,
    target=500,
    floor=-200,
    trump="fixed",
    trump_suit="S",
    break_suit="S",
    bidding=Bidding(nil=True),
    contract=Contract(
        kind="at_least",
        made_per_bid=10,
        set_per_bid=-10,
        over_per_trick=1,
        bag_limit=10,
        bag_penalty=-100,
        nil_bonus=100,
    ),
    preset="parlett",
)
#: The game class (registered with the engine as ``"spades"``).
SpadesGame = DESCRIPTION.register(__name__)
#: Its rules: ``first_dealer`` only.
SpadesRules = SpadesGame.RULES_TYPE
#: What one seat knows (docs/define.rst, "The observation").
SpadesObservation = SpadesGame.OBSERVATION_TYPE
#: The event kinds, by kind id.
EVENT_KINDS: tuple[str, ...] = game_info("spades").event_names
