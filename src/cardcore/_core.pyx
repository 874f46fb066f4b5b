# cython: language_level=3
"""cardcore._core: the thin Cython binding of the cardcore C engine.

It converts types, validates inputs, releases the GIL around C loops and
maps status codes to exceptions.  It holds no game rule.  The names match
the pure-Python reference backend (``pycards._reference``) one for one.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from cardcore._cardcore cimport *

import numpy as np

# ---------------------------------------------------------------------------
# errors

cdef dict _STATUS_TEXT = {
    CC_E_ARG: "argument out of range",
    CC_E_CARDS: "card set has bits outside the deck",
    CC_E_GAME_OVER: "game over",
    CC_E_ILLEGAL: "illegal action",
    CC_E_PLAYERS: "unsupported number of players",
    CC_E_PARAMS: "invalid rules parameters",
    CC_E_CAPACITY: "output buffer too small",
}


cdef int _check(int32_t rc, str what) except -1:
    if rc < 0:
        raise ValueError(f"{what}: {_STATUS_TEXT.get(rc, rc)}")
    return 0


cdef uint64_t _mask52(object cards) except? 0xFFFFFFFFFFFFFFFF:
    """Validate a Python int as a 52-card bitset."""
    if cards < 0 or cards > 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"card set {cards!r} is not a 64-bit bitset")
    cdef uint64_t m = <uint64_t>cards
    if m & ~(<uint64_t>CC_DECK52_MASK):
        raise ValueError(
            f"card set {m:#x} has bits outside the 52-card deck "
            f"({m & ~(<uint64_t>CC_DECK52_MASK):#x})"
        )
    return m


cdef const uint64_t[::1] _u64_array(object arr, str name) except *:
    """Check a batch input: a 1-D C-contiguous numpy uint64 array."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of uint64, got {type(arr).__name__}")
    if arr.dtype != np.uint64:
        raise TypeError(f"{name}: expected dtype uint64, got {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got {arr.ndim} dimensions")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    if not arr.flags.aligned:
        # the C loops read whole uint64 words (an unaligned load is undefined)
        raise ValueError(f"{name}: array must be aligned (use a copy: arr.copy())")
    return arr


# ---------------------------------------------------------------------------
# games

def game_names():
    """Names of the built-in games."""
    out = []
    cdef int32_t i = 0
    cdef const cc_game *g = cc_game_by_index(0)
    while g != NULL:
        out.append(g.name.decode())
        i += 1
        g = cc_game_by_index(i)
    return out


cdef const cc_game *_find_game(object name) except NULL:
    if not isinstance(name, str):
        raise TypeError(f"game name must be a str, got {type(name).__name__}")
    if "\x00" in name:
        raise ValueError(f"unknown game {name!r} (contains NUL)")
    cdef bytes b = name.encode()
    cdef const cc_game *g = cc_game_by_name(b)
    if g == NULL:
        raise ValueError(f"unknown game {name!r}; known: {sorted(game_names())}")
    return g


def game_info(str name):
    """Player range and number of rules parameters of a game."""
    cdef const cc_game *g = _find_game(name)
    return {
        "min_players": g.min_players,
        "max_players": g.max_players,
        "num_params": g.num_params,
    }


cdef class _Params:
    """A validated rules array for one game and player count."""
    cdef const cc_game *game
    cdef int32_t values[64]
    cdef int32_t nplayers

    def __cinit__(self, str name, object params, int nplayers):
        self.game = _find_game(name)
        params = tuple(params)
        if len(params) != self.game.num_params or len(params) > 64:
            raise ValueError(
                f"{name}: expected {self.game.num_params} rules parameters, got {len(params)}"
            )
        if nplayers < self.game.min_players or nplayers > self.game.max_players:
            raise ValueError(
                f"{name}: {nplayers} players not supported "
                f"({self.game.min_players} to {self.game.max_players})"
            )
        for i, v in enumerate(params):
            if not isinstance(v, int) or not -2147483648 <= v <= 2147483647:
                raise ValueError(f"{name}: rules parameter {i} must be an int32, got {v!r}")
            self.values[i] = v
        self.nplayers = nplayers
        if cc_game_check_params(self.game, self.values, nplayers, NULL) != CC_OK:
            raise ValueError(f"{name}: invalid rules parameters {params!r} for {nplayers} players")


