# The generic game binding: one GameState type for every game of the registry.
# Included by _core.pyx.  Reads each game's descriptor tables (parameters, event
# kinds, action ranges, observation segments) and hands them to Python as plain
# data; converts types; maps status codes to exceptions.  No game-specific code.

_PARAM_KINDS = {CC_PARAM_BOOL: "bool", CC_PARAM_INT: "int", CC_PARAM_CHOICE: "choice",
                CC_PARAM_OPTIONAL: "optional"}
_VALUE_KINDS = {CC_VALUE_NUMBER: "number", CC_VALUE_CARD: "card", CC_VALUE_NONE: "none"}
_ARG_KINDS = {CC_ARG_NONE: "none", CC_ARG_CARD: "card", CC_ARG_NUMBER: "number",
              CC_ARG_RANK: "rank", CC_ARG_SUIT: "suit"}
_SEGMENT_KINDS = {CC_SEG_CARDS: "cards", CC_SEG_CARD: "card", CC_SEG_ONE_HOT: "one_hot",
                  CC_SEG_NUMBER: "number", CC_SEG_NUMBERS: "numbers",
                  CC_SEG_SEAT_NUMBERS: "seat_numbers", CC_SEG_SEAT_CARDS: "seat_cards",
                  CC_SEG_SEAT: "seat"}

from cpython.object cimport PyObject_GenericSetAttr

cdef uint64_t _M64 = 0xFFFFFFFFFFFFFFFF
cdef object _object_new = object.__new__
cdef str _MASK_SLOT = "_mask"


cdef inline object _make_set(object cards, object mask):
    """A card set of ``mask``: ``cards(mask)``, or, when ``cards`` is a class with
    a ``_mask`` slot (pycards' immutable card sets), the set filled in directly
    (the engine made the bitset; the class's own checks would only repeat it)."""
    if type(cards) is not type and not isinstance(cards, type):
        return cards(mask)
    o = _object_new(cards)
    PyObject_GenericSetAttr(o, _MASK_SLOT, mask)
    return o
_MAX_SEED = (1 << 64) - 1


cdef str _text(const char *s):
    return "" if s == NULL else s.decode("utf-8")


#: The version of the game table layout this binding reads (CC_ABI_VERSION).
ABI_VERSION = CC_ABI_VERSION


def _abi_mismatch(object index, object size, object abi):
    """Why a game table of this ``size`` and ``abi`` (its first two fields)
    cannot be read by this binding, or None if it can."""
    if abi == CC_ABI_VERSION and size == sizeof(cc_game):
        return None
    return (f"cardcore: game table {index} was built for ABI {abi} ({size} bytes), this "
            f"binding for ABI {CC_ABI_VERSION} ({sizeof(cc_game)} bytes): build the engine "
            f"and its bindings from one source tree")


cdef int _check_tables() except -1:
    """Refuse to load over a registry whose tables another layout built (each
    table's size and ABI version are read before anything else in it)."""
    cdef int32_t i = 0
    cdef const cc_game *g = cc_game_by_index(0)
    while g != NULL:
        why = _abi_mismatch(i, g.size, g.abi)
        if why is not None:
            raise ImportError(why)
        i += 1
        g = cc_game_by_index(i)
    return 0


_check_tables()


def game_names():
    """Names of the games in the engine's registry, in registry order."""
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
    if "\x00" in name or not name.isascii():
        raise ValueError(f"unknown game {name!r}; known: {game_names()}")
    cdef bytes b = name.encode()
    cdef const cc_game *g = cc_game_by_name(b)
    if g == NULL:
        raise ValueError(f"unknown game {name!r}; known: {game_names()}")
    return g


#: The length of a defined game's table (cc_defined.h).
DEFINED_TABLE_LEN = CC_DEFINED_TABLE_LEN
#: The most games a process may define.
DEFINED_MAX_GAMES = CC_DEFINED_MAX_GAMES
#: The break field of a suit that nothing breaks (cc_defined.h).
DEFINED_BREAK_NEVER = CC_DEFINED_BREAK_NEVER


