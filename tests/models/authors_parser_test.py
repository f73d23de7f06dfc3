"""The authors' decoder, string similarity, predicate dropout and meta-batch walk (options of proto_parser)."""
import copy
import json
import random
from collections import Counter

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.decoding.dead_ends import first_inapplicable_choice
from fewshot_parser.modules.alignment import string_similarity_matrix
from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder
from fewshot_parser.modules.predicate_parts import part_similarity_matrix, predicate_parts
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_loader, fixture_split, indexed_tensors, rendered_row

CONFIG = FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"
AUTHORS_DECODER = {"type": "authors", "input_dim": 6, "reduce_input": "states", "initial_state": "mean", "bias": True}
ALL_ON = {"decoder": AUTHORS_DECODER, "similarity": "parts", "predicate_dropout_unit": "action"}


class TestTheAuthorsOptions(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(CONFIG, fixture_split("geo", "train"))

    def authors(self, **switches) -> ProtoParser:
        config = json.loads(_jsonnet.evaluate_file(CONFIG))["model"]
        config.update(switches)
        torch.manual_seed(0)
        return Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))

    def tensors(self):
        return indexed_tensors(self.instances, self.vocab)

    def test_model_can_train_save_and_load_with_every_switch_on(self):
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=json.dumps({"model." + k: v for k, v in ALL_ON.items()}),
        )

    def test_with_every_option_at_the_papers_reading_it_is_proto_parser(self):
        model = self.authors(similarity="name", predicate_dropout_unit="predicate", loss_reduction="step", restrict_training=True)
        model.load_state_dict(self.model.state_dict())
        tensors = self.tensors()
        self.model.eval(), model.eval()
        assert torch.allclose(model(**tensors)["loss"], self.model(**tensors)["loss"])

    def test_feeding_decoder_teacher_forcing_follows_its_own_greedy_search(self):
        model = self.authors(decoder=AUTHORS_DECODER).eval()
        assert isinstance(model._decoder, InputFeedingStackDecoder)
        tensors = self.tensors()
        output = model(**tensors)
        # Teacher-forcing the decoded paths gives the projections the search scored with: the fed
        # vector and the stack pointers are the same in both.
        sequences = [[self.vocab.get_token_index(a, "actions") for a in path] for path in output["predicted_actions"]]
        encoded, mask = model.encode(tensors["source_tokens"])
        predicted, _, searched = model._decoder.search(
            encoded, mask, model.action_matrix(), model.space(), model.max_decoding_steps,
            lambda projection, attention: torch.matmul(projection, model.action_matrix().t()), 1,
        )
        # A path whose greedy choices were all applicable is the search's own (a dead end is dropped).
        dead = first_inapplicable_choice(model, encoded, mask, output["predicted_actions"])
        rows = [i for i, step in enumerate(dead) if step is None and sequences[i]]
        assert rows, "every decoded path of the fixture is a dead end"
        from fewshot_parser.logical_forms.transition_system import teacher_forcing
        row = rows[0]
        steps = len(sequences[row])
        pointers = teacher_forcing([model.action_space.actions[i] for i in sequences[row]])
        popped = torch.full((1, steps, 4), -1, dtype=torch.long)
        for t, children in enumerate(pointers.popped_states):
            popped[0, t, : len(children)] = torch.tensor(children)
        forced = model._decoder(
            encoded[row : row + 1], mask[row : row + 1], model.action_matrix(), torch.tensor([sequences[row]]),
            torch.tensor([pointers.previous_state]), popped,
        )
        assert torch.allclose(forced.projections[0], searched[row, 0, :steps], atol=1e-5)

    def test_feeding_decoder_inputs_do_not_depend_on_the_output_rows(self):
        tensors = self.tensors()
        for decoder, same in ((AUTHORS_DECODER, True), ({"type": "stack"}, False)):
            model = self.authors(decoder=decoder).eval()
            encoded, mask = model.encode(tensors["source_tokens"])
            args = (tensors["actions"], tensors["previous_state"], tensors["popped_states"])
            before = model._decoder(encoded, mask, model.action_matrix(), *args).states
            after = model._decoder(encoded, mask, model.action_matrix() * 3.0, *args).states
            assert torch.allclose(before, after) == same

    def test_vocabulary_extension_grows_the_input_table(self):
        model = self.authors(decoder=AUTHORS_DECODER)
        rows = model._decoder.input_embedding.size(0)
        model.vocab.add_token_to_namespace("GEN ( brand_new_predicate:t <v> )", "actions")
        model.extend_embedder_vocab()
        assert model._decoder.input_embedding.size(0) == rows + 1 == model.action_embedding.size(0)

    def test_feeding_decoder_refuses_a_beam(self):
        with pytest.raises(ConfigurationError, match="greedy"):
            self.authors(decoder=AUTHORS_DECODER, beam_size=3)
        with pytest.raises(ConfigurationError, match="similarity"):
            self.authors(similarity="whole")

    def test_action_wise_dropout_gives_prototypes_to_a_random_share_of_rows(self):
        model = self.authors(predicate_dropout_unit="action", predicate_dropout=0.5).train()
        tensors = self.tensors()
        decoded, _, _ = model.teacher_forced(tensors)
        _, present = model.prototypes(decoded.projections, tensors["actions"])
        kept = Counter()
        for _ in range(200):
            kept.update(model.predicate_dropout.rows(present, model.action_space).nonzero().squeeze(-1).tolist())
        rows = [r for r in present.nonzero().squeeze(-1).tolist() if model.action_space.actions[r].predicates]
        assert set(kept) == set(rows)  # rows without a predicate keep their embedding
        assert all(60 < kept[r] < 140 for r in rows)  # each row about half the time, independently
        counts = [int(model.predicate_dropout.rows(present, model.action_space).sum()) for _ in range(50)]
        assert len(set(counts)) > 1  # not a fixed share, as Algorithm 1 drops
        loss = model.meta_loss(tensors, tensors)
        assert loss.requires_grad and model.predicate_dropout.share == 0.5


