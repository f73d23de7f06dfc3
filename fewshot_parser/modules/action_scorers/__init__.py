"""
Action scorers of `proto_parser`: components that add a term to every action's score at every step,
in training (teacher-forced steps) and at decoding alike, and may add features to the utterance's
word embeddings. None is in the paper.

* `schema_encoding`: IRNet's schema encoding (Guo et al. 2019), the paper's IRNet baseline, and part
  of the best row.
* `lexical_linking`: a score for actions whose predicates the utterance names (the parser's
  `lexical_linking` setting builds it).
"""

from fewshot_parser.modules.action_scorers.action_scorer import ActionScorer
from fewshot_parser.modules.action_scorers.lexical_linking import LexicalLinking
from fewshot_parser.modules.action_scorers.schema_encoding import SchemaEncoding
