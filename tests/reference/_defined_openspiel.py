"""The pycards side of the agreement with OpenSpiel's card games: a
:class:`reference.openspiel_cards.Driver` for each OpenSpiel game that a
port of :mod:`pycards.define` plays (``hearts``, ``oh_hell``, ``spades``),
driving the defined game through the OpenSpiel adapter
(:func:`pycards.envs.openspiel.host` wraps the unlisted game, and
``PycardsState`` the state dealt from the chosen deck).

Each OpenSpiel deal becomes one deal of the port, with OpenSpiel's rule
choices (``openspiel_cards``' labels) as the description's variants:

* **hearts**: one deal, seat 3 deals (seat 0 gets the first card and passes
  first); the deal's pass direction (H1) is the description's one direction
  (``Passing(3, (d,))``: 1 left, 2 across, 3 right, 0 none); ``break_card=
  "QS"`` (H3: the queen of spades breaks hearts; the port's default is
  ``None``).  Returns: OpenSpiel's ``26 - points`` is ``26 +`` the port's
  score (its points are negative).
* **oh_hell**: one deal of the deal's number of tricks (``hand_sizes``) with
  the deal's dealer as ``first_dealer`` (O1) and its trump card turned up
  after the hands (O2); the scoring is the port's (O3 on defaults).
* **spades**: one deal, seat 3 deals (S1: seat 0 bids first and leads);
  ``Bidding(nil=True, side_limit=True)`` (S1: partners' bids at most 13);
  ``breaks="never"`` (S2: a spade is led only from a hand of nothing else);
  ``Contract(nil_tricks_count=True)`` (S3: a nil bidder's tricks count for
  the side's contract, not as bags alone).  Returns are the port's.

A description per deal: the pass direction and Oh Hell's hand size and seats
are fields of the description, so each is registered once (unlisted) and
reused.  OpenSpiel has no Whist (``openspiel_cards``' docstring: no
registered game plays it, its German Whist never shipped): the Whist port has
no peer.  Only OpenSpiel's default parameters (and Oh Hell's ``players``)
are driven: :func:`driver` refuses any other parameter.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from pycards.define import (
    HEARTS,
    OH_HELL,
    SPADES,
    Bidding,
    Contract,
    DefinedGame,
    Passing,
    TrickGame,
)
from pycards.envs.openspiel import PycardsGame, PycardsState, host
from reference.openspiel_cards import Deal, Move, from_pycards_id, pycards_id

__all__ = [
    "HEARTS_OPENSPIEL",
    "SPADES_CONTRACT",
    "SPADES_OPENSPIEL",
    "DefinedDriver",
    "description",
    "driver",
]

#: Hearts with OpenSpiel's rule choices (one deal, no target, QS breaks hearts).
HEARTS_OPENSPIEL = dataclasses.replace(
    HEARTS, name="os_hearts", title="OsHearts", deals=1, target=None, break_card="QS"
)
#: Spades' contract with OpenSpiel's nil: a nil bidder's tricks count for
#: the side (S3).
SPADES_CONTRACT = Contract(
    kind="at_least",
    made_per_bid=10,
    set_per_bid=-10,
    over_per_trick=1,
    bag_limit=10,
    bag_penalty=-100,
    nil_bonus=100,
    nil_tricks_count=True,
)
#: Spades with OpenSpiel's rule choices (one deal, no target; spades never
#: broken: led only from a hand of nothing else).
SPADES_OPENSPIEL = dataclasses.replace(
    SPADES,
    name="os_spades",
    title="OsSpades",
    deals=1,
    target=None,
    floor=None,
    breaks="never",
    bidding=Bidding(nil=True, side_limit=True),
    contract=SPADES_CONTRACT,
)


def description(
    game: str, deal: Deal, base: TrickGame | None = None, players: int = 4
) -> TrickGame:
    """The description of one deal of OpenSpiel's ``game`` (``base``: the
    game's OpenSpiel variant by default, or a changed one)."""
    if game == "hearts":
        d = HEARTS_OPENSPIEL if base is None else base
        direction = 0 if deal.pass_direction is None else deal.pass_direction
        return dataclasses.replace(
            d,
            name=f"{d.name}_p{direction}",
            title=f"{d.title}P{direction}",
            passing=Passing(3, (direction,)),
        )
    if game == "oh_hell":
        d = OH_HELL if base is None else base
        size = len(deal.hands[0])
        return dataclasses.replace(
            d,
            name=f"os_{d.name}_{players}_{size}",
            title=f"Os{d.title}{players}x{size}",
            hand_sizes=(size,),
            deals=1,
            players=players,
        )
    if game == "spades":
        return SPADES_OPENSPIEL if base is None else base
    raise ValueError(f"no defined game plays OpenSpiel's {game!r}")