def test_part_similarity_splits_names_and_expands_the_authors_part_words():
    assert predicate_parts("req_deg:t") == ["require", "degree"]
    assert predicate_parts("salary_greater_than") == ["salary", "greater", "than"]
    assert predicate_parts("loc:t") == ["location", "where", "in", "loc"]
    tokens = ["degree", "where", "salary", "@@UNKNOWN@@"]
    parts = part_similarity_matrix([("req_deg",), ("loc:t",), ("salary_greater_than",), ()], tokens)
    whole = string_similarity_matrix([("req_deg",), ("loc:t",), ("salary_greater_than",), ()], tokens)
    assert parts[0, 0].item() == pytest.approx(1.0) and whole[0, 0].item() < 0.5
    assert parts[1, 1].item() == pytest.approx(1.0) and whole[1, 1].item() < 0.5
    assert parts[2, 2].item() == pytest.approx(1.0)
    assert parts[3].abs().sum().item() == 0.0 and parts[:, 3].abs().sum().item() == 0.0


def test_template_walk_visits_every_template_once_per_pass():
    random.seed(5)
    loader = fixture_loader({"type": "fewshot_template_walk", "batch_size": 4, "meta_templates": 2, "meta_queries_per_template": 3})
    templates = Counter(i["metadata"].metadata["template"] for i in loader.iter_instances())
    assert any(count == 1 for count in templates.values())  # the fixture has singleton templates
    loader._walk = []
    seen = []
    while True:
        meta = loader.meta_batch()
        support = [m["template"] for m in meta["meta_support"]["metadata"]]
        queries = [m["template"] for m in meta["meta_query"]["metadata"]]
        assert queries and set(queries) <= set(support)
        assert all(count <= 3 for count in Counter(queries).values())
        seen.extend(support)
        if not loader._walk:
            break
    # One pass: no template twice, and every template with a meta-test example was taken (a batch of
    # singletons only is skipped, as it has nothing to test on).
    assert len(set(seen)) == len(seen)
    assert {t for t, count in templates.items() if count >= 2} <= set(seen)
    batches = list(loader)
    assert len(batches) == len(loader)
    assert all(set(b) == {"meta_support", "meta_query"} for b in batches[1::2])


