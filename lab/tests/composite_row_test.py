"""lab/scripts/composite_row.py: the row with a component where it changes a draw, without it elsewhere."""

import fewshot_lab  # noqa: F401

from tests import load_benchmark


def test_the_composite_takes_the_component_where_it_changes_the_draw_and_leaves_out_unmeasured_draws():
    script = load_benchmark("composite_row", "lab/scripts")
    column = ("geo", 1)
    without = {(1, 0): 50.0, (1, 1): 60.0, (2, 0): 40.0, (3, 0): 30.0}
    with_ = {(1, 0): 70.0, (1, 1): 80.0, (2, 0): 99.0}  # draw 2's numbers must not be taken: unchanged
    reach = {("geo", 1, 1): True, ("geo", 1, 2): False, ("geo", 1, 3): True}  # draw 3 changed, not run
    made, base, left_out = script.composite(with_, without, column, reach)
    assert made == {(1, 0): 70.0, (1, 1): 80.0, (2, 0): 40.0}
    assert base == {(1, 0): 50.0, (1, 1): 60.0, (2, 0): 40.0}
    assert left_out == 1
    # A draw the reach list does not know counts as changed: without a row with the component, left out.
    made, _, left_out = script.composite({}, {(9, 0): 10.0}, column, reach)
    assert made == {} and left_out == 1
