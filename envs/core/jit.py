"""Optional numba compilation for the hot loops (the meld sweep, Marriage's observation).

Code decorated here is written once in the numba-compatible subset of Python:
``numba.njit(cache=True)`` compiles it when numba is importable and ``TAAS_NO_NUMBA`` is unset;
otherwise the same functions run as plain Python (slower, same answers).
"""

from __future__ import annotations

import os

try:
    if os.environ.get("TAAS_NO_NUMBA", "") not in ("", "0"):
        raise ImportError("numba disabled by TAAS_NO_NUMBA")
    import numba

    HAVE_NUMBA = True

    def jit(f):
        return numba.njit(cache=True)(f)

    def jit_norc(f):
        """For functions that allocate nothing and run in tight loops: compiled without
        numba's reference counting, whose atomic increments on every array argument took two
        thirds of a meld sweep's time."""
        return numba.njit(cache=True, _nrt=False)(f)

except ImportError:
    HAVE_NUMBA = False

    def jit(f):
        return f

    jit_norc = jit
