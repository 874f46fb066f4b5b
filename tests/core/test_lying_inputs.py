"""Lying sequences handed to the binding (cardcore._core).

A sequence's ``len()`` is a claim, not a bound: a class whose ``__len__``
says one thing while its iterator yields another, or a list that grows while
it is read, must never decide how much the binding writes into a C buffer.
The binding reads such an argument once, with a bound, and validates what it
read: the outcome depends on the items yielded alone, as if the caller had
passed ``list(items)``.  (Before, a deck claiming 78 cards but yielding 4,000
ids overflowed a 256-byte stack buffer.)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from _games import GAMES
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import _core
from pycards.errors import InvalidCardError

#: the game of the tests that need one (any registered game does)
GAME = next(iter(GAMES))


class Liar(Sequence[Any]):
    """A sequence that yields ``items`` and claims to hold ``claimed`` of them."""

    def __init__(self, items: Sequence[Any], claimed: int) -> None:
        self.items = list(items)
        self.claimed = claimed

    def __len__(self) -> int:
        return self.claimed

    def __getitem__(self, i: Any) -> Any:
        return self.items[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)


class Growing(list[Any]):
    """A list that appends a copy of each item as it is read: endless."""

    def __iter__(self) -> Iterator[Any]:
        i = 0
        while True:
            x = self[i]
            self.append(x)
            yield x
            i += 1


def _setup(name: str, players: int = 2) -> _core.GameSetup:
    params = [p["default"] for p in _core.game_info(name)["params"]]
    return _core.GameSetup(name, params, players)


def _deck_size(name: str) -> int:
    size: int = _core.game_info(name)["deck_size"]
    return size


def _outcome(setup: _core.GameSetup, deck: Any) -> tuple[str, Any]:
    """What new_state makes of ``deck``: the state's bytes or the error's type."""
    try:
        return "state", setup.new_state(5, deck).raw()
    except (ValueError, TypeError) as exc:
        return "error", type(exc)


GAMES = _core.game_names()


@pytest.mark.parametrize("name", GAMES)
def test_a_deck_longer_than_it_claims_is_refused(name: str) -> None:
    setup = _setup(name)
    size = _deck_size(name)
    with pytest.raises(InvalidCardError, match=f"more than {size} cards"):
        setup.new_state(1, Liar([i % size for i in range(4000)], size))


@pytest.mark.parametrize("name", GAMES)
def test_a_deck_shorter_than_it_claims_is_refused(name: str) -> None:
    setup = _setup(name)
    size = _deck_size(name)
    # 3 ids read: refused as a deck of 3 cards, whatever was in the buffer
    with pytest.raises(InvalidCardError, match="permutation"):
        setup.new_state(1, Liar([0, 1, 2], size))
    with pytest.raises(InvalidCardError, match="permutation"):
        setup.new_state(1, Liar([], size))


@pytest.mark.parametrize("name", GAMES)
def test_a_deck_growing_while_read_is_refused(name: str) -> None:
    setup = _setup(name)
    size = _deck_size(name)
    with pytest.raises(InvalidCardError, match=f"more than {size} cards"):
        setup.new_state(1, Growing(range(size)))


@pytest.mark.parametrize("name", GAMES)
def test_a_true_deck_behind_a_lying_len_deals_as_the_list(name: str) -> None:
    setup = _setup(name)
    size = _deck_size(name)
    deck = list(reversed(range(size)))
    want = setup.new_state(1, deck).raw()
    for claimed in (0, 1, size - 1, size + 1, 4000):
        assert setup.new_state(1, Liar(deck, claimed)).raw() == want


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    data=st.data(),
    claimed=st.integers(0, 10_000),
)
def test_new_state_depends_on_the_items_alone(name: str, data: Any, claimed: int) -> None:
    size = _deck_size(name)
    setup = _setup(name)
    items = data.draw(
        st.one_of(
            st.permutations(range(size)),
            st.lists(st.integers(-2, size + 2), max_size=3 * size),
        )
    )
    assert _outcome(setup, Liar(items, claimed)) == _outcome(setup, list(items))


def test_rules_parameters_behind_a_lying_len() -> None:
    params = [p["default"] for p in _core.game_info(GAME)["params"]]
    want = _core.GameSetup(GAME, params, 2).new_state(3).raw()
    for claimed in (0, 3, 99):
        assert _core.GameSetup(GAME, Liar(params, claimed), 2).new_state(3).raw() == want
        _core.check_params(GAME, Liar(params, claimed), 2)
    with pytest.raises(ValueError, match="rules parameters"):
        _core.GameSetup(GAME, Liar(params * 40, len(params)), 2)
    with pytest.raises(ValueError, match="rules parameters"):
        _core.check_params(GAME, Liar(params * 40, len(params)), 2)


def test_a_nancy_trick_behind_a_lying_len() -> None:
    assert _core.nancy_trick_winner(Liar([3, 4], 99)) == _core.nancy_trick_winner([3, 4])
    with pytest.raises(ValueError, match="at most"):
        _core.nancy_trick_winner(Liar(list(range(70)), 2))


def _match(setup: _core.GameSetup, deals: Any, bots: Any) -> Any:
    searchers = [_core.Searcher(setup, "heuristic") for _ in range(setup.nplayers)]
    return _core.play_match(setup, searchers, deals, bots)


def test_match_seeds_behind_a_lying_len() -> None:
    setup = _setup(GAME)
    deals, bots = [11, 12, 13], [[1, 2], [3, 4], [5, 6]]
    want = _match(setup, deals, bots)[0]
    assert want.shape == (3, 2)
    # the deal seeds claim 5 (before: 2 more games, dealt from seed 0)
    got = _match(setup, Liar(deals, 5), bots)[0]
    assert got.tolist() == want.tolist()
    got = _match(setup, deals, Liar([Liar(row, 9) for row in bots], 1))[0]
    assert got.tolist() == want.tolist()
    with pytest.raises(ValueError, match="rows"):
        _match(setup, Liar(deals, 3), Liar(bots + bots, 3))
    with pytest.raises(ValueError, match="seeds"):
        _match(setup, deals, [Liar([1, 2, 3], 2), [3, 4], [5, 6]])
