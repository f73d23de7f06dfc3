"""Unknown-word pairs: a new predicate's examples with its unseen words replaced by the unknown word."""
import fewshot_parser  # noqa: F401
from fewshot_lab.data import UnknownWordPairs
from fewshot_lab.data.recombination.unknown_words import masked
from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.recombination import ForwardPairs, RecombinationContext, recombine
from tests.data.augmentation_test import resplit
from tests.data.recombination import fixtures


def test_the_support_and_the_earlier_pairs_lose_the_words_training_never_had(tmp_path):
    directory = resplit(tmp_path, "geo", "lambda", "river:t")  # the fixture's river:t examples leave training
    training = list(read_examples(str(directory / "train.txt"), "lambda"))
    support = list(read_examples(str(directory / "support.txt"), "lambda"))
    training_words = {w for e in training for w in e.utterance}
    pairs = recombine(RecombinationContext(training, "lambda"), support, [[ForwardPairs(20)], [UnknownWordPairs(10)]])
    forward = [p for p in pairs if p.direction == "forward"]
    unknown = [p for p in pairs if p.direction == "unknown"]
    assert forward and unknown
    # The support first, then the forward pairs in their order: the same LFs, and only the words that
    # no training utterance has became the unknown word.
    originals = [(support[0].utterance, support[0].logical_form)] + [(p.utterance, p.logical_form) for p in forward]
    for pair, (utterance, lf) in zip(unknown, originals):
        assert pair.logical_form == lf and pair.predicate == "river:t"
        gone = set(utterance) - set(pair.utterance)
        assert gone and not gone & training_words and "@@UNKNOWN@@" in pair.utterance
        assert [w for w in pair.utterance if w != "@@UNKNOWN@@"] == [w for w in utterance if w not in gone]
    assert len(unknown) == min(10, len(originals))
    # The limit counts the support examples first.
    fewer = recombine(RecombinationContext(training, "lambda"), support, [[ForwardPairs(20)], [UnknownWordPairs(1)]])
    assert [p.utterance for p in fewer if p.direction == "unknown"] == [unknown[0].utterance]


def test_a_support_whose_words_training_has_gives_no_pairs():
    context = RecombinationContext(fixtures.examples(fixtures.TRAINING), "lambda")
    said = [("which state has the smallest population", "( argmin $0 ( state:t $0 ) ( area:i $0 ) )")]
    assert recombine(context, fixtures.examples(said, source="support.txt"), [[UnknownWordPairs(10)]]) == []
    shown = recombine(context, fixtures.examples(fixtures.SUPPORT, source="support.txt"), [[UnknownWordPairs(10)]])
    assert [" ".join(p.utterance) for p in shown] == ["which state has the smallest @@UNKNOWN@@"]


def test_a_run_of_masked_words_is_one_placeholder():
    assert masked("which state be next to s0".split(), {"next", "to"}, "<unk>") == ["which", "state", "be", "<unk>", "s0"]
    assert masked("a b a".split(), {"a"}, "X") == ["X", "b", "X"]


def test_a_word_in_two_new_predicates_spans_belongs_to_the_shorter_span():
    # state:t and next_to:t are both new; state:t's span is `state border`, next_to:t's `border`.
    context = RecombinationContext(fixtures.examples([r for r in fixtures.TRAINING if "state:t" not in r[1]]), "lambda")
    lf = "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"
    support = fixtures.examples([("what state border s0", lf)], source="support.txt")
    pairs = recombine(context, support, [[UnknownWordPairs(10)]])
    assert sorted((p.predicate, " ".join(p.utterance)) for p in pairs) == [
        ("next_to:t", "what state @@UNKNOWN@@ s0"),
        ("state:t", "what @@UNKNOWN@@ border s0"),
    ]
