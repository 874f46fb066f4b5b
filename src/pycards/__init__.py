"""pycards: an embeddable card-game engine with a C core."""
from pycards.cards import (
    Card, CardSet, NancyCard, NancyCardSet, deal, parse_cards, parse_nancy_cards, shuffled_deck,
)
from pycards.errors import IllegalActionError, InvalidCardError, PycardsError, RulesError
