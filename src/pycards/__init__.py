"""pycards: an embeddable card-game engine with a C core.

The public API: cards and card sets (:mod:`pycards.cards`), combination
primitives (:mod:`pycards.combos`), the numpy batch API (:mod:`pycards.batch`),
the generic game/state protocol (:mod:`pycards.game`) and one module per game.
"""

from pycards._version import __version__
from pycards.cards import (
    Card,
    CardSet,
    NancyCard,
    NancyCardSet,
    deal,
    parse_cards,
    parse_nancy_cards,
    shuffled_deck,
)
from pycards.errors import IllegalActionError, InvalidCardError, PycardsError, RulesError
from pycards.playouts import Playouts, random_playouts

__all__ = [
    "Card",
    "CardSet",
    "IllegalActionError",
    "InvalidCardError",
    "NancyCard",
    "NancyCardSet",
    "Playouts",
    "PycardsError",
    "RulesError",
    "__version__",
    "deal",
    "parse_cards",
    "parse_nancy_cards",
    "random_playouts",
    "shuffled_deck",
]
