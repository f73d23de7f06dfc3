"""Each pair generator alone, on small fixtures (tests/data/reshaping_test.py and its neighbours)."""
from typing import List, Sequence, Tuple

from fewshot_parser.data.recombination import ForwardPairs, PairGenerator, RecombinationContext, ReversePairs, recombine
from fewshot_lab.data import AdjectivePairs, ReparentedPairs, SubtreePairs
from fewshot_parser.data.recombination import ReshapedPairs
from fewshot_parser.data.recombination.trees import atom_calls
import adjectives_test
from tests.data.recombination import fixtures
import subtrees_test


def made(generators: Sequence[Sequence[PairGenerator]], training=fixtures.TRAINING, support=fixtures.SUPPORT,
         lexicon=None) -> List[Tuple[str, str, str, str]]:
    """(utterance, LF, direction, replaced) of the pairs the passes make."""
    context = RecombinationContext(fixtures.examples(training), "lambda", lexicon)
    pairs = recombine(context, fixtures.examples(support, source="support.txt"), generators)
    return [(" ".join(p.utterance), p.logical_form, p.direction, p.replaced) for p in pairs]


def test_forward_pairs_put_the_new_predicate_in_templates_of_a_known_one_with_its_signature():
    support = [("how large is s0", "( area:i s0 )")]
    assert made([[ForwardPairs()]], support=support) == [
        ("what is the how large s0", "( area:i s0 )", "forward", "population:i"),  # best first
        ("how how large in s0", "( area:i s0 )", "forward", "population:i"),
    ]
    assert made([[ForwardPairs(pairs_per_predicate=1)]], support=support) == made([[ForwardPairs()]], support=support)[:1]


MODIFIER_TRAINING = [
    ("how many city in s0", "( count $0 ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how many river in s0", "( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("what capital city border s0", "( lambda $0 e ( and ( capital:t $0 ) ( city:t $0 ) ( next_to:t $0 s0 ) ) )"),
]
MODIFIER_SUPPORT = [("what major city in s0", "( lambda $0 e ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )")]


def test_roles_say_whether_another_condition_types_each_variable():
    tree = fixtures.examples(MODIFIER_SUPPORT)[0].tree
    roles = {o.label: o.roles for o in atom_calls(tree, "lambda")}
    assert roles == {"major:t": ("typed",), "city:t": ("typed",), "loc:t": ("typed", "e")}
    tree = fixtures.examples([("x", "( lambda $0 e ( exists $1 ( and ( state:t $1 ) ( population:t $1 $0 ) ) ) )")])[0].tree
    roles = {o.label: o.roles for o in atom_calls(tree, "lambda")}
    assert roles == {"state:t": ("bare",), "population:t": ("typed", "bare")}
    # A function of a variable (`population:i`) does not type it.
    tree = fixtures.examples([("x", "( argmax $0 ( city:t $0 ) ( population:i $0 ) )")])[0].tree
    assert {o.label: o.roles for o in atom_calls(tree, "lambda")}["city:t"] == ("bare",)


def test_forward_pairs_with_same_roles_keep_a_new_modifier_out_of_a_templates_only_type():
    new = [lf for _, lf, direction, _ in made([[ForwardPairs()]], MODIFIER_TRAINING, MODIFIER_SUPPORT) if direction == "forward"]
    # Without the check the new modifier replaces `city:t` and `river:t`, and the pairs lose their type.
    assert "( count $0 ( and ( major:t $0 ) ( loc:t $0 s0 ) ) )" in new
    kept = made([[ForwardPairs(same_roles=True)]], MODIFIER_TRAINING, MODIFIER_SUPPORT)
    # Only a condition beside another one on its variable is replaced: `city:t` beside `capital:t`.
    assert [(lf, replaced) for _, lf, _, replaced in kept] == [
        ("( lambda $0 e ( and ( capital:t $0 ) ( major:t $0 ) ( next_to:t $0 s0 ) ) )", "city:t")]


def test_reverse_pairs_keep_the_support_template_with_other_known_content():
    assert made([[ReversePairs()]]) == [
        ("city the smallest area", "( argmin $0 ( city:t $0 ) ( area:i $0 ) )", "reverse", "city:t")]


def test_reshaped_pairs_take_turns_over_the_shapes_the_support_lacks():
    pairs = made([[ReshapedPairs()]])
    assert [lf for _, lf, _, _ in pairs[:3]] == ["( area:i c0 )", "( area:i s0 )", "( area:i r0 )"]
    assert {direction for _, _, direction, _ in pairs} == {"reshaped"} and len(pairs) == 4


def test_adjective_pairs_are_reshaped_pairs_with_the_support_superlatives_adjective():
    settings = dict(training=adjectives_test.TRAINING, support=adjectives_test.SUPPORT, lexicon=adjectives_test.LEXICON)
    plain, adjectives = made([[ReshapedPairs()]], **settings), made([[AdjectivePairs()]], **settings)
    assert [(a == p) for a, p in zip(adjectives, plain)] == [True, True, False, True]
    assert plain[2][0] == "elevation is r0" and adjectives[2] == ("how high is r0", "( elevation:i r0 )", "reshaped", "len:i")


def test_reparented_pairs_put_the_new_predicate_under_other_operators():
    assert made([[ReparentedPairs()]]) == [("which state has the largest area",
                                            "( argmax $0 ( state:t $0 ) ( area:i $0 ) )", "reparented", "population:i")]


def test_subtree_pairs_use_training_templates_and_the_pairs_of_earlier_passes():
    settings = dict(training=subtrees_test.TRAINING, support=subtrees_test.SUPPORT)
    alone = made([[SubtreePairs()]], **settings)
    assert [u for u, _, _, _ in alone] == ["how long is the highest point in s0", "where is the highest point in s0"]
    after = [pair for pair in made([[ReshapedPairs()], [SubtreePairs()]], **settings) if pair[2] == "subtree"]
    assert after[:2] == alone and after[2][1].startswith("( elevation:i ( argmax")  # a reshaped pair as template
    assert made([[SubtreePairs(pairs_per_example=1)]], **settings) == alone[:1]


def test_generators_keep_no_state_and_the_context_derives_each_statistic_once():
    generator = AdjectivePairs()
    settings = dict(training=adjectives_test.TRAINING, support=adjectives_test.SUPPORT, lexicon=adjectives_test.LEXICON)
    first = made([[generator]], **settings)
    made([[generator]])  # another split in between
    assert made([[generator]], **settings) == first
    context = RecombinationContext(fixtures.examples(fixtures.TRAINING), "lambda")
    support = fixtures.examples(fixtures.SUPPORT, source="support.txt")
    recombine(context, support, [[ReversePairs()]])
    lexical = context.derived("lexical entries", lambda: None)
    assert lexical is not None and recombine(context, support, [[ReversePairs()]]) and \
        context.derived("lexical entries", lambda: None) is lexical
