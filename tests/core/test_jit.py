"""The numba switch: kernels still compile where no cache directory is writable."""

import subprocess
import sys

import pytest

from taas.envs.core.jit import HAVE_NUMBA

KERNEL = """
from taas.envs.core.jit import jit, jit_norc

@jit
def add(a, b):
    return a + b

@jit_norc
def twice(a):
    return 2 * a

print(add(1, 2), twice(4))
"""


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed or disabled")
def test_kernels_compile_without_a_writable_cache_dir(tmp_path):
    # numba caches in __pycache__ beside the source, else under the user's cache dir: a plain
    # file in each place makes both unusable (chmod would not stop root)
    (tmp_path / "__pycache__").write_text("")
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("")
    script = tmp_path / "kernel.py"
    script.write_text(KERNEL)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(blocker), "XDG_CACHE_HOME": str(blocker / "c")}
    out = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["3", "8"]
    assert out.stderr.count("set NUMBA_CACHE_DIR") == 1  # said once, not per kernel


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed or disabled")
def test_a_real_compilation_says_so_once_and_a_cached_load_says_nothing(tmp_path):
    script = tmp_path / "kernel.py"
    script.write_text(KERNEL)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "c")}

    def run() -> str:
        out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0 and out.stdout.split() == ["3", "8"], out.stderr
        return out.stderr

    assert run().count("taas: compiling the numba kernels") == 1  # two kernels, one line
    assert "compiling" not in run()  # from the cache
