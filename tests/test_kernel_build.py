"""The kernel is compiled as setup.py intends: the population-count instruction where
numpy already requires it, and gcc's larger inlining budget.  Neither changes a result
(the parity and golden tests hold for every build); both are a large part of its speed
(docs/kernel.md, Speed)."""
import os
import platform
import sysconfig

from thousand import _fastdeal


def _numpy_requires_popcnt() -> bool:
    from numpy._core._multiarray_umath import __cpu_baseline__
    return bool({"POPCNT", "X86_V2"} & set(__cpu_baseline__))


def test_popcount_instruction_exactly_where_numpy_requires_it():
    portable = os.environ.get("THOUSAND_PORTABLE", "") not in ("", "0")
    if platform.machine().lower() in ("x86_64", "amd64"):
        expected = _numpy_requires_popcnt() and not portable
    else:  # elsewhere __builtin_popcount is the CPU's own instruction or libgcc's
        expected = True
    assert _fastdeal.build_info()["popcount"] is expected


def test_gcc_builds_take_the_inlining_budget():
    compiler = (sysconfig.get_config_var("CC") or "").split()[0]
    if os.environ.get("CC"):
        compiler = os.environ["CC"].split()[0]
    info = _fastdeal.build_info()
    assert set(info) == {"popcount", "inlining"}
    if os.path.basename(compiler).startswith("gcc") and not os.environ.get("THOUSAND_DEBUG"):
        assert info["inlining"] is True

