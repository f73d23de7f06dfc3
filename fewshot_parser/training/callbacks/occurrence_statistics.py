"""
The authors' estimate of `P(a | x)` for the attention regularizer (docs/reproduction.md row 18).

`fewshot_alignment_statistics` counts each example once: `P(a | x)` is the share of the examples
whose utterance contains `x` whose gold actions contain `a` (the paper's `count(a, x) / count(x)`).
The authors' preprocessing counts every (action occurrence, word occurrence) pair of an example and
normalises over actions: `P(a | x) = count(a, x) / sum over a' of count(a', x)`, a distribution over
actions for each word. Its values are smaller than the presence shares by about the number of actions
per LF, which shifts the regularizer's mixed prior towards string similarity. This callback sets that
estimate instead; everything else about the regularizer stays as it is.
"""

from typing import TYPE_CHECKING, Any, List, Sequence, Tuple

import torch
from allennlp.training.callbacks.callback import TrainerCallback

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.training.callbacks.alignment_statistics import AlignmentStatisticsCallback

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


def occurrence_conditional_matrix(
    examples: Sequence[Tuple[Sequence[int], Sequence[int]]], num_actions: int, num_tokens: int
) -> torch.Tensor:
    """
    `(num_actions, num_tokens)`: `count(a, x) / sum_a' count(a', x)`, where an example adds (occurrences
    of `a` in its actions) x (occurrences of `x` in its utterance) to `count(a, x)`. A word seen with no
    action has a zero column.
    """
    if not examples:
        return torch.zeros(num_actions, num_tokens)
    action_counts = torch.zeros(len(examples), num_actions)
    token_counts = torch.zeros(len(examples), num_tokens)
    for row, (actions, tokens) in enumerate(examples):
        action_counts[row].index_add_(0, torch.as_tensor(list(actions), dtype=torch.long), torch.ones(len(actions)))
        token_counts[row].index_add_(0, torch.as_tensor(list(tokens), dtype=torch.long), torch.ones(len(tokens)))
    # shape: (num_actions, num_tokens)
    joint = action_counts.t() @ token_counts
    return joint / joint.sum(0, keepdim=True).clamp(min=1.0)


@TrainerCallback.register("fewshot_occurrence_statistics")
class OccurrenceStatisticsCallback(AlignmentStatisticsCallback):
    """
    Before training, gives the model the authors' occurrence-count `P(a | x)` (see the module
    docstring) from the trainer's training data, and from `extra_data_path` too when given (the
    authors count the training set and the support set together when fine-tuning).

    Registered as a `TrainerCallback` with name "fewshot_occurrence_statistics"; use it in place of
    `fewshot_alignment_statistics`.
    """

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        model = trainer.model
        instances = list(trainer.data_loader.iter_instances())
        if self.extra_data_path:
            instances = list(trainer.data_loader.reader.read(self.extra_data_path)) + instances  # type: ignore
        examples: List[Tuple[List[int], List[int]]] = []
        for instance in instances:
            metadata = instance["metadata"].metadata  # type: ignore
            if "actions" in metadata:
                examples.append(
                    (
                        [model.vocab.get_token_index(a, ACTION_NAMESPACE) for a in metadata["actions"]],
                        [model.vocab.get_token_index(t, "tokens") for t in metadata["utterance"]],
                    )
                )
        # proto_parser's regularizer reads the table from here (its own `set_alignment_statistics` fills it
        # with presence shares); set here so that the model's code, and its recorded rows, stay as they are.
        model.regularizer.conditional_table = occurrence_conditional_matrix(  # type: ignore
            examples, model.vocab.get_vocab_size(ACTION_NAMESPACE), model.vocab.get_vocab_size("tokens")
        )
