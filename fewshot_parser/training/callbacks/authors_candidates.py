"""
The authors' candidate words for supervised attention (docs/reproduction.md row 15, note 10).

`proto_parser` points the attention of a gold step at the utterance words that prefix-match one of
the symbols of the step's action: every label of the action's pattern, split at `_`
(`modules/alignment.py`). The authors' rule differs in two ways, both followed here:

* a REDUCE contributes only its rule's head (`REDUCE ( lambda <v> e <NT> )`: `lambda`, not also `e`,
  which makes every word starting with `e` a candidate);
* a word listed for a symbol in the authors' small lexicon is a candidate as well (below: the word
  lists of their `LOGICAL_FORM_LEXICON`, stemmed as their data is).

The callback sets the model's candidate table before training starts; the loss is unchanged.
"""

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.training.callbacks.callback import TrainerCallback

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.alignment import action_symbols, attention_candidates

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

# Symbol -> words (the authors' model/attention_util.py). A key with `_` (`next_to:t`) can never
# match a symbol split at `_`, in their code as here; it is kept for completeness.
AUTHORS_ATTENTION_LEXICON: Dict[str, List[str]] = {
    "city:t": ["citi"],
    "density:i": ["densiti", "averag", "popul"],
    "loc:t": ["where", "in"],
    "next_to:t": ["border", "neighbor", "surround"],
    "argmax": ["highest", "largest", "most", "greatest", "longest", "biggest", "high"],
    "argmin": ["shortest", "smallest", "least", "lowest"],
    "count": ["mani", "number"],
    "sum": ["total"],
    "size:i": ["big", "biggest", "largest"],
    "population:i": ["peopl", "popul", "citizen"],
    ">": ["-er", "than"],
    "=": ["equal"],
    "\\+": ["not"],
    "req": ["require", "degree"],
    "deg": ["degree"],
    "exp": ["experience"],
    "salary": ["salari"],
}


def authors_symbols(action_string: str) -> List[str]:
    """The symbols whose words a step attends to: a REDUCE's head only, every label of any other action."""
    labels = action_string.split()
    if labels[:2] == ["REDUCE", "("] and len(labels) > 2 and not labels[2].startswith("<"):
        return [part.lower() for part in labels[2].split("_") if part]
    return action_symbols(action_string)


def authors_candidate_matrix(action_strings: Sequence[Optional[str]], tokens: Sequence[str]) -> torch.Tensor:
    """`(num_actions, num_tokens)`: 1 where the authors' rule makes the word a candidate of the action."""
    matrix = torch.zeros(len(action_strings), len(tokens))
    for row, action in enumerate(action_strings):
        symbols = authors_symbols(action) if action else []
        for column, token in enumerate(tokens):
            if symbols and attention_candidates(symbols, token, AUTHORS_ATTENTION_LEXICON):
                matrix[row, column] = 1.0
    return matrix


@TrainerCallback.register("fewshot_authors_attention_candidates")
class AuthorsAttentionCandidatesCallback(TrainerCallback):
    """
    Before training, gives the model the authors' supervised-attention candidates (module docstring).

    Registered as a `TrainerCallback` with name "fewshot_authors_attention_candidates".
    """

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        model = trainer.model
        if not isinstance(model, ProtoParser):
            raise ConfigurationError(
                f"fewshot_authors_attention_candidates needs a proto_parser, not {type(model).__name__}"
            )
        vocab = model.vocab
        tokens = [vocab.get_token_from_index(i, "tokens") for i in range(vocab.get_vocab_size("tokens"))]
        strings = [
            vocab.get_token_from_index(i, ACTION_NAMESPACE) if action is not None else None
            for i, action in enumerate(model.action_space.actions)
        ]
        # proto_parser's supervised attention fills its table lazily with its own rule (and clears it when
        # the vocabulary grows, before fine-tuning's trainer starts); set here so the model's code stays as it is.
        model.supervision.candidates = authors_candidate_matrix(strings, tokens)
