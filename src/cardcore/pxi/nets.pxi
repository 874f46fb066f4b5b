# Small networks evaluated in integers (cc_net.h): a Net is made from the
# arrays of a network file (pycards.nets reads and checks the file) and
# evaluated by the engine.  Included from _core.pyx.  Converts types; what
# is valid is the engine's answer (cc_net_new names the layer at fault).

from time import perf_counter as _perf_counter

_NET_PATHS = {"auto": CC_NET_PATH_AUTO, "portable": CC_NET_PATH_PORTABLE,
              "avx2": CC_NET_PATH_AVX2}


def net_paths():
    """The evaluation paths this build and CPU have (``"portable"``, and
    ``"avx2"`` on x86-64 with AVX2), as a list of names."""
    cdef uint32_t bits = cc_net_paths()
    return [name for name, code in _NET_PATHS.items() if code != CC_NET_PATH_AUTO
            and bits >> code & 1]


cdef class Net:
    """A network in the engine (``cc_net.h``): made from ``layers``, a sequence
    of ``(weight, bias, shift)`` (int16 ``[out, in]``, int32 ``[out]``, int), the
    hidden layers then the policy head then the value head; the engine copies
    them.  :func:`pycards.nets.load_network` reads the file these come from;
    :class:`Searcher` takes a Net for its ``value``, ``priors``, ``rollout``
    and ``net`` options.  Read only once made: threads may share it."""
    cdef cc_net *net
    cdef readonly int input_size
    cdef readonly int num_actions
    cdef readonly int num_players
    cdef readonly int num_hidden

    def __cinit__(self, object input_size, object num_actions, object num_players,
                  object layers):
        self.net = NULL
        cdef int32_t ni = _i32_arg(input_size, "input_size", 1, 2**31 - 1)
        cdef int32_t na = _i32_arg(num_actions, "num_actions", 1, 2**31 - 1)
        cdef int32_t npl = _i32_arg(num_players, "num_players", 1, 2**31 - 1)
        items = list(layers)
        if not 2 <= len(items) <= CC_NET_MAX_LAYERS + 2:
            raise _errors.NetworkError(
                f"expected 2..{CC_NET_MAX_LAYERS + 2} layers, got {len(items)}", "layers")
        keep = []
        cdef cc_net_layer descs[8]
        cdef const int16_t[:, ::1] w
        cdef const int32_t[::1] b
        cdef int k
        for k, item in enumerate(items):
            if not isinstance(item, tuple) or len(item) != 3:
                raise _errors.NetworkError("expected (weight, bias, shift)", f"layers[{k}]")
            wa, ba, shift = item
            if not isinstance(wa, np.ndarray) or wa.dtype != np.int16 or wa.ndim != 2:
                raise _errors.NetworkError("expected a 2-d int16 array", f"layers[{k}].weight")
            if not isinstance(ba, np.ndarray) or ba.dtype != np.int32 or ba.ndim != 1:
                raise _errors.NetworkError("expected a 1-d int32 array", f"layers[{k}].bias")
            if wa.shape[0] != ba.shape[0] or wa.shape[0] == 0 or wa.shape[1] == 0:
                raise _errors.NetworkError(f"weight {wa.shape} and bias {ba.shape} differ",
                                           f"layers[{k}]")
            wa = np.ascontiguousarray(wa)
            ba = np.ascontiguousarray(ba)
            keep.append((wa, ba))
            w = wa
            b = ba
            descs[k].weight = &w[0, 0]
            descs[k].bias = &b[0]
            descs[k].outputs = <int32_t>wa.shape[0]
            descs[k].inputs = <int32_t>wa.shape[1]
            descs[k].shift = _i32_arg(shift, f"layers[{k}].shift", 0, 2**31 - 1)
            descs[k].reserved = 0
        cdef cc_net_desc d
        d.input_size = ni
        d.num_actions = na
        d.num_players = npl
        d.num_hidden = <int32_t>(len(items) - 2)
        d.layers = descs
        cdef int32_t status = CC_OK, bad = -1
        with nogil:
            self.net = cc_net_new(&d, &status, &bad)
        if self.net == NULL:
            if status == CC_E_CAPACITY:
                raise MemoryError("no memory for the network")
            where = "the sizes" if bad < 0 else f"layers[{bad}]"
            raise _errors.NetworkError(
                "the engine refused it (a size, a shift out of range, a weight of -32768, "
                "or a sum that could pass 2**31 - 1)", where)
        self.input_size = ni
        self.num_actions = na
        self.num_players = npl
        self.num_hidden = d.num_hidden

    def __dealloc__(self):
        if self.net != NULL:
            cc_net_free(self.net)

    def evaluate(self, object obs, object path="auto"):
        """The policy ``(n, num_actions)`` and value ``(n, num_players)``
        (float32) of observations ``obs`` (float32 ``(n, input_size)``), by
        ``path`` (``"auto"``, ``"portable"`` or ``"avx2"``, see
        :func:`net_paths`): the same bits on every path."""
        code = _NET_PATHS[_choice_arg(path, "path", _NET_PATHS)]
        if not isinstance(obs, np.ndarray) or obs.dtype != np.float32 or obs.ndim != 2:
            raise TypeError("obs must be a 2-d float32 numpy array")
        if obs.shape[1] != self.input_size:
            raise _errors.NetworkError(
                f"expected shape [n, {self.input_size}], got {list(obs.shape)}", "obs")
        x = np.ascontiguousarray(obs)
        cdef int64_t n = x.shape[0]
        policy = np.empty((n, self.num_actions), np.float32)
        value = np.empty((n, self.num_players), np.float32)
        if n == 0:
            return policy, value
        cdef const float[:, ::1] xv = x
        cdef float[:, ::1] pv = policy
        cdef float[:, ::1] vv = value
        cdef int32_t rc
        cdef int32_t c = code
        with nogil:
            rc = cc_net_evaluate(self.net, c, n, &xv[0, 0], &pv[0, 0], &vv[0, 0])
        if rc != CC_OK:
            raise ValueError(f"path {path!r} is not available here (net_paths(): {net_paths()})")
        return policy, value

    def evaluate_loop(self, object obs, object repeat, object path="auto"):
        """Evaluate the rows of ``obs`` one at a time (both heads), ``repeat``
        times over, and return the seconds it took: the benchmark of one
        evaluation, with no Python per call."""
        code = _NET_PATHS[_choice_arg(path, "path", _NET_PATHS)]
        if not isinstance(obs, np.ndarray) or obs.dtype != np.float32 or obs.ndim != 2 \
                or obs.shape[1] != self.input_size or obs.shape[0] == 0:
            raise TypeError(f"obs must be a non-empty float32 array (n, {self.input_size})")
        cdef int64_t reps = _c_int64(repeat, "repeat")
        x = np.ascontiguousarray(obs)
        cdef const float[:, ::1] xv = x
        policy = np.empty(self.num_actions, np.float32)
        value = np.empty(self.num_players, np.float32)
        cdef float[::1] pv = policy
        cdef float[::1] vv = value
        cdef int64_t rows = x.shape[0], r, i
        cdef int32_t c = code, rc = CC_OK
        cdef const float *base = &xv[0, 0]
        cdef float *pp = &pv[0]
        cdef float *vp = &vv[0]
        cdef int64_t width = self.input_size
        cdef double t0 = _perf_counter()
        with nogil:
            for r in range(reps):
                for i in range(rows):
                    rc = cc_net_evaluate(self.net, c, 1, base + i * width, pp, vp)
                    if rc != CC_OK:
                        break
                if rc != CC_OK:
                    break
        cdef double t1 = _perf_counter()
        if rc != CC_OK:
            raise ValueError(f"path {path!r} is not available here")
        return t1 - t0

    def __repr__(self):
        return (f"Net(input_size={self.input_size}, num_actions={self.num_actions}, "
                f"num_players={self.num_players}, num_hidden={self.num_hidden})")