@functools.cache
def _hosted(desc: TrickGame, players: int) -> tuple[type[DefinedGame], PycardsGame]:
    cls = desc.register(listed=False)
    return cls, host(cls(None, players))


@dataclasses.dataclass
class DealState:
    """A deal in progress: the adapter's state and the passes to come (the
    first ``passes`` actions pass cards)."""

    state: PycardsState
    passes: int


class DefinedDriver:
    """A defined game as one side of :func:`reference.openspiel_cards.compare`."""

    def __init__(self, game: str, players: int, base: TrickGame | None = None) -> None:
        self.game = game
        self.players = players
        self.base = base

    def start(self, deal: Deal) -> DealState:
        """The port's state dealt ``deal``, through the OpenSpiel adapter."""
        n = self.players
        desc = description(self.game, deal, self.base, n)
        cls, _ = _hosted(desc, n)
        dealer = n - 1 if deal.dealer is None else deal.dealer
        # card k of the deck goes to seat (dealer + 1 + k) % n
        order: list[int] = []
        size = len(deal.hands[0])
        for j in range(size):
            for i in range(n):
                order.append(pycards_id(deal.hands[(dealer + 1 + i) % n][j]))
        if deal.upcard is not None:
            order.append(pycards_id(deal.upcard))
        order += [c for c in range(52) if c not in set(order)]
        game = cls(cls.RULES_TYPE(first_dealer=dealer), n)  # type: ignore[call-arg]
        state = game.new_initial_state(0, deck=order)
        passes = 0 if desc.passing is None or not desc.passing.directions[0] else 3 * n
        return DealState(PycardsState(host(game), state), passes)

    def to_move(self, st: DealState) -> int:
        """The seat to move, or -1 at the end."""
        return -1 if st.state.is_terminal() else int(st.state.current_player())

    def legal_moves(self, st: DealState) -> list[Move]:
        """The legal moves in neutral terms."""
        passing = st.state.move_number() < st.passes
        return [self._move(passing, a) for a in st.state.legal_actions()]

    @staticmethod
    def _move(passing: bool, action: int) -> Move:
        if action >= 52:
            return Move("bid", number=action - 52)
        return Move("pass" if passing else "play", card=from_pycards_id(action))

    def apply(self, st: DealState, move: Move) -> DealState:
        """Apply ``move`` (its action: the card's id, a bid ``52 + n``)."""
        action = 52 + move.number if move.kind == "bid" else pycards_id(move.card)
        st.state.apply_action(action)
        return st

    def returns(self, st: DealState) -> Sequence[float]:
        """OpenSpiel's returns of the deal (Hearts: ``26 +`` the score)."""
        ret = st.state.returns()
        return [26 + r for r in ret] if self.game == "hearts" else ret


def driver(game: str, params: dict[str, Any]) -> DefinedDriver:
    """The driver of OpenSpiel's ``game`` with ``params`` (the factory of
    ``benchmarks/studies/openspiel_agreement.py --driver``)."""
    allowed = {"players"} if game == "oh_hell" else set()
    extra = set(params) - allowed
    if extra:
        raise ValueError(f"the defined {game} plays OpenSpiel's defaults only, not {sorted(extra)}")
    players = int(params.get("players", 3)) if game == "oh_hell" else 4
    if game not in ("hearts", "oh_hell", "spades"):
        raise ValueError(f"no defined game plays OpenSpiel's {game!r}")
    return DefinedDriver(game, players)
