"""The kernel's constants equal the Python enums they mirror, and its row layout is sound."""
import numpy as np

from thousand import _fastdeal, kernel, schema
from thousand.rules import CHOICES, CLASSIC, RuleField
from thousand.strategies import N_PARAMS, STRATEGIES
from thousand.trace import REDEAL_KINDS, EventKind


def test_rule_fields_match():
    assert _fastdeal.N_RULES == len(RuleField)
    assert _fastdeal.RULE_FIELDS == {f.name: f.value for f in RuleField}


def test_choice_codes_match():
    for name, values in CHOICES.items():
        assert _fastdeal.CHOICE_CODES[name] == {v: i for i, v in enumerate(values)}


def test_event_kinds_match():
    assert _fastdeal.EVENT_KINDS == {k.name: k.value for k in EventKind}


def test_redeal_codes_match():
    assert _fastdeal.REDEAL_CODES == {"none": schema.REDEAL_NONE, **REDEAL_KINDS}
    assert [_fastdeal.REDEAL_CODES[n] for n in schema.REDEAL_NAMES] == [0, 1, 2, 3]


def test_strategy_codes_match():
    for name, s in STRATEGIES.items():
        assert _fastdeal.STRATEGY_CODES[name] == s.code
    assert _fastdeal.N_STRATEGY_PARAMS == N_PARAMS


def test_row_dtypes_match_the_c_structs():
    assert kernel.DEAL_ROW_DTYPE.itemsize == _fastdeal.deal_row_size()
    assert kernel.GAME_ROW_DTYPE.itemsize == _fastdeal.game_row_size()


def test_columns_are_the_schema():
    for players in (2, 3, 4):
        rules = CLASSIC.with_overrides({"players": str(players), "redeal_talon_jacks": "none"})
        cols = kernel.play_deals(np.random.PCG64(3), rules, "random", n_deals=20)
        for name, (dtype, _) in schema.deal_columns(players).items():
            assert cols[name].dtype == np.dtype(dtype), name
        games, deals = kernel.play_games(np.random.PCG64(3), rules, "greedy", n_games=2, deal_rows=True)
        for name, (dtype, _) in schema.game_columns(players).items():
            assert games[name].dtype == np.dtype(dtype), name
        assert set(schema.deal_columns(players)) <= set(deals)