cdef int32_t[::1] _defined_table(object table) except *:
    if isinstance(table, (str, bytes)) or not isinstance(table, (list, tuple)):
        raise TypeError(f"table must be a list of ints, got {type(table).__name__}")
    if len(table) != CC_DEFINED_TABLE_LEN:
        raise ValueError(f"table: {len(table)} values, a definition has {CC_DEFINED_TABLE_LEN}")
    buf = np.zeros(CC_DEFINED_TABLE_LEN, dtype=np.int32)
    for i, v in enumerate(table):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"table[{i}] must be an int, got {type(v).__name__}")
        if not -(1 << 31) <= v < (1 << 31):
            raise ValueError(f"table[{i}]: {v} is out of the int32 range")
        buf[i] = v
    return buf


def defined_check(object table):
    """The index of the first field of a defined game's table (cc_defined.h)
    that the engine refuses, or -1 when it takes the table."""
    cdef int32_t[::1] t = _defined_table(table)
    cdef int32_t bad = -1
    cdef int32_t rc = cc_defined_check(&t[0], CC_DEFINED_TABLE_LEN, &bad)
    return -1 if rc == CC_OK else bad


def define_game(str name, object table):
    """Register a defined game's table under ``name`` (cc_defined.h): its
    index in the registry.  ``RulesError`` names the field the engine refuses;
    ``ValueError`` for a bad or taken name or a full registry."""
    cdef int32_t[::1] t = _defined_table(table)
    cdef int32_t bad = -1, index = -1
    if not name.isascii() or "\x00" in name:
        raise ValueError(f"define_game: bad name {name!r}")
    cdef bytes b = name.encode()
    cdef int32_t rc = cc_defined_register(b, &t[0], CC_DEFINED_TABLE_LEN, &index, &bad)
    if rc == CC_E_PARAMS:
        raise _errors.RulesError(f"define_game: the engine refuses field {bad} of the table")
    if rc == CC_E_CAPACITY:
        raise ValueError(f"define_game: the registry is full ({CC_DEFINED_MAX_GAMES} games)")
    if rc != CC_OK:
        raise ValueError(f"define_game: the name {name!r} is taken or not lowercase letters, "
                         f"digits and _ (1 to 31)")
    return index


def game_info(str name):
    """Everything the engine says about a game: its table's ABI version
    (``abi``, the engine's ``CC_ABI_VERSION``), player range, deck, state
    size, and the descriptor tables (``params``, ``event_kinds``,
    ``action_ranges``)."""
    cdef const cc_game *g = _find_game(name)
    cdef int32_t i
    params = []
    if g.params != NULL:
        for i in range(g.num_params):
            d = &g.params[i]
            params.append({
                "name": _text(d.name),
                "kind": _PARAM_KINDS.get(d.kind, "int"),
                "min": d.min,
                "max": d.max,
                "default": d.default_value,
                "none_value": d.none_value,
                "choices": tuple(_text(d.choices).split("|")) if d.choices != NULL else (),
                "doc": _text(d.doc),
            })
    events = []
    if g.event_kinds != NULL:
        for i in range(g.num_event_kinds):
            events.append({
                "name": _text(g.event_kinds[i].name),
                "value": _VALUE_KINDS.get(g.event_kinds[i].value_kind, "number"),
                "doc": _text(g.event_kinds[i].doc),
            })
    actions = []
    if g.action_ranges != NULL:
        for i in range(g.num_action_ranges):
            r = &g.action_ranges[i]
            actions.append({
                "name": _text(r.name),
                "first": r.first,
                "count": r.count,
                "arg": _ARG_KINDS.get(r.arg, "none"),
                "base": r.base,
                "stride": r.stride,
            })
    return {
        "name": name,
        "abi": g.abi,
        "min_players": g.min_players,
        "max_players": g.max_players,
        "deck_size": g.deck_size,
        "state_size": g.state_size,
        "log_capacity": g.log_capacity,
        "num_params": g.num_params,
        "params": params,
        "event_kinds": events,
        "action_ranges": actions,
        "can_stack_deck": g.init_deck != NULL,
    }


