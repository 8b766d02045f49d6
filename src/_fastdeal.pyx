# cython: language_level=3
"""The compiled kernel of ``thousand`` (placeholder until the kernel lands)."""
KERNEL_VERSION = 0
