"""The predicate lexicon of the string-similarity feature."""
import glob
import json

import pytest
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.predicate_names import load_lexicon
from fewshot_parser.logical_forms.template import predicates
from fewshot_parser.modules.alignment import string_similarity_matrix
from tests import FIXTURE_DATA

FORMALISMS = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}


@pytest.mark.parametrize("dataset", sorted(FORMALISMS))
def test_shipped_lexicon_covers_every_predicate_of_the_fixture_data(dataset):
    lexicon = load_lexicon(dataset)
    seen = set()
    for path in glob.glob(f"{FIXTURE_DATA}/{dataset}/*/*.txt"):
        for example in read_examples(path, FORMALISMS[dataset]):
            seen.update(predicates(example.tree))
    assert seen and seen <= set(lexicon), sorted(seen - set(lexicon))


def test_lexicon_words_count_as_names_of_the_predicate():
    actions = [("argmax",), ("river:t",), ()]
    tokens = ["highest", "river", "texas"]
    plain = string_similarity_matrix(actions, tokens)
    lexical = string_similarity_matrix(actions, tokens, {"argmax": ["high", "highest"]})
    assert lexical[0, 0] == 1.0 and plain[0, 0] < 0.5
    assert lexical[1].tolist() == plain[1].tolist()
    assert lexical[2].sum() == 0


def test_no_lexicon_is_an_empty_one():
    assert load_lexicon(None) == {} and load_lexicon("") == {}


def test_bad_lexicons_name_the_file_and_the_field(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "argmax": ["high",\n}\n')
    with pytest.raises(ConfigurationError, match=r"broken.json:3"):
        load_lexicon(str(broken))
    phrase = tmp_path / "phrase.json"
    phrase.write_text(json.dumps({"argmax": ["the most"]}))
    with pytest.raises(ConfigurationError, match=r"phrase.json: field 'argmax'"):
        load_lexicon(str(phrase))
    with pytest.raises(ConfigurationError, match=r"shipped lexicons: \['atis', 'geo', 'jobs'\]"):
        load_lexicon("klingon")
