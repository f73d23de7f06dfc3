"""lab/scripts/suite_size.py: how a paired difference's spread splits, and what more draws or samples buy."""

import math

import fewshot_lab  # noqa: F401
import pytest

from tests import load_benchmark


def load():
    return load_benchmark("suite_size", "lab/scripts")


def test_spread_splits_between_and_within_draws_and_projects_the_error():
    suite_size = load()
    # Two groups of draws (1 and 2 new predicates, half the recipe each), two samples a draw.
    faithful = {(d, s): 0.0 for d in (1, 2, 3, 4) for s in (0, 1)}
    runs = {(1, 0): 9.0, (1, 1): 11.0, (2, 0): 19.0, (2, 1): 21.0, (3, 0): 0.0, (3, 1): 2.0, (4, 0): 4.0, (4, 1): 6.0}
    strata = {1: (1, 0.5), 2: (1, 0.5), 3: (2, 0.5), 4: (2, 0.5)}
    spread = suite_size.spread(runs, faithful, strata)
    assert spread.within == pytest.approx(2.0)  # every draw's two differences are 2 apart: variance 2
    assert spread.samples == 2
    # Draw means 10, 20 (group 1) and 1, 5 (group 2); their variance less w / k = 1.
    assert spread.between[1] == pytest.approx(50.0 - 1.0)
    assert spread.between[2] == pytest.approx(8.0 - 1.0)
    measured = {1: 2, 2: 2}
    now = math.sqrt(0.25 * (49 + 1) / 2 + 0.25 * (7 + 1) / 2)
    assert spread.error(measured) == pytest.approx(now)
    # Unlimited samples leave the between-draw part alone: the floor of these draws.
    assert spread.error(measured, math.inf) == pytest.approx(math.sqrt(0.25 * 49 / 2 + 0.25 * 7 / 2))
    assert spread.error(measured, math.inf) < spread.error(measured, 5) < spread.error(measured)
    assert spread.draws_needed(1.0) == math.ceil(0.5 * 50 + 0.5 * 8)
    # As a census: group 1's two draws are every draw it has (no between-draw error left), group 2's
    # two of four (half of it left).
    census = spread.census_error(measured, {1: 2, 2: 4})
    assert census == pytest.approx(math.sqrt(0.25 * (0 + 1) / 2 + 0.25 * (0.5 * 7 + 1) / 2))
    assert spread.census_error(measured, {1: 1000, 2: 1000}) < spread.error(measured)
    assert suite_size.measured_draws([1, 2, 3, 4, 9], strata) == {1: 2, 2: 2, 0: 1}


def test_a_row_recorded_from_same_inputs_costs_the_run_it_copies():
    suite_size = load()
    from fewshot_lab.systems import SYSTEMS

    best, modifiers = SYSTEMS["best-no-modifiers"][:2], SYSTEMS["best-modifiers"][:2]

    def row(system, seconds, same="", sample="0"):
        fields = dict(dataset="geo", shot="1", shuffle="3", sample=sample, seconds=str(seconds), same_inputs_as=same)
        return dict(fields, system=system[0], setting=system[1])

    trained = row(best, 120.0, sample="")  # shuffle 0's rows may leave the sample empty
    copied = row(modifiers, 0.0, same="best-no-modifiers")
    chained = dict(row(SYSTEMS["best"][:2], 0.0, same="best-modifiers"))
    cells = {suite_size.cell(r): r for r in (trained, copied, chained)}
    assert suite_size.run_seconds(copied, cells) == 120.0
    assert suite_size.run_seconds(chained, cells) == 120.0
    assert suite_size.run_seconds(row(modifiers, 7.0), cells) == 7.0  # trained itself
    orphan = row(modifiers, 0.0, same="ours")  # its source row is not in the file: nothing to add
    assert suite_size.run_seconds(orphan, cells) == 0.0
