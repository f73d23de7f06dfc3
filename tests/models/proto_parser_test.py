import json

import pytest
import torch
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

import fewshot_parser  # noqa: F401
from fewshot_parser.data.predicate_names import link_names, link_similarity
from fewshot_parser.logical_forms.tree import parse
from fewshot_parser.modules.stack_decoder import applicable_mask
from tests import FIXTURES_ROOT, fixture_split


class TestProtoParser(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3)

    def test_label_smoothing_and_pretraining_smoothing_variant_trains(self):
        overrides = json.dumps({"model.label_smoothing": 0.1, "model.smoothing_k": 3})
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=overrides
        )

    def test_attention_regularization_variant_trains(self):
        overrides = json.dumps({
            "model.attention_regularization": 1.0,
            "trainer.callbacks": [{"type": "fewshot_alignment_statistics"}],
        })
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3, overrides=overrides)

    def test_alignment_statistics_can_also_count_an_extra_file(self):
        from fewshot_parser.training.callbacks.alignment_statistics import AlignmentStatisticsCallback

        class Loader:  # what the callback reads of a trainer's data loader
            def __init__(self, reader, instances):
                self.reader, self.instances = reader, instances

            def iter_instances(self):
                return iter(self.instances)

        class Trainer:
            def __init__(self, model, loader):
                self.model, self.data_loader = model, loader

        from allennlp.common import Params
        from allennlp.data import DatasetReader

        reader = DatasetReader.from_params(Params.from_file(self.param_file)["dataset_reader"])
        trainer = Trainer(self.model, Loader(reader, self.instances[:2]))
        AlignmentStatisticsCallback(self.TEST_DIR).on_start(trainer)
        alone = self.model.regularizer.conditional_table.clone()
        extra = fixture_split("geo", "train")
        AlignmentStatisticsCallback(self.TEST_DIR, extra_data_path=extra).on_start(trainer)
        both = self.model.regularizer.conditional_table
        assert not torch.equal(alone, both)
        self.model.set_alignment_statistics([
            ([t.text for t in i["source_tokens"].tokens], i["metadata"].metadata["actions"])
            for i in list(reader.read(extra)) + self.instances[:2]
        ])
        assert torch.equal(both, self.model.regularizer.conditional_table)

    def test_lexicon_variant_trains_and_changes_the_similarity_prior(self):
        overrides = json.dumps({
            "model.attention_regularization": 1.0,
            "model.lexicon": "geo",
            "trainer.callbacks": [{"type": "fewshot_alignment_statistics"}],
        })
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3, overrides=overrides)
        plain = self.model.regularizer.similarity_table(self.model)
        # Another hand-written lexicon: the scoped one (kept per vocabulary) and the table are dropped.
        self.model.lexicon_scope.handwritten = {"argmax": ["high", "highest", "largest"]}
        self.model.regularizer.reset(conditional=False)
        self.model.lexicon_scope.reset()
        assert not torch.equal(plain, self.model.regularizer.similarity_table(self.model))

    def test_the_lexicon_is_scoped_once_per_vocabulary(self, monkeypatch):
        import fewshot_parser.modules.lexicon_scope as module

        calls = []

        def counting(*args, **kwargs):
            calls.append(1)
            return {"argmax": ["high"]}

        monkeypatch.setattr(module, "scope_lexicon", counting)
        model = self.model
        model.lexicon_scope.handwritten = {"argmax": ["high", "highest"]}
        model.lexicon_scope.reset()
        assert model.lexicon() == {"argmax": ["high"]}
        model.lexicon()
        model.state_dict()  # saving stores the scoped lexicon without scoping it again
        assert len(calls) == 1
        model.lexicon()["argmax"].append("changed")  # callers get a copy
        assert model.lexicon() == {"argmax": ["high"]}
        model.extend_embedder_vocab()  # a grown vocabulary scopes it again
        model.lexicon()
        assert len(calls) == 2

    def test_lexical_linking_variant_trains_and_links_words_to_actions(self):
        overrides = {"model.lexical_linking": True, "model.lexicon": "geo", "model.link_pooling": "both"}
        model, _ = self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=json.dumps(overrides)
        )
        sentences = [[t.text for t in instance["source_tokens"].tokens] for instance in self.instances]
        width = max(len(words) for words in sentences)
        word_ids = torch.tensor([[model.vocab.get_token_index(w, "tokens") for w in words] + [0] * (width - len(words))
                                 for words in sentences])
        source_tokens = {"tokens": {"tokens": word_ids}}
        links = model.lexical_linking.links(model, source_tokens)
        assert links.shape == (len(sentences), width, model.action_embedding.size(0))
        # Every word named by an action's predicate (or lexicon word) is linked to it, and nothing else is.
        for b, words in enumerate(sentences):
            for i, word in enumerate(words):
                for a, action in enumerate(model.action_space.actions):
                    names = [] if action is None else link_names(action.predicates, model.lexicon())
                    expected = max((link_similarity(n, word) for n in names), default=0.0)
                    linked = float(links[b, i, a])
                    if word_ids[b, i] == 1:  # out-of-vocabulary words link to nothing
                        assert linked == 0.0
                    else:
                        assert linked == (pytest.approx(expected) if expected >= 0.75 else 0.0), (word, str(action))
        assert links.sum() > 0
        uniform = torch.full((len(sentences), 3, width), 1.0 / width)
        assert model.lexical_linking.teacher_forced(model, None, uniform, source_tokens).shape == (len(sentences), 3, links.size(-1))

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent(keys_to_ignore=("score",))

    def _batch(self):
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        return batch.as_tensor_dict()

    def test_batched_teacher_forcing_equals_a_step_by_step_reference(self):
        """The batched decoder gives the loss of a plain per-example, per-step stack simulation."""
        self.model.eval()
        tensors = self._batch()
        encoded, mask = self.model.encode(tensors["source_tokens"])
        decoder = self.model._decoder
        matrix = self.model.action_matrix()
        batched = decoder(encoded, mask, matrix, tensors["actions"], tensors["previous_state"], tensors["popped_states"])
        batched_loss = self.model.action_loss(batched.projections, tensors["actions"], tensors["stack_size"])

        space = self.model.space()
        total, count = 0.0, 0
        for b, instance in enumerate(self.instances):
            gold = [self.vocab.get_token_index(a, "actions") for a in instance["metadata"].metadata["actions"]]
            h0, c0 = decoder.initial_state(encoded[b : b + 1], mask[b : b + 1])
            keys = decoder.attention_key(encoded[b : b + 1])
            states = [(h0, c0)]
            stack = []  # decoder-state indices of the stack elements
            for t, action in enumerate(gold):
                if t == 0:
                    embedding, children, previous = decoder.start.unsqueeze(0), [], 0
                else:
                    last = gold[t - 1]
                    arity = int(space["arity"][last])
                    children = stack[len(stack) - arity :] if arity else []
                    del stack[len(stack) - arity :]
                    previous = stack[-1] if stack else 1
                    stack.append(t + 1)
                    embedding = matrix[last].unsqueeze(0)
                child = (
                    torch.stack([states[i][0] for i in children]).mean(0)
                    if children else torch.zeros(1, decoder.hidden_dim)
                )
                h, c = decoder.cell(torch.cat([embedding, child], -1), states[previous])
                states.append((h, c))
                projection, _ = decoder.attend(h, keys, encoded[b : b + 1], mask[b : b + 1])
                applicable = applicable_mask(space, torch.tensor([len(stack)]))
                logits = (projection @ matrix.t()).masked_fill(~applicable, float("-inf"))
                total += -torch.log_softmax(logits, -1)[0, action].item()
                count += 1
        assert batched_loss.item() == pytest.approx(total / count, rel=1e-4)

    def test_decoding_always_yields_parseable_logical_forms(self):
        self.model.eval()
        torch.manual_seed(0)
        for parameter in self.model.parameters():  # random weights: arbitrary action choices
            parameter.data.normal_(0, 1.0)
        outputs = self.model.forward_on_instances(self.instances)
        for output in outputs:
            assert output["logical_form"] is not None
            parse(output["logical_form"], "lambda")
            assert len(output["predicted_actions"]) <= 12

    def test_metrics(self):
        self.model.eval()
        self.model.forward_on_instances(self.instances)
        metrics = self.model.get_metrics(reset=True)
        assert set(metrics) == {"exact_match", "exact_match_unordered", "template_accuracy", "slot_accuracy"}