cdef class GameSetup:
    """A game of the registry with a rules array the engine has checked for a
    player count (0: checked without one): it deals new states, and knows the
    action space, the tensor size and the tensor's segments they imply.  Made
    once per game and rules, it makes each new state cheap."""
    cdef const cc_game *game
    cdef int32_t values[32]        # CC_MAX_PARAMS
    cdef readonly int32_t nplayers
    cdef readonly int32_t num_actions
    cdef readonly int32_t tensor_size
    cdef cc_segment segs[64]       # CC_MAX_SEGMENTS
    cdef int32_t nsegs
    cdef readonly object name

    def __cinit__(self, str name, object params, object nplayers):
        self.game = _find_game(name)
        self.name = name
        if isinstance(params, (str, bytes)) or not hasattr(params, "__len__"):
            raise TypeError(f"{name}: rules parameters must be a sequence of ints, "
                            f"got {type(params).__name__}")
        params = tuple(params)
        if len(params) != self.game.num_params or len(params) > CC_MAX_PARAMS:
            raise _errors.RulesError(
                f"{name}: expected {self.game.num_params} rules parameters, got {len(params)}"
            )
        self.nplayers = _int_arg(nplayers, "nplayers", 0, CC_MAX_PLAYERS)
        for i, v in enumerate(params):
            self.values[i] = _int_arg(v, f"rules parameter {i}", -2147483648, 2147483647)
        check_params(name, params, self.nplayers)
        if self.nplayers == 0:
            return
        self.num_actions = self.game.num_actions(self.values, self.nplayers)
        self.tensor_size = self.game.tensor_size(self.values, self.nplayers)
        if not 0 < self.num_actions <= CC_MAX_ACTIONS or self.tensor_size < 0:
            raise _errors.RulesError(f"{name}: the engine gave no action space for these rules")
        self.nsegs = 0
        if self.game.segments != NULL:
            self.nsegs = self.game.segments(self.values, self.nplayers, self.segs, CC_MAX_SEGMENTS)
            if self.nsegs < 0:
                _check(self.nsegs, f"{name}: segments")


    def segments(self):
        """The named segments of the observation tensor."""
        return _segment_list(self)

    def new_state(self, object seed, object deck=None):
        """A new state dealt from ``seed`` or, when ``deck`` (card ids, top first)
        is given, from that deck for the first deal."""
        return _new_state(self, seed, deck)

def check_params(str name, object params, object nplayers):
    """Raise :class:`RulesError` naming the parameter at fault if the engine refuses
    ``params`` for ``nplayers`` players (0: without the player count)."""
    cdef const cc_game *g = _find_game(name)
    params = tuple(params)
    cdef int32_t values[32]
    cdef int32_t n = _int_arg(nplayers, "nplayers", 0, CC_MAX_PLAYERS)
    if len(params) != g.num_params or len(params) > CC_MAX_PARAMS:
        raise _errors.RulesError(f"{name}: expected {g.num_params} rules parameters, got {len(params)}")
    for i, v in enumerate(params):
        values[i] = _int_arg(v, f"rules parameter {i}", -2147483648, 2147483647)
    cdef int32_t bad = -1
    cdef int32_t rc = cc_game_check_params(g, values, n, &bad)
    if rc == CC_OK:
        return None
    if rc == CC_E_PLAYERS:
        raise _errors.RulesError(
            f"{name}: {n} players not supported ({g.min_players} to {g.max_players})"
        )
    if 0 <= bad < g.num_params and g.params != NULL:
        d = &g.params[bad]
        field = _text(d.name)
        value = params[bad]
        if d.kind == CC_PARAM_CHOICE and 0 <= value <= d.max and d.choices != NULL:
            shown = repr(_text(d.choices).split("|")[value])
        elif d.kind == CC_PARAM_BOOL and value in (0, 1):
            shown = repr(bool(value))
        elif d.kind == CC_PARAM_OPTIONAL and value == d.none_value:
            shown = "None"
        else:
            shown = repr(value)
        where = f" with {n} players" if n else ""
        raise _errors.RulesError(f"{name}: {field}={shown} is not allowed{where} ({_text(d.doc)})")
    raise _errors.RulesError(f"{name}: invalid rules parameters {params!r} for {n} players")


