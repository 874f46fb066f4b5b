# Weights of sampled worlds from the other players' actions (cc_infer.h).
# Included by _core.pyx.  Converts types and maps status codes; no rule.
from libc.string cimport memcmp

def infer_supported(GameState state not None):
    """True if ``state``'s game can be dealt from a deck and ``state`` is in its
    first deal (the deals a world can be read back from)."""
    state._live()
    return bool(cc_infer_supported(state.game, state.state))


def infer_world_deck(GameState sample not None, object seed):
    """The first-deal deck (card ids, top first) ``sample`` was dealt from, as
    its log tells (``cc_infer_world_deck``)."""
    sample._live()
    cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
    cdef size_t cap = cc_infer_scratch_size(sample.game, sample.params.values, sample.nplayers, 0)
    cdef void *scratch = PyMem_Malloc(cap)
    cdef uint8_t deck[78]
    cdef int32_t rc
    if scratch == NULL:
        raise MemoryError()
    try:
        rc = cc_infer_world_deck(sample.game, sample.params.values, sample.nplayers, sd,
                                 sample.state, scratch, cap, deck)
    finally:
        PyMem_Free(scratch)
    _check(rc, "infer_world_deck")
    return [deck[i] for i in range(sample.game.deck_size)]


def infer_weights(list samples not None, object seed, object observer, object actions, object record,
                  object eps, object ties, object max_nodes, object model=None,
                  object follow_log=False):
    """The weight of each sample as a world for ``observer`` (``cc_infer_weight``):
    ``actions`` (ints: the observer's own action at each step, -1 for another
    seat's), ``record`` (a C-contiguous float32 array of shape (steps + 1,
    tensor_size): the observer's tensors after 0 .. steps actions).  Returns
    (weights as a float64 array, positions visited).  The samples are read
    once, into a tuple of this call that keeps them alive during the
    replays (the GIL released), whatever is done to the list meanwhile.
    ``model`` (a :class:`Net` for this game, rules and players, or None: the
    softened heuristic) is the model of the other seats
    (``cc_infer_weight_model``; ``ties`` is then not used).
    ``follow_log`` (a bool): the samples' logs name their whole history
    (worlds of :func:`notakers_sample_history`), and a branch must log
    what its sample logged (``cc_infer_weight_logged``, with the model too)."""
    if model is not None and not isinstance(model, Net):
        raise TypeError(f"model: expected a Net or None, got {type(model).__name__}")
    cdef const cc_net *net = NULL if model is None else (<Net> model).net
    cdef tuple items = tuple(samples)    # the call's own references
    if not isinstance(follow_log, bool):
        raise TypeError(f"follow_log: expected a bool, got {type(follow_log).__name__}")
    cdef bint follow = follow_log
    cdef cc_infer_allow allow = NULL
    cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
    if not isinstance(eps, float):
        raise TypeError(f"eps: expected a float, got {type(eps).__name__}")
    cdef double e = eps
    cdef int32_t t = _i32_arg(ties, "ties", 1, 1 << 20)
    cdef int64_t limit = _int_arg(max_nodes, "max_nodes", 0, 1 << 62)
    if not isinstance(record, np.ndarray) or record.dtype != np.float32 or record.ndim != 2 \
            or not record.flags.c_contiguous:
        raise TypeError("record: expected a C-contiguous 2-D float32 numpy array")
    cdef int32_t nsteps = len(actions)
    cdef GameState s
    cdef GameState first
    for k, item in enumerate(items):
        if not isinstance(item, GameState):
            raise TypeError(f"samples[{k}]: expected a GameState, got {type(item).__name__}")
    if not items:
        return np.zeros(0), 0
    first = items[0]
    first._live()
    if follow and first.game == &cc_game_notakers:
        allow = cc_notakers_history_allow
    if record.shape[0] != nsteps + 1 or record.shape[1] != first.params.tensor_size:
        raise ValueError(f"record: expected shape ({nsteps + 1}, {first.params.tensor_size})")
    cdef int32_t p = _i32_arg(observer, "observer", 0, first.nplayers - 1)
    if model is not None and (
            (<Net> model).input_size != first.params.tensor_size
            or (<Net> model).num_actions != first.game.num_actions(first.params.values,
                                                                    first.nplayers)
            or (<Net> model).num_players != first.nplayers):
        raise _errors.NetworkError("the model does not fit this game, rules and players",
                                   "model")
    cdef int32_t[::1] acts = np.zeros(max(nsteps, 1), dtype=np.int32)
    cdef Py_ssize_t i
    for i in range(nsteps):
        acts[i] = _i32_arg(actions[i], f"actions[{i}]", -1, 2147483647)
    cdef const float[:, ::1] rec = record
    cdef size_t cap = cc_infer_scratch_size(first.game, first.params.values, first.nplayers,
                                            nsteps)
    cdef void *scratch = PyMem_Malloc(cap)
    if scratch == NULL:
        raise MemoryError()
    out = np.zeros(len(items), dtype=np.float64)
    cdef double[::1] view = out
    cdef double w = 0.0
    cdef int64_t nodes = 0, total = 0
    cdef int32_t rc
    try:
        for i in range(len(items)):
            s = items[i]
            s._live()
            if s.game != first.game or s.nplayers != first.nplayers or (
                    s.params is not first.params
                    and memcmp(s.params.values, first.params.values, sizeof(int32_t) * 32)):
                raise ValueError("samples: every sample must be of the same game and rules")
            with nogil:
                if follow:
                    rc = cc_infer_weight_logged(first.game, first.params.values, first.nplayers,
                                                sd, s.state, p, &acts[0], nsteps, &rec[0, 0], net,
                                                e, t, limit, scratch, cap, &w, &nodes, allow)
                elif net == NULL:
                    rc = cc_infer_weight(first.game, first.params.values, first.nplayers, sd,
                                         s.state, p, &acts[0], nsteps, &rec[0, 0], e, t, limit,
                                         scratch, cap, &w, &nodes)
                else:
                    rc = cc_infer_weight_model(first.game, first.params.values, first.nplayers,
                                               sd, s.state, p, &acts[0], nsteps, &rec[0, 0], net,
                                               e, limit, scratch, cap, &w, &nodes)
            total += nodes
            _check(rc, "infer_weights")
            view[i] = w
    finally:
        PyMem_Free(scratch)
    return out, total


