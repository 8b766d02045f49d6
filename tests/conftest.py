"""What every test module shares: hypothesis profiles, the ``seed`` fixture, shared fixtures.

Helpers live in the package ``tests/helpers`` (``tests`` is on pytest's ``pythonpath``), so
test modules import them the normal way: ``from helpers.deals import d1``.

Environment variables (``pytest`` prints the values in use in its header):

* ``THOUSAND_HYPOTHESIS_PROFILE`` -- ``quick`` (a fifth of the examples), ``ci`` (the
  default, also under ``make test``) or ``long`` (ten times the examples).  Tests scale
  their own example budgets with :func:`helpers.hypothesis_budget`.
* ``THOUSAND_TEST_SEEDS`` -- how many seeds a test taking the ``seed`` fixture runs with
  (default 1); ``THOUSAND_TEST_SEED`` -- the first of them (default 1).  A failure names
  its seed in the test id (``[seed3]``): ``THOUSAND_TEST_SEED=3`` reruns that one alone.
* ``THOUSAND_TEST_ARTIFACTS`` -- where a failing engine comparison writes the trace it
  failed on (default ``test-artifacts/`` at the top of the repository, ignored by git).
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# helpers' plain asserts explain themselves like the tests' own
pytest.register_assert_rewrite("helpers")

from helpers import artifacts  # noqa: E402  (after the rewrite hook)
from helpers.bid_fakes import FakeKernel  # noqa: E402

PROFILE_ENV = "THOUSAND_HYPOTHESIS_PROFILE"
SEEDS_ENV = "THOUSAND_TEST_SEEDS"
FIRST_SEED_ENV = "THOUSAND_TEST_SEED"

# max_examples is the scale of every test's budget (100 = the budgets as written)
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("quick", max_examples=20, **_COMMON)
settings.register_profile("ci", max_examples=100, **_COMMON)
settings.register_profile("long", max_examples=1000, **_COMMON)
PROFILES = ("quick", "ci", "long")


def _profile() -> str:
    name = os.environ.get(PROFILE_ENV, "ci") or "ci"
    if name not in PROFILES:
        raise pytest.UsageError(f"{PROFILE_ENV}={name!r}: use one of {', '.join(PROFILES)}")
    return name


def _whole(name: str, default: int, minimum: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise pytest.UsageError(f"{name}={text!r}: must be a whole number") from None
    if value < minimum:
        raise pytest.UsageError(f"{name}={value}: must be at least {minimum}")
    return value


def test_seeds() -> list[int]:
    """The seeds a ``seed``-taking test runs with: ``THOUSAND_TEST_SEEDS`` of them, from
    ``THOUSAND_TEST_SEED``."""
    first = _whole(FIRST_SEED_ENV, 1, 0)
    return list(range(first, first + _whole(SEEDS_ENV, 1, 1)))


test_seeds.__test__ = False  # a helper, not a test


def pytest_configure(config):
    # before any test module is imported: their budgets read the profile
    settings.load_profile(_profile())
    test_seeds()      # a bad seed setting is a usage error before anything runs


def pytest_report_header(config):
    return (f"thousand: hypothesis profile {_profile()} ({PROFILE_ENV}), seeds {test_seeds()} "
            f"({SEEDS_ENV}, {FIRST_SEED_ENV}), failure traces to {artifacts.artifacts_dir()}")


def pytest_generate_tests(metafunc):
    # ``seed``: a claim that must hold whatever the seed (parity, replay): one seed by
    # default, more on demand, each its own test id
    if "seed" in metafunc.fixturenames:
        seeds = test_seeds()
        metafunc.parametrize("seed", seeds, ids=[f"seed{s}" for s in seeds])


@pytest.fixture(autouse=True)
def small_play_quality_sample(monkeypatch):
    """Reports the tests build solve 40 deals for "How well the bots play", and replay 8 of
    them against the search player's defence, unless they say otherwise (``play_deals``,
    ``defence_deals``): the defaults take a few minutes of CPU per report."""
    monkeypatch.setattr("thousand.analysis.report.DEFAULT_PLAY_DEALS", 40)
    monkeypatch.setattr("thousand.analysis.report.DEFAULT_DEFENCE_DEALS", 8)


@pytest.fixture
def fake_kernel(monkeypatch):
    """``thousand.analysis.bids`` plays on :class:`helpers.bid_fakes.FakeKernel`."""
    from thousand.analysis import bids

    fake = FakeKernel()
    monkeypatch.setattr(bids, "kernel_play", lambda: fake)
    return fake
