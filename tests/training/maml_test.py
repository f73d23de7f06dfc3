import json
import types

import pytest
import torch
from allennlp.common.testing import ModelTestCase

import fewshot_parser  # noqa: F401
from fewshot_parser.training.maml import MamlTrainer, pseudo_tasks, select
from tests import FIXTURES_ROOT, fixture_split


class Regression(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([0.5, -1.0]))

    def forward(self, x, y, metadata):
        return {"loss": ((x @ self.w - y) ** 2).mean()}


def batch(x, y, templates):
    return {"x": torch.tensor(x), "y": torch.tensor(y), "metadata": [{"template": t} for t in templates]}


def test_select_and_pseudo_tasks_group_rows_by_template():
    support = batch([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [1.0, 2.0, 3.0], ["A", "B", "C"])
    query = batch([[2.0, 0.0], [0.0, 2.0], [1.0, 2.0]], [1.0, 2.0, 3.0], ["B", "A", "B"])
    assert pseudo_tasks(support, query) == [([0], [1]), ([1], [0, 2])]  # C has no meta-test example
    part = select(query, [0, 2])
    assert part["x"].tolist() == [[2.0, 0.0], [1.0, 2.0]] and [m["template"] for m in part["metadata"]] == ["B", "B"]


@pytest.mark.parametrize("first_order", [True, False])
def test_meta_gradient_matches_the_closed_form(first_order):
    """One task, one inner step on a least-squares loss: compare with the analytic MAML gradient."""
    model = Regression()
    support = batch([[1.0, 2.0], [0.5, -1.0]], [1.0, 0.0], ["A", "A"])
    query = batch([[2.0, 1.0]], [3.0], ["A"])
    alpha = 0.1
    trainer = types.SimpleNamespace(_pytorch_model=model, inner_lr=alpha, inner_steps=1, first_order=first_order)
    MamlTrainer.meta_loss(trainer, support, query).backward()

    w = model.w.detach()
    xs, ys, xq, yq = support["x"], support["y"], query["x"], query["y"]
    grad_support = 2 * xs.t() @ (xs @ w - ys) / len(ys)
    adapted = w - alpha * grad_support
    grad_query = 2 * xq.t() @ (xq @ adapted - yq) / len(yq)
    if first_order:
        expected = grad_query
    else:
        hessian = 2 * xs.t() @ xs / len(ys)
        expected = (torch.eye(2) - alpha * hessian) @ grad_query
    assert torch.allclose(model.w.grad, expected, atol=1e-5)
    assert not torch.allclose(grad_query, (torch.eye(2) - alpha * 2 * xs.t() @ xs / 2) @ grad_query)  # the two differ


class TestMetaTrainedParser(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/ptmaml/experiment.jsonnet", fixture_split("geo", "train"))

    def test_meta_trains_saves_and_loads(self):
        # Gradients are checked on the model's own (supervised) batches by ModelTestCase.
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3
        )

    def test_rejects_a_useless_inner_loop(self, tmp_path):
        from allennlp.commands.train import train_model_from_file
        from allennlp.common.checks import ConfigurationError

        with pytest.raises(ConfigurationError, match="inner_steps >= 1"):
            train_model_from_file(self.param_file, str(tmp_path / "run"), overrides=json.dumps({"trainer.inner_steps": 0}))


def test_training_goes_through_the_meta_objective(tmp_path, monkeypatch):
    from allennlp.commands.train import train_model_from_file

    calls = []
    original = MamlTrainer.meta_loss
    monkeypatch.setattr(MamlTrainer, "meta_loss", lambda self, s, q: calls.append(1) or original(self, s, q))
    train_model_from_file(FIXTURES_ROOT + "/ptmaml/experiment.jsonnet", str(tmp_path / "run"))
    assert len(calls) >= 2  # one meta batch per supervised batch, two epochs