def segments(str name, object params, object nplayers):
    """The named segments of the observation tensor for these rules and players."""
    cdef GameSetup p = GameSetup(name, params, nplayers)
    return _segment_list(p)


cdef list _segment_list(GameSetup p):
    out = []
    for i in range(p.nsegs):
        s = &p.segs[i]
        out.append({
            "name": _text(s.name),
            "offset": s.offset,
            "length": s.length,
            "kind": _SEGMENT_KINDS.get(s.kind, "numbers"),
            "scale": s.scale,
            "seat0": s.seat0,
            "doc": _text(s.doc),
        })
    return out


cdef inline int _bit_of(int32_t deck, int32_t card) noexcept nogil:
    """The bitset bit of a dense card id (52: s*16+r; 78: lo s*16+r, hi 64+n, Outsider 64)."""
    if deck == 52:
        return (card // 13) * 16 + card % 13
    if card < 56:
        return (card // 14) * 16 + card % 14
    if card < 77:
        return 64 + card - 55
    return 64


cdef object _cards_of(const float *t, int32_t n, int32_t deck):
    cdef uint64_t lo = 0, hi = 0, block[2]
    cdef int32_t c = 0, k, b
    while c < n:
        # most of a card-set segment is zeros: skip them four floats at a time
        if c + 4 <= n:
            memcpy(block, t + c, 16)
            if block[0] == 0 and block[1] == 0:
                c += 4
                continue
        for k in range(c, c + 4 if c + 4 <= n else n):
            if t[k] != 0:
                b = _bit_of(deck, k)
                if b < 64:
                    lo |= (<uint64_t>1) << b
                else:
                    hi |= (<uint64_t>1) << (b - 64)
        c += 4
    if hi == 0:
        return lo
    return lo | (<object>hi << 64)


cdef object _one_hot(const float *t, int32_t n):
    cdef int32_t i
    for i in range(n):
        if t[i] != 0:
            return i
    return None


cdef inline object _number(float v, int32_t scale):
    cdef double x = <double>v * (scale if scale != 0 else 1)
    return <long long>(x + 0.5) if x >= 0 else -<long long>(-x + 0.5)


cdef struct _solve_args:
    const cc_game *game
    const void *state
    const double *tp
    int32_t target
    int64_t limit
    double *out
    int64_t nodes


cdef int32_t _solve_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _solve_args *x = <_solve_args *> a
    return x.game.solve(x.state, x.tp, x.target, x.limit, stop, x.out, &x.nodes)


cdef class GameState:
    """A state of any game of the registry, behind the generic game table.

    The history of applied actions is kept here, updated in the same call as the
    engine state, so a state shared by threads never has the two out of step
    (each call runs under the GIL and does not release it)."""
    cdef const cc_game *game
    cdef GameSetup params
    cdef void *state
    cdef readonly int nplayers
    # The actions applied, as a chain of (previous, action) pairs shared between
    # clones (a clone copies one reference, not the list); _recorded is False
    # for a sampled state, which has no history.
    cdef object _chain
    cdef Py_ssize_t _length
    cdef bint _recorded

    def __cinit__(self):
        self.state = NULL
        self._chain = None
        self._length = 0
        self._recorded = False

    def __dealloc__(self):
        if self.state != NULL:
            PyMem_Free(self.state)

    cdef int _live(self) except -1:
        if self.state == NULL:
            raise ValueError("GameState has no state: make one with new_state()")
        return 0

    cdef int _alloc(self, GameSetup params) except -1:
        self.params = params
        self.game = params.game
        self.nplayers = params.nplayers
        self.state = PyMem_Malloc(self.game.state_size)
        if self.state == NULL:
            raise MemoryError()
        return 0

    @property
    def history(self):
        """The actions applied since the deal, oldest first (a new list), or None
        for a sampled state."""
        if not self._recorded:
            return None
        out = [None] * self._length
        node = self._chain
        cdef Py_ssize_t i = self._length
        while node is not None:
            i -= 1
            out[i] = node[1]
            node = node[0]
        return out

    @property
    def recorded(self):
        """False for a sampled state (it has no history)."""
        return self._recorded

    @property
    def history_length(self):
        """How many actions were applied since the deal (0 for a sampled state)."""
        return self._length

    @property
    def game_name(self):
        """The engine's name of the game."""
        self._live()
        return self.params.name

    def current_player(self):
        """The seat to act, or -4 (terminal)."""
        self._live()
        return self.game.current_player(self.state)

    def num_actions(self):
        """Size of the action space."""
        self._live()
        return self.params.num_actions

    def tensor_size(self):
        """Length of the observation tensor."""
        self._live()
        return self.params.tensor_size

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
        """Bit ``a`` set for each legal action ``a`` (an int)."""
        self._live()
        cdef uint64_t mask[16]
        memset(mask, 0, sizeof(mask))
        self.game.legal_actions(self.state, mask)
        out = 0
        for w in range(CC_MASK_WORDS - 1, -1, -1):
            out = (out << 64) | mask[w]
        return out

    def legal_bools(self):
        """A bool vector of length num_actions, True for each legal action."""
        self._live()
        cdef uint64_t mask[16]
        memset(mask, 0, sizeof(mask))
        self.game.legal_actions(self.state, mask)
        out = np.zeros(self.params.num_actions, dtype=np.bool_)
        cdef uint8_t[::1] view = out.view(np.uint8)
        cdef int32_t a
        for a in range(self.params.num_actions):
            view[a] = (mask[a >> 6] >> (a & 63)) & 1
        return out

    def verify(self, object action):
        """0 if ``action`` is legal now, else the engine's reason code."""
        self._live()
        cdef int32_t a = _i32_arg(action, "action", -2147483648, 2147483647)
        return self.game.verify(self.state, a)

    def reason_text(self, object code):
        """Human text of a reason code (or of a negative status code)."""
        self._live()
        cdef int32_t c = _i32_arg(code, "code", -2147483648, 2147483647)
        if c < 0:
            return _STATUS_TEXT.get(c, f"error {c}")
        cdef const char *text = self.game.reason_text(c)
        return _text(text) if text != NULL else f"reason {c}"

    def apply(self, object action):
        """Apply ``action``: 0 (and the action joins the history), or, with
        the state unchanged, the reason code ``verify`` gives (a positive
        reason, or a negative status code such as ``CC_E_GAME_OVER``)."""
        self._live()
        cdef int32_t a = _i32_arg(action, "action", -2147483648, 2147483647)
        cdef int32_t rc = self.game.apply(self.state, a)
        if rc == CC_OK:
            if self._recorded:
                self._chain = (self._chain, a)
                self._length += 1
            return 0
        if rc == CC_E_ILLEGAL:
            # the engine's apply answers with status codes only (cardcore.h);
            # its reason is verify's
            return self.game.verify(self.state, a)
        return rc

    def solve_depth(self):
        """Cards still to be played in the deal's play if the game's exact
        solver takes this state, else -1 (also for a game without a solver)."""
        self._live()
        if self.game.solve_depth == NULL:
            return -1
        return self.game.solve_depth(self.state)

    def solve(self, object max_nodes=0, object win_table=None):
        """The exact value of each legal action with every card known:
        ``(values, nodes)``, ``values`` a float64 array of ``num_actions``
        (NaN where the action is not legal), ``nodes`` the positions visited.
        Raises ``ValueError`` where the solver cannot take the state (see
        :meth:`solve_depth`) and ``RuntimeError`` past ``max_nodes``.

        Called from the main thread, a solve of more than 12 cards runs in
        a thread of its own while this one waits (``_run_stoppable``): an
        exception from a signal handler (KeyboardInterrupt on Ctrl-C) sets
        the solve's stop flag, the solver stops within a few thousand
        positions, and the exception is raised here, the state untouched.
        From another thread (which Python's signals never reach) it runs in
        the calling thread."""
        self._live()
        cdef int64_t limit = _int_arg(max_nodes, "max_nodes", 0, 1 << 62)
        if self.game.solve == NULL:
            raise ValueError(f"{_text(self.game.name)} has no solver")
        table = _win_table_arg(win_table)
        cdef const double[:, ::1] wt      # a read-only table is taken as it is
        cdef const double *tp = NULL
        cdef int32_t target = 0
        if table is not None:
            if self.nplayers != 2:
                raise ValueError(f"win_table needs two players, the game has {self.nplayers}")
            if not bool(np.all((table >= 0.0) & (table <= 1.0))):
                raise ValueError("win_table: every value must be a probability in [0, 1]")
            wt = table
            tp = &wt[0, 0]
            target = <int32_t>table.shape[0]
        if self.game.solve_depth(self.state) < 0:
            raise ValueError(f"{_text(self.game.name)}: the solver does not take this "
                             f"state (no play phase with every later card known)")
        values = np.full(self.params.num_actions, np.nan, dtype=np.float64)
        cdef double[::1] view = values
        cdef int32_t rc
        cdef _solve_args args
        args.game = self.game
        args.state = self.state
        args.tp = tp
        args.target = target
        args.limit = limit
        args.out = &view[0]
        args.nodes = 0
        _run_stoppable(_solve_go, &args, self.game.solve_depth(self.state) > _LONG_SOLVE_DEPTH,
                       &rc)
        if rc == CC_E_CAPACITY and limit > 0:
            raise RuntimeError(f"solve: the limit of {limit} positions was reached")
        _check(rc, "solve")
        return values, args.nodes

    def returns(self):
        """Cumulative points per player."""
        self._live()
        cdef int32_t out[8]
        self.game.returns(self.state, out)
        return [out[i] for i in range(self.nplayers)]

    def observe_tensor(self, object player):
        """The observation tensor of ``player`` (float32)."""
        self._live()
        cdef int32_t p = _i32_arg(player, "player", 0, self.nplayers - 1)
        out = np.zeros(self.params.tensor_size, dtype=np.float32)
        cdef float[::1] view = out
        if self.params.tensor_size:
            _check(self.game.observe_tensor(self.state, p, &view[0]), "observe_tensor")
        return out

    def observation_values(self, object player, object cards=None, object card=None):
        """The observation of ``player`` decoded segment by segment (segment order):
        card sets as bitset ints (or ``cards(bitset)`` if given: a function, or a
        card-set class with a ``_mask`` slot, filled in directly), cards as ids (or
        ``card(id)``) or None, one-hots as indices or None, numbers as ints,
        per-seat segments as tuples over the absolute seats."""
        self._live()
        cdef int32_t p = _i32_arg(player, "player", 0, self.nplayers - 1)
        cdef int32_t size = self.params.tensor_size
        cdef float small[4096]
        cdef float *t = small
        if size > 4096:
            t = <float *>PyMem_Malloc(size * sizeof(float))
            if t == NULL:
                raise MemoryError()
        try:
            memset(t, 0, size * sizeof(float))
            _check(self.game.observe_tensor(self.state, p, t), "observe_tensor")
            return self._decode(t, p, cards, card)
        finally:
            if t != small:
                PyMem_Free(t)

    def observation_into(self, object player, object obj, tuple names, object cards,
                         object card):
        """Decode the observation of ``player`` into ``obj.__dict__``: segment i
        under ``names[i]``, card sets and cards built by ``cards`` and ``card``
        (for the game's observation dataclass; returns ``obj``)."""
        values = self.observation_values(player, cards, card)
        if len(names) != len(values):
            raise ValueError(f"{len(names)} names for {len(values)} segments")
        cdef dict d = obj.__dict__
        cdef Py_ssize_t i
        for i in range(len(names)):
            d[names[i]] = values[i]
        return obj

    cdef tuple _decode(self, const float *t, int32_t p, object cards, object card):
        # card sets are immutable: every empty set of one observation is one object
        empty = 0 if cards is None else _make_set(cards, 0)
        cdef int32_t n = self.nplayers
        cdef int32_t deck = self.game.deck_size
        cdef int32_t i, k, r, blocks, seat
        cdef const cc_segment *s
        cdef const float *base
        out = []
        for i in range(self.params.nsegs):
            s = &self.params.segs[i]
            base = t + s.offset
            if s.kind == CC_SEG_CARDS:
                v = _cards_of(base, s.length, deck)
                out.append(empty if v == 0 else v if cards is None else _make_set(cards, v))
            elif s.kind == CC_SEG_CARD:
                v = _one_hot(base, s.length)
                out.append(v if card is None or v is None else card(v))
            elif s.kind == CC_SEG_ONE_HOT:
                out.append(_one_hot(base, s.length))
            elif s.kind == CC_SEG_NUMBER:
                out.append(_number(base[0], s.scale))
            elif s.kind == CC_SEG_NUMBERS:
                out.append(tuple([_number(base[k], s.scale) for k in range(s.length)]))
            elif s.kind == CC_SEG_SEAT_NUMBERS or s.kind == CC_SEG_SEAT_CARDS:
                values = [None] * n
                blocks = s.length if s.kind == CC_SEG_SEAT_NUMBERS else s.length // deck
                for r in range(blocks):
                    seat = (p + s.seat0 + r) % n
                    if s.kind == CC_SEG_SEAT_NUMBERS:
                        values[seat] = _number(base[r], s.scale)
                    else:
                        v = _cards_of(base + r * deck, deck, deck)
                        values[seat] = (
                            empty if v == 0 else v if cards is None else _make_set(cards, v))
                out.append(tuple(values))
            elif s.kind == CC_SEG_SEAT:
                r = -1
                for k in range(s.length):
                    if base[k] != 0:
                        r = k
                        break
                out.append(None if r < 0 else (p + r) % n)
            else:
                out.append(tuple([base[k] for k in range(s.length)]))
        return tuple(out)

    def segments(self):
        """The named segments of this state's observation tensor."""
        self._live()
        return _segment_list(self.params)

    def events(self):
        """The kept event log: (kind, player, target, value, extra, seen_by) tuples."""
        self._live()
        cdef int32_t n = cc_game_events(self.game, self.state, NULL, 0, NULL)
        if n <= 0:
            return []
        cdef cc_event *buf = <cc_event *>PyMem_Malloc(n * sizeof(cc_event))
        if buf == NULL:
            raise MemoryError()
        try:
            n = cc_game_events(self.game, self.state, buf, n, NULL)
            return [
                (buf[i].kind, buf[i].player, buf[i].target, buf[i].value, buf[i].extra,
                 buf[i].seen_by)
                for i in range(n)
            ]
        finally:
            PyMem_Free(buf)

    def events_dropped(self):
        """How many of the oldest events the log's ring has dropped."""
        self._live()
        cdef int64_t dropped = 0
        cc_game_events(self.game, self.state, NULL, 0, &dropped)
        return dropped

    def clone(self):
        """An independent copy (the used bytes of the flat state, and the history)."""
        self._live()
        cdef GameState other = GameState.__new__(GameState)
        other._alloc(self.params)
        memcpy(other.state, self.state, cc_game_used_size(self.game, self.state))
        other._chain = self._chain
        other._length = self._length
        other._recorded = self._recorded
        return other

    def sample_infoset(self, object player, object seed):
        """A state drawn uniformly among those consistent with what ``player`` knows.

        The sample has no history (``history`` is None): nothing in it leads back
        to the real deal."""
        self._live()
        cdef int32_t p = _i32_arg(player, "player", 0, self.nplayers - 1)
        cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
        cdef GameState other = GameState.__new__(GameState)
        other._alloc(self.params)
        memset(other.state, 0, self.game.state_size)
        _check(self.game.sample_infoset(self.state, p, sd, other.state), "sample_infoset")
        return other

    def heuristic_action(self, object seed):
        """The action the game's rule-based heuristic chooses for the player to act
        (each game's docs page, "The heuristic bot"), its ties broken by a generator
        seeded from ``seed``.  It reads only what that player may know.  Raises
        ``ValueError`` if the game has no heuristic, ``IllegalActionError`` if the
        game is over."""
        self._live()
        cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
        if self.game.heuristic == NULL:
            raise ValueError(f"{self.game.name.decode()}: no heuristic")
        cdef cc_rng rng
        cdef int32_t action = -1
        cc_rng_seed(&rng, sd)
        _check(self.game.heuristic(self.state, &rng, &action), "heuristic_action")
        return action

    def raw(self):
        """The state's used bytes (platform-specific; for comparisons in tests)."""
        self._live()
        return (<char *>self.state)[:cc_game_used_size(self.game, self.state)]


def new_state(str name, object params, object nplayers, object seed, object deck=None):
    """A new state of game ``name`` with rules ``params`` (ints), dealt from ``seed``,
    or, when ``deck`` (card ids, top first) is given, from that deck for the first deal
    (``GameSetup(name, params, nplayers).new_state(seed, deck)``)."""
    return _new_state(GameSetup(name, params, nplayers), seed, deck)


cdef GameState _new_state(GameSetup p, object seed, object deck):
    cdef object name = p.name
    if p.nplayers == 0:
        raise _errors.RulesError(f"{name}: 0 players not supported")
    cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
    cdef GameState s = GameState.__new__(GameState)
    cdef uint8_t buf[256]
    cdef int32_t n, rc
    s._alloc(p)
    memset(s.state, 0, p.game.state_size)
    s._recorded = True
    if deck is None:
        _check(p.game.init(s.state, p.values, p.nplayers, sd), f"{name}: init")
        return s
    if p.game.init_deck == NULL:
        raise ValueError(f"{name}: this game cannot be dealt from a given deck")
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__len__"):
        raise TypeError(f"deck must be a sequence of card ids, got {type(deck).__name__}")
    # read the sequence once, at most deck_size ids, into buf: neither its len()
    # nor its length while read bounds what is written (a lying __len__, a list
    # growing during the loop)
    n = 0
    for c in deck:
        if n >= p.game.deck_size or n >= 256:
            raise _errors.InvalidCardError(f"deck: more than {p.game.deck_size} cards, "
                                           f"the deck has {p.game.deck_size}")
        buf[n] = _int_arg(c, f"deck[{n}]", 0, p.game.deck_size - 1)
        n += 1
    rc = p.game.init_deck(s.state, p.values, p.nplayers, sd, buf, n)
    if rc != CC_OK:
        raise _errors.InvalidCardError(f"{name}: the deck must be a permutation of the game's "
                               f"{p.game.deck_size} cards")
    return s


cdef struct _playouts_args:
    const cc_game *game
    const int32_t *params
    int32_t nplayers
    uint64_t seed
    int64_t ngames
    void *scratch
    int64_t *steps
    int64_t *points


cdef int32_t _playouts_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _playouts_args *x = <_playouts_args *> a
    return cc_random_playouts(x.game, x.params, x.nplayers, x.seed, x.ngames, x.scratch,
                              x.steps, x.points, stop)


def random_playouts(str name, object params, object nplayers, object seed, object ngames):
    """Play ``ngames`` random games natively (GIL released).

    Returns (actions applied, summed returns per player).  Called from the
    main thread, 256 games or more run in a thread of their own: an
    exception from a signal handler (KeyboardInterrupt on Ctrl-C) stops the
    games before the next one and is raised here, the games played
    discarded.
    """
    cdef GameSetup p = GameSetup(name, params, nplayers)
    cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
    cdef int64_t ng = _int_arg(ngames, "ngames", 0, 1 << 40)
    cdef void *scratch = PyMem_Malloc(2 * p.game.state_size)
    if scratch == NULL:
        raise MemoryError()
    cdef int64_t steps = 0
    cdef int64_t points[8]
    cdef int32_t rc
    cdef int32_t np_ = p.nplayers
    cdef _playouts_args args
    args.game = p.game
    args.params = p.values
    args.nplayers = np_
    args.seed = sd
    args.ngames = ng
    args.scratch = scratch
    args.steps = &steps
    args.points = points
    try:
        _run_stoppable(_playouts_go, &args, ng >= _LONG_PLAYOUTS, &rc)
        _check(rc, f"{name}: random_playouts")
    finally:
        PyMem_Free(scratch)
    return steps, [points[i] for i in range(np_)]