def notakers_sample_history(GameState state not None, object player, object seed, object tries):
    """A No Takers? world with its history for ``player``
    (``cc_notakers_sample_history``): a state replayed from a deck along
    ``state``'s actions, the hidden ones the world's, consistent with
    everything ``player`` saw; its log names every card.  Returns (the
    world, the log of the probability of drawing it).  ``ValueError`` for a
    state of another game or without a history, or if no world was found in
    ``tries`` draws."""
    state._live()
    if state.game != &cc_game_notakers:
        raise ValueError("notakers_sample_history needs a No Takers? state")
    hist = state.history
    if hist is None:
        raise ValueError("state: a sampled state has no history")
    cdef int32_t p = _i32_arg(player, "player", 0, state.nplayers - 1)
    cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
    cdef int32_t nt = _i32_arg(tries, "tries", 1, 1 << 30)
    cdef int32_t nsteps = len(hist)
    cdef int32_t[::1] acts = np.zeros(max(nsteps, 1), dtype=np.int32)
    cdef Py_ssize_t i
    for i in range(nsteps):
        acts[i] = hist[i]
    cdef GameState other = GameState.__new__(GameState)
    other._alloc(state.params)
    memset(other.state, 0, state.game.state_size)
    cdef double lq = 0.0
    cdef int32_t rc
    with nogil:
        rc = cc_notakers_sample_history(state.state, &acts[0], nsteps, p, sd, nt, other.state,
                                        &lq)
    if rc == CC_E_CAPACITY:
        raise ValueError(f"notakers_sample_history: no world in {nt} draws, or the log "
                         "dropped events")
    _check(rc, "notakers_sample_history")
    return other, lq