def _meta_templates(batches) -> list:
    """The meta-support templates of each meta batch, in order."""
    return [[m["template"] for m in b["meta_support"]["metadata"]] for b in batches if "meta_support" in b]


@pytest.mark.parametrize("loader_type,continues", [("fewshot_template_walk", False), ("fewshot_continuing_template_walk", True)])
def test_the_authors_walk_runs_on_across_epochs_and_ours_starts_a_new_pass(loader_type, continues):
    params = {"type": loader_type, "batch_size": 4, "meta_templates": 2, "meta_queries_per_template": 3}
    random.seed(7)
    loader = fixture_loader(dict(params))
    groups = loader._every_template()
    first = _meta_templates(list(loader))
    left = list(loader._walk)  # the part of the pass the first epoch did not reach
    assert left, "the fixture's epoch should end in the middle of a pass"
    epoch = iter(loader)
    # The authors' walk goes on from where the first epoch left it; ours starts a new pass.
    assert (loader._walk == left) == continues and (loader._walk == []) != continues
    while "meta_support" not in next(epoch):  # up to the second epoch's first meta batch
        pass
    walk = list(loader._walk)
    later = _meta_templates(list(loader))
    # Resuming replays the completed epochs through the loader, so the walk is a function of the seed.
    random.seed(7)
    again = fixture_loader(dict(params))
    assert _meta_templates(list(again)) == first
    epoch = iter(again)
    while "meta_support" not in next(epoch):
        pass
    assert again._walk == walk and _meta_templates(list(again)) == later


def test_faithful_configs_use_the_authors_behaviours_and_other_configs_do_not():
    faithful = rendered_row("ours", "geo", 1)
    model = faithful["pretraining"]["model"]
    assert model["type"] == "proto_parser" and model["slot_variant"] == {"type": "authors"} and model["action_dim"] == 256
    assert (model["decoder"]["type"], model["similarity"], model["predicate_dropout_unit"]) == ("authors", "parts", "action")
    assert faithful["pretraining"]["data_loader"]["type"] == "fewshot_continuing_template_walk"
    best = rendered_row("contextual", "geo", 1)
    assert best["pretraining"]["model"]["type"] == "proto_parser" and "decoder" not in best["pretraining"]["model"]
    assert best["pretraining"]["data_loader"]["type"] == "fewshot_episodes"


@pytest.mark.parametrize("system, changed", [
    ("stack_decoder", {"decoder": None, "action_dim": None, "slot_variant": None}),
    ("name_strsim", {"similarity": None}),
    ("predicate_dropout", {"predicate_dropout_unit": None}),
    ("random_meta", {}),
    ("restarting_walk", {}),
])
def test_each_switch_system_changes_only_its_behaviour(system, changed):
    faithful = rendered_row("ours", "jobs", 2)
    switched = rendered_row(system.replace("_", "-"), "jobs", 2)
    assert switched.pop("pretrained_archive") == f"p/jobs-{system.replace('_', '-')}/model.tar.gz"
    faithful.pop("pretrained_archive")
    # Our stack decoder cannot carry the authors' slot states, so that switch has ours too.
    slots = {"type": "classified_entities", "readout": "own"} if system == "stack_decoder" else None
    for config in (faithful["model"], faithful["pretraining"]["model"]):
        for key in changed:
            config.pop(key)
    for config in (switched["model"], switched["pretraining"]["model"]):
        for key in changed:
            # action_dim is rendered by both (ours: 128); the slot variant is the classified entities'
            assert config.pop(key, 128) in (128, slots)
    loaders = {"random_meta": "fewshot_episodes", "restarting_walk": "fewshot_template_walk"}
    if system in loaders:
        assert switched["pretraining"]["data_loader"].pop("type") == loaders[system]
        assert faithful["pretraining"]["data_loader"].pop("type") == "fewshot_continuing_template_walk"
    assert switched == faithful
