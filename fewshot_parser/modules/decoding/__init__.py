"""
Decoding components of `proto_parser`, none of them in the paper: each acts at evaluation and
prediction only, so training, and any pre-trained archive, are the same with or without them.

* `DecodingScorer`s add a term to every action's score at every step of the template search
  (`slot_type_check`).
* `Reranker`s choose among decoded alternatives (`entity_coverage` among templates;
  `variable_scoping` renames an ill-scoped LF's variables to its most probable well-scoped naming);
  `dead_ends` drops an answer the
  authors' decoder would have no answer for (their code; the faithful row).
"""

from fewshot_parser.modules.decoding.dead_ends import DeadEnds
from fewshot_parser.modules.decoding.decoding_scorer import DecodingScorer
from fewshot_parser.modules.decoding.entity_coverage import EntityCoverage
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis, SlotFilling
from fewshot_parser.modules.decoding.reranker import Reranker
from fewshot_parser.modules.decoding.slot_type_check import SlotTypeCheck
from fewshot_parser.modules.decoding.variable_scoping import VariableScoping
