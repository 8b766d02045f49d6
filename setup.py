"""Build the Cython kernel ``thousand._fastdeal`` from ``src/_fastdeal.pyx``.

Compiler directives are set once here.  ``THOUSAND_DEBUG=1`` turns bounds checking,
wraparound and initialisation checks back on for debugging the kernel.
"""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("THOUSAND_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
}

extensions = [
    Extension(
        "thousand._fastdeal",
        ["src/_fastdeal.pyx"],
        include_dirs=[np.get_include(), "src"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # -ffp-contract=off: no fused multiply-adds, so the strategies' floating-point
        # estimates (and with them every decision) are the same on every CPU and compiler
        # (gcc fuses by default where the target has FMA, e.g. aarch64 or -march=native).
        extra_compile_args=(["-O3"] if not DEBUG else ["-O0", "-g"]) + ["-ffp-contract=off"],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"]))
