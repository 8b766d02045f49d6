"""Build the Cython kernel ``thousand._fastdeal`` from ``src/_fastdeal.pyx``.

Compiler directives are set once here.  ``THOUSAND_DEBUG=1`` turns bounds checking,
wraparound and initialisation checks back on for debugging the kernel;
``THOUSAND_PORTABLE=1`` builds for any x86-64 CPU (see ``cpu_flags``).
"""
import os
import platform
import tempfile

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("THOUSAND_DEBUG", "") not in ("", "0")
PORTABLE = os.environ.get("THOUSAND_PORTABLE", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
}

# The kernel is one large deal function (run_deal) that calls the strategies' decisions
# ~25 times a deal.  gcc's default inlining budget leaves the card play, the hand-off
# search, the bid estimate and the shuffle as calls; a larger budget folds them into the
# deal: 16% fewer instructions a game and 6-8% more games and deals a second (benchmarks,
# docs/kernel.md).  Compilers that do not take these options build without them.
# 2000 rather than 1000 since the pimc player joined the unit: at 1000 gcc stopped
# inlining the standard card play into the deal (callgrind, 20,000 standard deals:
# +10% instructions; at 2000, +1.5% over the kernel before pimc).
INLINING = ["--param", "max-inline-insns-single=2000",
            "--param", "large-function-growth=1000",
            "--param", "inline-unit-growth=1000"]


def cpu_flags() -> list[str]:
    """``-mpopcnt`` where numpy itself already requires the instruction.

    Card counting is a population count of a 24-bit mask; without the instruction it is
    a dozen arithmetic steps.  numpy 2.4 and later are built for x86-64-v2 (which has
    POPCNT) and do not import on an older CPU, so this build assumes exactly what the
    numpy it is built against assumes; the kernel also refuses to load, with a one-line
    error, on a CPU without it.
    """
    if PORTABLE or platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        from numpy._core._multiarray_umath import __cpu_baseline__
    except ImportError:
        return []
    return ["-mpopcnt"] if {"POPCNT", "X86_V2"} & set(__cpu_baseline__) else []


class BuildExt(build_ext):
    """build_ext that adds the inlining options when the compiler accepts them."""

    def build_extensions(self) -> None:
        if not DEBUG and self._accepts(INLINING):
            for ext in self.extensions:
                ext.extra_compile_args += INLINING
                ext.define_macros.append(("THOUSAND_INLINING", "1"))  # for build_info()
        super().build_extensions()

    def _accepts(self, flags: list[str]) -> bool:
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "probe.c")
            with open(source, "w") as f:
                f.write("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([source], output_dir=tmp, extra_postargs=flags)
            except Exception:  # CompileError, or a compiler that cannot run at all
                return False
        return True


extensions = [
    Extension(
        "thousand._fastdeal",
        ["src/_fastdeal.pyx"],
        include_dirs=[np.get_include(), "src"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # -ffp-contract=off: no fused multiply-adds, so the strategies' floating-point
        # estimates (and with them every decision) are the same on every CPU and compiler
        # (gcc fuses by default where the target has FMA, e.g. aarch64 or -march=native).
        extra_compile_args=(["-O3"] if not DEBUG else ["-O0", "-g"]) + ["-ffp-contract=off"]
        + cpu_flags(),
    ),
    # the inner loop of the runner's Parquet writer (thousand.parquet)
    Extension("thousand._parquet", ["src/_parquet.pyx"], extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"]),
      cmdclass={"build_ext": BuildExt})
