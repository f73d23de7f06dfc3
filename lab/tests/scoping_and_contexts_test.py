"""lab/scripts/scoping_and_contexts.py: the context gaps of a split and variable-only differences."""
import fewshot_lab  # noqa: F401
from tests import load_benchmark
from tests.data.recombination.fixtures import SUPPORT, TRAINING, write

QUERY = [
    ("which state has the largest area", "( argmax $0 ( state:t $0 ) ( area:i $0 ) )"),  # shape shown, parent not
    ("what is the area of s0", "( area:i s0 )"),  # a shape the support never shows
    ("which city has the smallest area", "( argmin $0 ( city:t $0 ) ( area:i $0 ) )"),  # shown as is
    ("how long is r0", "( len:i r0 )"),  # no new predicate
]


def test_context_gaps_tell_unshown_shapes_from_unshown_parents(tmp_path):
    benchmark = load_benchmark("scoping_and_contexts", "lab/scripts")
    write(tmp_path / "train.txt", TRAINING), write(tmp_path / "support.txt", SUPPORT), write(tmp_path / "query.txt", QUERY)
    assert benchmark.context_gaps(str(tmp_path), "lambda") == (4, 1, 1)


def test_variables_only_compares_lfs_blind_to_variable_names():
    benchmark = load_benchmark("scoping_and_contexts", "lab/scripts")
    assert benchmark.variables_only("( argmax $1 ( state:t $1 ) ( size:i $1 ) )", "( argmax $0 ( state:t $0 ) ( size:i $0 ) )")
    assert not benchmark.variables_only("( argmax $0 ( state:t $0 ) ( size:i $0 ) )", "( argmin $0 ( state:t $0 ) ( size:i $0 ) )")
