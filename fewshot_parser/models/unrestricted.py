"""
ProtoParser scored over every action, as the authors' code scores it (docs/reproduction.md row 12).

Our ProtoParser normalises the action distribution of a step over the actions that can be applied
to the current stack (a REDUCE needs as many trees as its arity, STOP exactly one), in training and
in decoding. The authors' code does neither: its training softmax runs over the whole action
vocabulary, and its decoder takes the best action of the whole vocabulary and drops the hypothesis
when that action cannot be applied. With greedy decoding the two decoders take the same path up to
the first step whose overall best action is not applicable; there the authors' decoder has no
answer. This parser does that check on its own greedy path (one teacher-forced pass over the
decoded actions, batched), so each behaviour can be switched separately and measured.
"""
from typing import Any, Dict, List, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.logical_forms.transition_system import teacher_forcing
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.stack_decoder import applicable_mask


@Model.register("proto_parser_unrestricted")
class UnrestrictedProtoParser(ProtoParser):
    """
    A `proto_parser` whose action distribution may include actions the stack cannot take.

    Registered as a `Model` with name "proto_parser_unrestricted".

    # Parameters

    restrict_training : `bool`, optional (default = `False`)
        True: the training loss normalises over the applicable actions (ours). False: over every
        action of the vocabulary, label smoothing included (the authors').
    restrict_decoding : `bool`, optional (default = `False`)
        True: the decoder chooses among applicable actions (ours). False: an example whose greedy
        path meets a step where the best action of the whole vocabulary is not applicable gets no
        logical form (`None`, counted wrong) and keeps the actions decoded before that step, as the
        authors' decoder drops it. Greedy decoding only (`beam_size` 1).
    **kwargs
        Everything else, as for `proto_parser`.
    """

    def __init__(
        self, vocab: Vocabulary, restrict_training: bool = False, restrict_decoding: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(vocab, **kwargs)
        if not restrict_decoding and self.beam_size != 1:
            raise ConfigurationError("proto_parser_unrestricted: unrestricted decoding is greedy; "
                                     f"set beam_size to 1 (got {self.beam_size}) or restrict_decoding to true")
        self.restrict_training = restrict_training
        self.restrict_decoding = restrict_decoding

    def action_loss(
        self, projections: torch.Tensor, actions: torch.Tensor, stack_size: torch.Tensor,
        matrix: Optional[torch.Tensor] = None, bonus: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        """Mean (label-smoothed) cross-entropy of the gold actions over every valid action."""
        if self.restrict_training:
            return super().action_loss(projections, actions, stack_size, matrix, bonus)
        valid = self.space()["valid"]
        mask = valid.expand(*stack_size.shape, valid.size(0))
        log_probs = self.action_log_probs(projections, mask, matrix, bonus)
        gold = actions.clamp(min=0)
        step_mask = (actions >= 0) & valid[gold]
        nll = -log_probs.gather(-1, gold.unsqueeze(-1)).squeeze(-1)
        if self._label_smoothing > 0:
            uniform = -(log_probs * mask).sum(-1) / mask.sum(-1).clamp(min=1)
            nll = (1 - self._label_smoothing) * nll + self._label_smoothing * uniform
        return (nll * step_mask).sum() / step_mask.sum().clamp(min=1)

    def decode(
        self, encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
        metadata: List[Dict[str, Any]], source_tokens: Optional[TextFieldTensors] = None,
    ) -> Dict[str, Any]:
        output = super().decode(encoded, source_mask, source_types, metadata, source_tokens)
        if self.restrict_decoding:
            return output
        for row, step in enumerate(self.first_inapplicable_choice(encoded, source_mask, output["predicted_actions"], source_tokens)):
            if step is not None:
                output["logical_form"][row] = None
                output["predicted_actions"][row] = output["predicted_actions"][row][:step]
                output["score"][row] = float("-inf")
        return output

    @torch.no_grad()
    def first_inapplicable_choice(
        self, encoded: torch.Tensor, source_mask: torch.Tensor, paths: List[List[str]],
        source_tokens: Optional[TextFieldTensors] = None,
    ) -> List[Optional[int]]:
        """
        For each decoded path (action strings), the first step at which the best action of the whole
        vocabulary is not applicable to the stack, or None. The decoder is run once, teacher-forced
        along the paths, with the scores the search used (action rows, decoding bonus, new-action bias).
        """
        sequences = [[self.vocab.get_token_index(a, ACTION_NAMESPACE) for a in path] for path in paths]
        steps = max((len(s) for s in sequences), default=0)
        if steps == 0:
            return [None] * len(paths)
        batch = len(sequences)
        actions = torch.full((batch, steps), -1, dtype=torch.long)
        previous = torch.zeros(batch, steps, dtype=torch.long)
        stack_size = torch.zeros(batch, steps, dtype=torch.long)
        arity = max([1] + [self.action_space.actions[i].arity for s in sequences for i in s])
        popped = torch.full((batch, steps, arity), -1, dtype=torch.long)
        for row, sequence in enumerate(sequences):
            if not sequence:
                continue
            pointers = teacher_forcing([self.action_space.actions[i] for i in sequence])
            actions[row, : len(sequence)] = torch.tensor(sequence)
            previous[row, : len(sequence)] = torch.tensor(pointers.previous_state)
            stack_size[row, : len(sequence)] = torch.tensor(pointers.stack_size)
            for t, children in enumerate(pointers.popped_states):
                popped[row, t, : len(children)] = torch.tensor(children, dtype=torch.long)
        device = encoded.device
        actions, previous, stack_size, popped = (x.to(device) for x in (actions, previous, stack_size, popped))
        matrix = self.action_matrix()
        decoded = self._decoder(encoded, source_mask, matrix, actions, previous, popped)
        scores = torch.matmul(decoded.projections, matrix.t())
        if source_tokens is not None:
            bonus = self.action_bonus(decoded.projections, decoded.attention, source_tokens)
            if bonus is not None:
                scores = scores + bonus
        if self.new_action_bias:
            scores = scores + self._new_action_mask.to(scores.dtype) * self.new_action_bias
        space = self.space()
        best = scores.masked_fill(~space["valid"], float("-inf")).argmax(-1)
        takeable = applicable_mask(space, stack_size).gather(-1, best.unsqueeze(-1)).squeeze(-1)
        stuck = (actions >= 0) & ~takeable
        return [int(row.nonzero()[0]) if bool(row.any()) else None for row in stuck]
