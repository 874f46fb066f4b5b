"""cardcore: the private C engine of pycards and its Cython binding.

Import the public API from :mod:`pycards`; this package's modules are
implementation details.
"""
