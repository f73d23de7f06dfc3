"""lab/scripts/question_openings.py: exact match on the questions with a given opening."""
from tests import load_benchmark


def test_counts_per_opening():
    benchmark = load_benchmark("question_openings", "lab/scripts")
    query = [("how high is m0".split(), "( elevation:i m0 )"),
             ("how high is the highest point in s0".split(), "( elevation:i ( argmax $0 ( place:t $0 ) ( elevation:i $0 ) ) )"),
             ("where is m0".split(), "( lambda $0 e ( loc:t m0 $0 ) )")]
    predicted = ["( elevation:i  m0 )", "( len:i m0 )", "( lambda $0 e ( loc:t m0 $0 ) )"]
    counts = benchmark.opening_counts(query, predicted, ["how high", "where is the", ""])
    assert counts == {"how high": (1, 2), "where is the": (0, 0), "": (2, 3)}