cdef class GameState:
    """A C game state behind the generic game table (``cc_game``)."""
    cdef const cc_game *game
    cdef _Params params
    cdef void *state
    cdef readonly int nplayers

    def __dealloc__(self):
        if self.state != NULL:
            PyMem_Free(self.state)

    cdef int _live(self) except -1:
        # A GameState made by GameState() or GameState.__new__ has no engine
        # state: refuse instead of handing NULL to the C functions.
        if self.state == NULL:
            raise ValueError("GameState has no state: make one with new_state()")
        return 0

    cdef void _alloc(self, _Params params) except *:
        self.params = params
        self.game = params.game
        self.nplayers = params.nplayers
        self.state = PyMem_Malloc(self.game.state_size)
        if self.state == NULL:
            raise MemoryError()
        memset(self.state, 0, self.game.state_size)

    def current_player(self):
        """The seat to act, or -4 (terminal)."""
        self._live()
        return self.game.current_player(self.state)

    def num_actions(self):
        """Size of the action space."""
        self._live()
        return self.game.num_actions(self.params.values, self.nplayers)

    def tensor_size(self):
        """Length of the observation tensor."""
        self._live()
        return self.game.tensor_size(self.params.values, self.nplayers)

    def legal_actions(self):
        """Legal action ids, ascending."""
        self._live()
        cdef uint64_t mask[16]
        cdef uint64_t m
        cdef int w
        memset(mask, 0, sizeof(mask))
        self.game.legal_actions(self.state, mask)
        out = []
        for w in range(CC_MASK_WORDS):
            m = mask[w]
            while m:
                out.append(w * 64 + __builtin_ctzll(m))
                m &= m - 1
        return out

    def legal_mask(self):
        """Bit ``a`` set for each legal action ``a``."""
        self._live()
        cdef uint64_t mask[16]
        memset(mask, 0, sizeof(mask))
        self.game.legal_actions(self.state, mask)
        out = 0
        for w in range(CC_MASK_WORDS - 1, -1, -1):
            out = (out << 64) | mask[w]
        return out

    def verify(self, int32_t action):
        """0 if ``action`` is legal now, else a reason code."""
        self._live()
        return self.game.verify(self.state, action)

    def reason_text(self, int32_t code):
        """Human text of a reason code."""
        self._live()
        if code < 0:
            return _STATUS_TEXT.get(code, f"error {code}")
        return self.game.reason_text(code).decode()

    def apply(self, int32_t action):
        """Apply ``action``: 0, or a reason code with the state unchanged."""
        self._live()
        return self.game.apply(self.state, action)

    def returns(self):
        """Cumulative points per player."""
        self._live()
        cdef int32_t out[8]
        self.game.returns(self.state, out)
        return [out[i] for i in range(self.nplayers)]

    def observe_tensor(self, int player):
        """The observation tensor of ``player`` (float32)."""
        self._live()
        if player < 0 or player >= self.nplayers:
            raise ValueError(f"player {player} out of range 0..{self.nplayers - 1}")
        out = np.zeros(self.tensor_size(), dtype=np.float32)
        cdef float[::1] view = out
        _check(self.game.observe_tensor(self.state, player, &view[0]), "observe_tensor")
        return out

    def events(self):
        """The full event log: (kind, player, target, value, extra, seen_by)."""
        self._live()
        cdef int32_t n = cc_game_events(self.game, self.state, NULL, 0, NULL)
        if n <= 0:
            return []
        cdef cc_event *buf = <cc_event *>PyMem_Malloc(n * sizeof(cc_event))
        if buf == NULL:
            raise MemoryError()
        try:
            cc_game_events(self.game, self.state, buf, n, NULL)
            return [
                (buf[i].kind, buf[i].player, buf[i].target, buf[i].value, buf[i].extra,
                 buf[i].seen_by)
                for i in range(n)
            ]
        finally:
            PyMem_Free(buf)

    def clone(self):
        """An independent copy (memcpy of the flat state)."""
        self._live()
        cdef GameState other = GameState.__new__(GameState)
        other._alloc(self.params)
        memcpy(other.state, self.state, self.game.state_size)
        return other

    def sample_infoset(self, int player, uint64_t seed):
        """A state drawn among those consistent with ``player``'s observations."""
        self._live()
        if player < 0 or player >= self.nplayers:
            raise ValueError(f"player {player} out of range 0..{self.nplayers - 1}")
        cdef GameState other = GameState.__new__(GameState)
        other._alloc(self.params)
        _check(self.game.sample_infoset(self.state, player, seed, other.state), "sample_infoset")
        return other

    def raw(self):
        """The state's bytes (platform-specific; for comparisons in tests)."""
        self._live()
        return (<char *>self.state)[:self.game.state_size]


def new_state(str name, object params, int nplayers, uint64_t seed, object deck=None):
    """A new state of game ``name`` with rules ``params`` (ints), dealt from ``seed``,
    or, when ``deck`` (card ids, top first) is given, from that deck for the first deal."""
    cdef _Params p = _Params(name, params, nplayers)
    cdef GameState s = GameState.__new__(GameState)
    cdef uint8_t buf[256]
    cdef int32_t n
    s._alloc(p)
    if deck is None:
        _check(p.game.init(s.state, p.values, nplayers, seed), f"{name}: init")
        return s
    if p.game.init_deck == NULL:
        raise ValueError(f"{name}: this game cannot be dealt from a given deck")
    deck = list(deck)
    if len(deck) > 256:
        raise ValueError(f"{name}: deck of {len(deck)} cards is too long")
    for i, c in enumerate(deck):
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 255:
            raise ValueError(f"{name}: deck entry {i} is not a card id: {c!r}")
        buf[i] = c
    n = len(deck)
    if p.game.init_deck(s.state, p.values, nplayers, seed, buf, n) != CC_OK:
        raise ValueError(f"{name}: the deck must be a permutation of the game's cards")
    return s


def random_playouts(str name, object params, int nplayers, uint64_t seed, int64_t ngames):
    """Play ``ngames`` random games natively (GIL released).

    Returns (actions applied, summed returns per player).
    """
    cdef _Params p = _Params(name, params, nplayers)
    if ngames < 0:
        raise ValueError("ngames must be >= 0")
    cdef void *scratch = PyMem_Malloc(2 * p.game.state_size)
    if scratch == NULL:
        raise MemoryError()
    cdef int64_t steps = 0
    cdef int64_t points[8]
    cdef int32_t rc
    try:
        with nogil:
            rc = cc_random_playouts(p.game, p.values, nplayers, seed, ngames, scratch,
                                    &steps, points)
        _check(rc, f"{name}: random_playouts")
    finally:
        PyMem_Free(scratch)
    return steps, [points[i] for i in range(nplayers)]


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

# ---------------------------------------------------------------------------
# per-part includes (one per module of the engine; see docs/internals.rst)
include "_cards.pxi"
include "_combos.pxi"
include "_nancy.pxi"
include "_nodde.pxi"
include "_notakers.pxi"
