from typing import Any, Dict, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models import Model

from fewshot_parser.training.retention.method import REPLAYED, RetentionContext, RetentionMethod


def select_rows(tensors: Any, rows: torch.Tensor) -> Any:
    """The given batch rows of a tensor or of a nested dict of tensors (a text field's)."""
    if isinstance(tensors, torch.Tensor):
        return tensors[rows]
    return {key: select_rows(value, rows) for key, value in tensors.items()}


def teacher_forced_scores(parser: Model, batch: Dict[str, Any]) -> torch.Tensor:
    """
    `(batch, steps, num_actions)`: the action scores a ProtoParser gives at each gold step of `batch`
    (its decoder teacher-forced along the gold actions), with the score terms of its `action_bonus`.
    """
    decoded, _, _ = parser.teacher_forced(batch)  # type: ignore[operator]
    projections, attention = decoded.projections, decoded.attention
    scores = torch.matmul(projections, parser.action_matrix().t())  # type: ignore[operator]
    bonus = parser.action_bonus(projections, attention, batch["source_tokens"])  # type: ignore[operator]
    return scores if bonus is None else scores + bonus


def known_action_kl(
    teacher: torch.Tensor, student: torch.Tensor, known: torch.Tensor, temperature: float = 1.0
) -> torch.Tensor:
    """
    `(...)`: KL(teacher || student) of two score tensors `(..., num_actions)`, each a softmax at
    `temperature` over the actions where `known` `(num_actions,)` is true; the other actions take no part.
    """
    floor = torch.finfo(student.dtype).min
    teacher_log = torch.log_softmax((teacher / temperature).masked_fill(~known, floor), dim=-1)
    student_log = torch.log_softmax((student / temperature).masked_fill(~known, floor), dim=-1)
    terms = teacher_log.exp() * (teacher_log - student_log)
    return torch.where(known, terms, torch.zeros_like(terms)).sum(-1)


@RetentionMethod.register("distillation")
class Distillation(RetentionMethod):
    """
    Learning without forgetting on replayed examples: at each gold step of a replayed example, the
    fine-tuned parser's action distribution over the known actions (those of the pre-trained
    vocabulary) is pulled toward the pre-trained parser's, by `weight * T^2 * KL(teacher || student)`
    averaged over those steps. The teacher is the pre-trained model, frozen, run on the fly without
    gradients and without dropout. Needs a `replay` method in the same list (it only sees replayed
    examples); the student's distribution comes from one more teacher-forced pass over them.

    Registered as a `RetentionMethod` with name "distillation".

    # Parameters

    weight : `float`, optional (default = `1.0`)
        Weight of the term in the training loss.
    temperature : `float`, optional (default = `1.0`)
        Softmax temperature T of both distributions (the term is scaled by T^2).
    """

    needs_replay = True

    def __init__(self, weight: float = 1.0, temperature: float = 1.0) -> None:
        if weight < 0 or temperature <= 0:
            raise ConfigurationError(
                "retention 'distillation': weight must be at least 0 and temperature "
                f"positive, got {weight} and {temperature}"
            )
        self.weight = weight
        self.temperature = temperature
        self.teacher: Optional[Model] = None

    def prepare(self, context: RetentionContext) -> None:
        for name in ("teacher_forced", "action_matrix", "action_bonus", "space"):
            if not hasattr(context.model, name):
                raise ConfigurationError(
                    f"retention 'distillation' needs a ProtoParser, not {type(context.model).__name__}"
                )
        teacher = context.teacher
        teacher.eval()
        for parameter in teacher.parameters():
            parameter.requires_grad_(False)
        self.teacher = teacher

    def known_actions(self, model: Model) -> torch.Tensor:
        """`(num_actions,)`: the valid actions that the pre-trained vocabulary already had."""
        return model.space()["valid"] & ~model.new_action_mask  # type: ignore[operator]

    def penalty(self, model: Model, batch: Dict[str, Any]) -> Optional[torch.Tensor]:
        assert self.teacher is not None, "prepare() binds the teacher"
        metadata = batch.get("metadata") or []
        rows = [i for i, entry in enumerate(metadata) if entry.get(REPLAYED)]
        if not rows or batch.get("actions") is None:
            return None
        device = batch["actions"].device
        index = torch.tensor(rows, dtype=torch.long, device=device)
        replayed = {
            key: select_rows(batch[key], index)
            for key in ("source_tokens", "actions", "previous_state", "popped_states")
        }
        if next(self.teacher.parameters()).device != device:
            self.teacher.to(device)
        with torch.no_grad():
            teacher = teacher_forced_scores(self.teacher, replayed)
        student = teacher_forced_scores(model, replayed)
        kl = known_action_kl(teacher, student, self.known_actions(model), self.temperature)
        steps = (replayed["actions"] >= 0).to(kl.dtype)
        return self.weight * self.temperature**2 * (kl * steps).sum() / steps.sum().clamp(min=1)
