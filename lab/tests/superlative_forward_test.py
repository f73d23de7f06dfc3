"""Forward pairs that say a maximum with the superlative of the support's "how" adjective."""
import fewshot_parser  # noqa: F401
from fewshot_lab.data import SuperlativeForwardPairs
from fewshot_parser.data.recombination import ForwardPairs, RecombinationContext, ReversePairs, recombine
from tests.data.recombination import fixtures
from tests.data.recombination.superlatives_test import TRAINING


# A 2-shot support set: `len:i` under `argmax` in other words, and a "how long" question.
TWO_SHOT = [
    ("what is the length of the longest river", "( argmax $0 ( river:t $0 ) ( len:i $0 ) )"),
    ("how long is r0", "( len:i r0 )"),
]


def forward_pairs(generator):
    training, support = fixtures.examples(TRAINING), fixtures.examples(TWO_SHOT, source="support.txt")
    context = RecombinationContext(training, "lambda")
    return recombine(context, support, [[generator, ReversePairs()]])


def test_forward_pairs_under_a_maximum_take_the_superlative_of_the_how_question():
    mine = forward_pairs(SuperlativeForwardPairs(same_roles=True))
    plain = forward_pairs(ForwardPairs(same_roles=True))
    spoken = {(" ".join(p.utterance), p.logical_form) for p in mine if p.direction == "forward"}
    assert ("which state has the longest", "( argmax $0 ( state:t $0 ) ( len:i $0 ) )") in spoken
    assert [p.logical_form for p in mine] == [p.logical_form for p in plain]
    changed = [(a, b) for a, b in zip(mine, plain) if a != b]
    assert changed
    for a, b in changed:
        assert "argmax" in a.logical_form and "longest" in a.utterance and "length" not in a.utterance
        assert "length" in b.utterance and "longest" not in b.utterance
    # Without the "how" question the forward pairs are the plain ones.
    training = fixtures.examples(TRAINING)
    one = fixtures.examples(TWO_SHOT[:1], source="support.txt")
    assert recombine(RecombinationContext(training, "lambda"), one, [[SuperlativeForwardPairs(), ReversePairs()]]) == \
        recombine(RecombinationContext(training, "lambda"), one, [[ForwardPairs(), ReversePairs()]])