class TestProtoParserBeamSearch(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def test_beam_search_returns_sorted_n_best_lists_of_parseable_forms(self):
        self.model.eval()
        greedy = self.model.forward_on_instances(self.instances)
        self.model.beam_size = 4
        beams = self.model.forward_on_instances(self.instances)
        for best, first in zip(beams, greedy):
            scores = [h["score"] for h in best["n_best"]]
            assert scores == sorted(scores, reverse=True) and 1 <= len(scores) <= 4
            assert best["n_best"][0]["logical_form"] == best["logical_form"]
            for hypothesis in best["n_best"]:
                parse(hypothesis["logical_form"], "lambda")
            # The best beam is at least as probable as the greedy sequence.
            assert best["score"] >= first["score"] - 1e-5


    def test_a_beam_wider_than_the_applicable_paths_keeps_only_finite_hypotheses(self):
        """More beams than paths: the search fills the rest with dead hypotheses (-inf), which must neither
        crash the stack bookkeeping (a dead hypothesis may hold an action the stack cannot take) nor be output."""
        self.model.eval()
        self.model.beam_size = self.model.action_embedding.size(0) + 3
        self.model.max_decoding_steps = 3
        for output in self.model.forward_on_instances(self.instances):
            assert output["n_best"] and all(h["score"] > float("-inf") for h in output["n_best"])


class TestProtoParserUnifiedSlots(ModelTestCase):
    """The model with unified slots (`dataset_reader.unify_slots`): one slot decoder for both kinds."""

    def setup_method(self):
        super().setup_method()
        self.overrides = json.dumps({"dataset_reader.unify_slots": True})
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        # The overrides switch the reader to unified slots, which builds the unified slot decoder and not the
        # typed slots' decoders and entity-type embedding (nor the gate of the regularizer, off here).
        model, _ = self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3, overrides=self.overrides)
        typed = ("_slot_filler.entity_decoder", "_slot_filler.variable_decoder", "_slot_filler.type_embedding")
        assert not any(n.startswith((*typed, "regularizer.")) for n, _ in model.named_parameters())
        assert any(n.startswith("_slot_filler.unified_decoder") for n, _ in model.named_parameters())

    def test_decoding_yields_parseable_forms_with_variables_and_copies(self):
        from allennlp.common import Params
        from allennlp.data import DatasetReader, Vocabulary
        from allennlp.models import Model

        params = Params.from_file(self.param_file, self.overrides)
        reader = DatasetReader.from_params(params["dataset_reader"])
        instances = list(reader.read(fixture_split("geo", "train")))
        vocab = Vocabulary.from_instances(instances)
        model = Model.from_params(params=params["model"], vocab=vocab)
        assert model.action_space.unified and model._slot_filler.unified_decoder is not None
        model.eval()
        for output in model.forward_on_instances(instances):
            parse(output["logical_form"], "lambda")


