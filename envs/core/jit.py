"""Optional numba compilation for the hot loops (the meld sweep, the observations).

Code decorated here is written once in the numba-compatible subset of Python: it is compiled
when numba is importable and ``TAAS_NO_NUMBA`` is unset; otherwise the same functions run as
plain Python (slower, same answers).

Compiled code is cached on disk (``cache=True``) so that a new process loads it instead of
compiling again (seconds per kernel). Numba keeps the cache in ``__pycache__`` next to the
source, else in the user's cache directory (``NUMBA_CACHE_DIR`` overrides both); where none is
writable (a read-only install under a read-only home) the kernels are compiled in each process
instead of failing to import.

Compiling the kernels for the first time takes about a minute (a first Marriage game sat silent
that long), so the first real compilation in a process prints one line to standard error
saying so; loads from the cache print nothing (numba's ``numba:compile`` event fires only for
real compilations).
"""

from __future__ import annotations

import os
import sys
import warnings

try:
    if os.environ.get("TAAS_NO_NUMBA", "") not in ("", "0"):
        raise ImportError("numba disabled by TAAS_NO_NUMBA")
    import numba
    from numba.core import event

    HAVE_NUMBA = True

    _warned = []

    class _Notice(event.Listener):
        """One line on stderr at the process's first real compilation, nothing after."""

        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                # the process's own stderr, not a redirected sys.stderr: a program capturing
                # its callee's error output (a test, a CLI wrapper) gets no stray line
                print("taas: compiling the numba kernels for this machine (about a minute, "
                      "once; later runs load them from the cache)",
                      file=sys.__stderr__ or sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Notice())

    def _njit(f, **options):
        try:
            return numba.njit(cache=True, **options)(f)
        except RuntimeError:  # numba: "cannot cache function ...: no locator available"
            if not _warned:
                _warned.append(True)
                warnings.warn(
                    "numba finds no writable cache directory, so taas compiles its kernels in "
                    "every process (seconds each); set NUMBA_CACHE_DIR to a writable folder",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return numba.njit(**options)(f)

    def jit(f):
        return _njit(f)

    def jit_norc(f):
        """For functions that allocate nothing and run in tight loops: compiled without
        numba's reference counting, whose atomic increments on every array argument took two
        thirds of a meld sweep's time."""
        return _njit(f, _nrt=False)

except ImportError:
    HAVE_NUMBA = False

    def jit(f):
        return f

    jit_norc = jit
