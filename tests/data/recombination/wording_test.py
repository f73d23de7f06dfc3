"""`wording.support_entries`: the words of a new predicate in its support examples."""

from fewshot_parser.data.recombination import RecombinationContext
from fewshot_parser.data.recombination.wording import support_entries

from tests.data.recombination.fixtures import examples, synthesize

# No training LF uses state:t or next_to:t: both are new in the support below.
TRAINING = [
    ("what is the population of s0", "( population:i s0 )"),
    ("how many people live in s0", "( population:i s0 )"),
    ("what is the smallest city", "( argmin $0 ( city:t $0 ) ( population:i $0 ) )"),
    ("what is the longest river", "( argmax $0 ( river:t $0 ) ( len:i $0 ) )"),
    ("which river runs through s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("name the cities in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how many cities are in s0", "( count $0 ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
]
SUPPORT = [("what state border s0", "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )")]


def words(context, support, predicate):
    return [
        " ".join(entry.example.utterance[entry.span.start : entry.span.end])
        for entry in support_entries(context, support, predicate)
    ]


def test_a_word_two_new_predicates_take_belongs_to_the_shorter_span():
    context = RecombinationContext(examples(TRAINING), "lambda")
    support = context.support(examples(SUPPORT, source="support.txt"))
    assert support.new_predicates == ["next_to:t", "state:t"]
    # Alone, state:t would take `state border` (its name and the next word nobody known explains);
    # next_to:t's span is the shorter `border`, so `border` is next_to:t's.
    assert words(context, support, "next_to:t") == ["border"]
    assert words(context, support, "state:t") == ["state"]
    # So state:t's pairs never put `border` where a known type was: "which state runs through s0", not
    # "which state border runs through s0".
    pairs = [p for p in synthesize(examples(TRAINING), examples(SUPPORT, source="support.txt")) if p.predicate == "state:t"]
    assert pairs and all("border" not in pair.utterance for pair in pairs if pair.direction == "forward")


def test_a_span_as_long_as_the_other_keeps_its_words():
    # Two new predicates whose spans are one word each and do not overlap keep them.
    context = RecombinationContext(examples(TRAINING), "lambda")
    support = context.support(examples([("what state lake s0", "( lambda $0 e ( and ( state:t $0 ) ( lake:t $0 ) ) )")]))
    assert words(context, support, "state:t") == ["state"]
    assert words(context, support, "lake:t") == ["lake"]