class TestSupervisedAttention(ModelTestCase):
    """The authors' supervised attention (`supervised_attention`), on the geo fixture."""

    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def test_variant_trains_saves_and_loads(self):
        overrides = json.dumps({"model.supervised_attention": 1.0})
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=overrides
        )

    def test_candidates_follow_the_prefix_and_lexicon_rule(self):
        from fewshot_parser.modules.alignment import action_symbols, attention_candidate_matrix

        assert action_symbols("GEN ( next_to:t <v> <v> )") == ["next", "to:t"]
        assert action_symbols("REDUCE ( and <NT> <NT> )") == ["and"]
        matrix = attention_candidate_matrix(
            ["GEN ( state:t <v> )", "GEN ( next_to:t <v> <v> )", None, "STOP"],
            ["state", "s", "border", "next", "river", "@@UNKNOWN@@"],
            {"next_to:t": ["border"], "to:t": ["border"]},
        )
        assert matrix.tolist() == [
            [1, 0, 0, 0, 0, 0],   # "state" is a prefix of state:t; "s" is too short
            [0, 0, 1, 1, 0, 0],   # "next" matches next_; "border" is a lexicon word of to:t
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ]

    def test_loss_is_zero_without_candidates_and_positive_with_one(self):
        from fewshot_parser.modules.alignment import supervised_attention_loss

        attention = torch.tensor([[[0.5, 0.25, 0.25], [0.2, 0.2, 0.6]]])
        source_mask = torch.ones(1, 3)
        step_mask = torch.ones(1, 2)
        none = torch.zeros(1, 2, 3)
        assert supervised_attention_loss(attention, none, source_mask, step_mask).item() == 0.0
        one = none.clone()
        one[0, 1, 2] = 1.0
        loss = supervised_attention_loss(attention, one, source_mask, step_mask)
        assert loss.item() == pytest.approx(-torch.log(torch.tensor(0.6)).item() / 2)
        assert loss.item() > 0

    def test_model_loss_grows_by_the_supervision_term(self):
        self.model.train()
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        torch.manual_seed(0)
        plain = self.model(**tensors)["loss"].item()
        self.model.supervision.weight = 1.0
        torch.manual_seed(0)
        supervised = self.model(**tensors)["loss"].item()
        assert self.model.supervision.candidate_table(self.model).sum() > 0
        assert supervised > plain


class TestDropoutPlacement(ModelTestCase):
    """`dropout_placement: 'attentional'`: dropout on the attentional vector h_t only, as the authors' code."""

    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def test_attentional_placement_trains_saves_and_loads_with_dropout_on_h_t_only(self):
        overrides = json.dumps({"model.dropout": 0.3, "model.dropout_placement": "attentional"})
        model, _ = self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=overrides,
            disable_dropout=True,
        )
        assert model.encoder_dropout.p == 0.0 and model._decoder.input_dropout.p == 0.0
        assert model._decoder.dropout.p == 0.3

    def test_an_unknown_placement_is_a_configuration_error(self):
        from allennlp.common import Params
        from allennlp.common.checks import ConfigurationError
        from allennlp.models import Model

        params = Params.from_file(self.param_file, json.dumps({"model.dropout_placement": "decoder"}))
        with pytest.raises(ConfigurationError, match="dropout_placement"):
            Model.from_params(vocab=self.vocab, params=params["model"])
