from typing import Any, Dict, List, Optional, Tuple, cast

import torch
from allennlp.common import Lazy
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import util
from allennlp.training.metrics import Average

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.models.metrics import LogicalFormExactMatch
from fewshot_parser.modules import prototypes as prototype_functions
from fewshot_parser.modules.action_scorers import ActionScorer
from fewshot_parser.modules.action_scorers.lexical_linking import LexicalLinking
from fewshot_parser.modules.action_space import ActionSpace
from fewshot_parser.modules.decoding import DecodingInputs, DecodingScorer, Hypothesis, Reranker
from fewshot_parser.modules.decoding.template_search import decode_batch, search_templates
from fewshot_parser.modules.lexicon_scope import LexiconScope
from fewshot_parser.modules.loss_terms import AttentionRegularizer, LossTerm, SupervisedAttention
from fewshot_parser.modules.loss_terms.reduction import check_reduction, per_example, sum_terms
from fewshot_parser.modules.prototypes import PredicateDropout
from fewshot_parser.modules.reduce_input_decoder import check_encoder, encode_with_last_cells
from fewshot_parser.modules.slot_filler import SlotFiller
from fewshot_parser.modules.slot_variants import CopySlots, SlotVariant
from fewshot_parser.modules.stack_decoder import DecoderOutput, StackLSTMDecoder, applicable_mask
from fewshot_parser.modules.word_ids import vocabulary_word_ids

__all__ = ["ProtoParser", "per_example"]


@Model.register("proto_parser")
class ProtoParser(Model):
    """
    The transition-based parser of the paper (Sec. 3.2): a BiLSTM encoder, a stack-LSTM template
    decoder over GEN/REDUCE actions with dot-product attention, and slot decoders that copy entities
    and name variables; trained with predicate-dropout meta batches over action prototypes
    (Algorithm 1) and the attention regularizer (Eq. 5-6). The action embedding matrix
    `action_embedding` is both the decoder's input embedding and the output matrix `C`
    (`P(a | h_t) ~ exp(c_a . h_t)`), whose rows few-shot training replaces (prototypes) and extends.

    The rest are components, built from the settings below: the decoder and its search, slot filling
    (`modules/slot_variants/`), predicate dropout (`modules/prototypes.py`), the lexicon scope, loss
    terms (`modules/loss_terms/`), action scorers (`modules/action_scorers/`), decoding scorers and
    rerankers (`modules/decoding/`). They read the parser through `modules/parser_parts.py`.

    Registered as a `Model` with name "proto_parser".

    # Parameters

    vocab, source_embedder, encoder
        The `fewshot_*` readers' vocabulary, the word embeddings and the contextual encoder.
    action_dim, decoder_dim, dropout, label_smoothing, max_decoding_steps
        Sizes of the action embeddings and of the LSTMs; dropout; label smoothing of every loss.
    smoothing_k : `float`, optional (default = `0.0`)
        Constant added to the action softmax denominator in training (Eq. 7).
    beam_size : `int`, optional (default = `1`)
        1 for greedy decoding (the paper's); larger values also output the n-best LFs.
    attention_regularization, conditional_feature, similarity_feature, similarity, meta_regularization
        Omega's weight, its two features (the `-cond`, `-strsim` ablations), the string similarity and
        whether it applies in meta batches too (`AttentionRegularizer`).
    predicate_dropout, predicate_dropout_unit
        Share r of the meta-support predicates (or, unit "action", rows) treated as new (`PredicateDropout`).

    Beyond the paper (docs/reproduction.md, docs/results.md): `lexicon*` and
    `handwritten_new_predicate_entries` (`LexiconScope`); `lexical_linking`, `link_pooling`,
    `link_threshold` (`LexicalLinking`); `supervised_attention`; `action_scorers`, `decoding_scorers`,
    `rerankers`; `new_action_bias`, added when decoding to the score of the actions added after
    pre-training (`new_action_mask`); the authors' `decoder` (`{type: "authors"}`), `slot_variant`,
    `dropout_placement: "attentional"` (on `h_t` only), `restrict_training: false` (the action loss over
    every valid action) and `loss_reduction: "example"` (`modules/loss_terms/reduction.py`).
    """

    # The state-dict key of the scoped lexicon (`_save_to_state_dict`).
    LEXICON_KEY = "_scoped_lexicon"

    def __init__(
        self,
        vocab: Vocabulary,
        source_embedder: TextFieldEmbedder,
        encoder: Seq2SeqEncoder,
        action_dim: int = 128,
        decoder_dim: int = 256,
        dropout: float = 0.5,
        label_smoothing: float = 0.0,
        smoothing_k: float = 0.0,
        max_decoding_steps: int = 50,
        beam_size: int = 1,
        attention_regularization: float = 0.0,
        conditional_feature: bool = True,
        similarity_feature: bool = True,
        predicate_dropout: float = 0.5,
        # Beyond the paper (with two of the authors' behaviours, `dropout_placement` and `meta_regularization`).
        lexicon: Optional[str] = None,
        lexical_linking: bool = False,
        link_pooling: str = "attention",
        link_threshold: float = 0.75,
        new_action_bias: float = 0.0,
        supervised_attention: float = 0.0,
        dropout_placement: str = "all",
        meta_regularization: bool = False,
        lexicon_training_data: Optional[str] = None,
        lexicon_support_data: Optional[str] = None,
        lexicon_descriptions: Optional[str] = None,
        handwritten_new_predicate_entries: bool = False,
        decoding_scorers: Optional[List[DecodingScorer]] = None,
        rerankers: Optional[List[Reranker]] = None,
        action_scorers: Optional[List[ActionScorer]] = None,
        # The authors' behaviours.
        decoder: Optional[Lazy[StackLSTMDecoder]] = None,
        slot_variant: Optional[Lazy[SlotVariant]] = None,
        restrict_training: bool = True,
        loss_reduction: str = "step",
        similarity: str = "name",
        predicate_dropout_unit: str = "predicate",
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        self._source_embedder = source_embedder
        self._encoder = encoder
        if dropout_placement not in ("all", "attentional"):
            raise ConfigurationError(f"dropout_placement must be 'all' or 'attentional', not {dropout_placement!r}")
        self.encoder_dropout = torch.nn.Dropout(dropout if dropout_placement == "all" else 0.0)
        self.label_smoothing = label_smoothing
        self.smoothing_k = smoothing_k
        self.max_decoding_steps = max_decoding_steps
        self.beam_size = beam_size
        self.action_space = ActionSpace(vocab)
        num_actions = vocab.get_vocab_size(ACTION_NAMESPACE)
        self.action_embedding = torch.nn.Parameter(torch.empty(num_actions, action_dim).normal_(0, 0.1))
        encoder_dim = encoder.get_output_dim()
        self._decoder = (decoder or Lazy(StackLSTMDecoder)).construct(
            encoder_dim=encoder_dim,
            action_dim=action_dim,
            hidden_dim=decoder_dim,
            num_actions=num_actions,
            dropout=dropout,
            input_dropout=dropout_placement == "all" and dropout > 0,
        )
        check_encoder(self._decoder, encoder)
        self._slot_variant: SlotVariant = slot_variant.construct(parser=self) if slot_variant else CopySlots(self)
        layers, dims = self._slot_variant.slot_layers(self), (action_dim, encoder_dim, decoder_dim)
        self._slot_filler = SlotFiller.for_vocabulary(vocab, self.action_space, *dims, layers=layers)
        scope = (lexicon, lexicon_descriptions, lexicon_training_data, lexicon_support_data)
        self.lexicon_scope = LexiconScope(*scope, handwritten_new_predicate_entries)
        self.lexical_linking = LexicalLinking(link_pooling, link_threshold) if lexical_linking else None
        self.loss_reduction = check_reduction(loss_reduction)
        features = (conditional_feature, similarity_feature, similarity)
        self.regularizer = AttentionRegularizer(
            decoder_dim, attention_regularization, meta_regularization, loss_reduction, *features
        )
        self.supervision = SupervisedAttention(supervised_attention, loss_reduction)
        self.predicate_dropout = PredicateDropout(predicate_dropout, predicate_dropout_unit)
        # Action rows added by the last vocabulary extension (set by `extend_embedder_vocab`).
        self.new_actions: List[int] = []
        self.new_action_bias = new_action_bias
        # `(num_actions,)`: every action added by a vocabulary extension after pre-training (saved).
        self.new_action_mask: torch.Tensor
        self.register_buffer("new_action_mask", torch.zeros(num_actions, dtype=torch.bool))
        self.decoding_scorers = torch.nn.ModuleList(decoding_scorers or [])
        self.rerankers: List[Reranker] = list(rerankers or [])
        if beam_size != 1 and (decoder is not None or any(reranker.greedy_only for reranker in self.rerankers)):
            raise ConfigurationError(f"the decoder or a reranker is greedy: beam_size must be 1, not {beam_size}")
        self._exact_match = LogicalFormExactMatch()
        self._template_accuracy = Average()
        self._slot_accuracy = Average()
        self.action_scorers = cast(List[ActionScorer], torch.nn.ModuleList(action_scorers or []))
        for scorer in self.action_scorers:
            scorer.attach(self)  # it reads the parser's parts (embedder, action rows, decoder): built last
        self.restrict_training = restrict_training

    # -- the parts components read ----------------------------------------------------------------------

    @property
    def decoder(self) -> StackLSTMDecoder:
        """The template decoder."""
        return self._decoder

    @property
    def slot_filler(self) -> SlotFiller:
        """The copy-and-name slot layers (`modules/slot_filler.py`)."""
        return self._slot_filler

    @property
    def slots(self) -> SlotVariant:
        """How slots are filled: the `slot_variant`, by default the paper's copying and naming (`CopySlots`)."""
        return self._slot_variant

    @property
    def source_embedder(self) -> TextFieldEmbedder:
        return self._source_embedder

    # -- action space -----------------------------------------------------------------------------

    def space(self) -> Dict[str, torch.Tensor]:
        """Per-action tensors on the model's device (`ActionSpace.tensors`; rebuilt after the vocabulary grows)."""
        return self.action_space.tensors(self.action_embedding.device)

    def action_matrix(self) -> torch.Tensor:
        """The action embedding matrix `C` used to score actions (training code may override it)."""
        return self.action_embedding

    def action_log_probs(
        self,
        projections: torch.Tensor,
        mask: torch.Tensor,
        matrix: Optional[torch.Tensor] = None,
        bonus: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        """Log P(a | h_t) over the `mask`ed actions, plus `bonus`, with the smoothing constant in training."""
        matrix = self.action_matrix() if matrix is None else matrix
        logits = torch.matmul(projections, matrix.t())
        if bonus is not None:
            logits = logits + bonus
        logits = logits.masked_fill(~mask, torch.finfo(logits.dtype).min)
        normalizer = torch.logsumexp(logits, dim=-1, keepdim=True)
        if self.training and self.smoothing_k > 0:
            normalizer = torch.logaddexp(normalizer, torch.full_like(normalizer, float(self.smoothing_k)).log())
        return logits - normalizer

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):  # type: ignore[no-untyped-def]
        # The scoped lexicon (absent from a state dict filtered of it: scoped from the files then).
        stored = state_dict.pop(prefix + self.LEXICON_KEY, None)
        if stored is not None:
            self.lexicon_scope.load(stored)
            self.regularizer.reset(conditional=False)
            for scorer in self.scorers():
                scorer.reset()
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)

    # -- vocabulary growth (new predicates at fine-tuning) ---------------------------------------------

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        """
        After the vocabulary grew (support set of new predicates): extends the word embeddings
        (AllenNLP's mechanism) and adds rows for the new actions, variables and entity types. New
        action rows start random; `new_actions` lists them for prototype initialization.
        """
        super().extend_embedder_vocab(embedding_sources_mapping)
        old_actions = self.action_embedding.size(0)
        num_actions = self.vocab.get_vocab_size(ACTION_NAMESPACE)
        if num_actions > old_actions:
            extra = torch.empty(num_actions - old_actions, self.action_embedding.size(1)).normal_(0, 0.1)
            self.action_embedding = torch.nn.Parameter(
                torch.cat([self.action_embedding.data, extra.to(self.action_embedding.device)])
            )
        self.new_actions = list(range(old_actions, num_actions))
        added = torch.ones(num_actions - old_actions, dtype=torch.bool, device=self.new_action_mask.device)
        self.new_action_mask = torch.cat([self.new_action_mask[:old_actions], added])
        self.action_space = ActionSpace(self.vocab)
        # A grown vocabulary has new predicates: the lexicon is scoped again (AllenNLP's loading
        # extends the vocabulary before it restores the stored lexicon).
        self.lexicon_scope.reset()
        for term in self.loss_terms():
            term.reset()
        for scorer in self.scorers():
            scorer.reset()
        self._slot_filler.extend_to(self.vocab, self.action_space)
        self._decoder.extend(num_actions)
        self._slot_variant.extend(self)

    # -- prototypes and predicate-dropout -------------------------------------------------------------

    def prototypes(self, projections: torch.Tensor, actions: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """Prototype of every action (Eq. 3), the mean `h_t` over the steps that apply it, and a presence mask."""
        return prototype_functions.prototypes(projections, actions, self.action_embedding.size(0))

    def teacher_forced(
        self, batch: Dict[str, Any], matrix: Optional[torch.Tensor] = None
    ) -> Tuple[DecoderOutput, torch.Tensor, torch.Tensor]:
        """Encodes a batch and runs the decoder on its gold actions (with action matrix `matrix`)."""
        encoded, source_mask = self.encode(batch["source_tokens"])
        matrix = self.action_matrix() if matrix is None else matrix
        gold = (batch["actions"], batch["previous_state"], batch["popped_states"])
        return self._decoder(encoded, source_mask, matrix, *gold), encoded, source_mask

    def meta_loss(self, support: Dict[str, Any], query: Dict[str, Any]) -> torch.Tensor:
        """
        The predicate-dropout loss L_m (Algorithm 1): prototypes from the meta-support set replace the
        embeddings of the actions of a random share of its predicates, `C = (1 - m) C_s + m C_m`, and
        the loss is the cross-entropy of the meta-test set under `C`.
        """
        decoded, _, _ = self.teacher_forced(support)
        prototypes, present = self.prototypes(decoded.projections, support["actions"])
        mask = self.predicate_dropout.rows(present, self.action_space)
        matrix = torch.where(mask.unsqueeze(-1), prototypes, self.action_embedding)
        query_decoded, encoded, source_mask = self.teacher_forced(query, matrix)
        return self.supervised_loss(query, query_decoded, encoded, source_mask, matrix, meta=True)[0]

    # -- alignment: lexicon, regularizer, score terms ---------------------------------------------------

    def lexicon(self) -> Dict[str, List[str]]:
        """The scoped lexicon the alignment tables use (`LexiconScope`; saved with the weights)."""
        return self.lexicon_scope.lexicon(self)

    def _save_to_state_dict(self, destination, prefix, keep_vars):  # type: ignore[no-untyped-def]
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + self.LEXICON_KEY] = self.lexicon_scope.as_tensor(self)

    def set_alignment_statistics(self, examples: List[Tuple[List[str], List[str]]]) -> None:
        """Sets Omega's P(a | x) from `(utterance tokens, gold action strings)` of the training examples."""
        self.regularizer.set_statistics(self, examples)

    def action_bonus(
        self, projections: torch.Tensor, attention: torch.Tensor, source_tokens: TextFieldTensors
    ) -> Optional[torch.Tensor]:
        """`(batch, steps, num_actions)` score terms of teacher-forced steps (None: none): the `scorers`'."""
        scorers = self.scorers()
        return sum_terms([scorer.teacher_forced(self, projections, attention, source_tokens) for scorer in scorers])

    def scorers(self) -> List[ActionScorer]:
        """The `action_scorers`, then lexical linking (their terms are added in this order)."""
        linking = [] if self.lexical_linking is None else [self.lexical_linking]
        return [*self.action_scorers, *linking]

    @staticmethod
    def word_ids(source_tokens: TextFieldTensors) -> torch.Tensor:
        """Ids of the utterance words in the `tokens` vocabulary (a single-id indexer the reader must keep)."""
        return vocabulary_word_ids(source_tokens, "attention regularization")

    # -- forward ------------------------------------------------------------------------------------

    def encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        """Encoder states `(batch, length, dim)` and mask of the utterance (words plus the scorers' word features)."""
        self._slot_variant.start_run(self)
        mask = util.get_text_field_mask(source_tokens)
        features = [scorer.word_features(self, source_tokens) for scorer in self.scorers()]
        embedded = sum_terms([self._source_embedder(source_tokens), *features])
        if self._decoder.reads_encoder_cells:
            outputs, cells = encode_with_last_cells(self._encoder, self.encoder_dropout(embedded), mask)
            self._decoder.encoder_cells = cells
            return self.encoder_dropout(outputs), mask
        return self.encoder_dropout(self._encoder(self.encoder_dropout(embedded), mask)), mask

    def forward(  # type: ignore
        self,
        source_tokens: Optional[TextFieldTensors] = None,
        source_entity_types: Optional[torch.Tensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
        actions: Optional[torch.Tensor] = None,
        previous_state: Optional[torch.Tensor] = None,
        stack_size: Optional[torch.Tensor] = None,
        popped_states: Optional[torch.Tensor] = None,
        slot_step: Optional[torch.Tensor] = None,
        slot_order: Optional[torch.Tensor] = None,
        slot_is_variable: Optional[torch.Tensor] = None,
        entity_targets: Optional[torch.Tensor] = None,
        variable_values: Optional[torch.Tensor] = None,
        entity_values: Optional[torch.Tensor] = None,
        meta_support: Optional[Dict[str, Any]] = None,
        meta_query: Optional[Dict[str, Any]] = None,
    ) -> Dict[str, Any]:
        """
        A normal batch gives the supervised loss (plus the attention regularizer) and, when not
        training, decodes. A meta batch (`meta_support` and `meta_query`, made by the
        `fewshot_episodes` data loader) gives the predicate-dropout loss L_m instead.
        """
        if meta_support is not None and meta_query is not None:
            return {"loss": self.meta_loss(meta_support, meta_query)}
        assert source_tokens is not None and source_entity_types is not None and metadata is not None
        encoded, source_mask = self.encode(source_tokens)
        output: Dict[str, Any] = {}
        if actions is not None:
            assert previous_state is not None and stack_size is not None and popped_states is not None
            batch = {
                "source_tokens": source_tokens,
                "source_entity_types": source_entity_types,
                "actions": actions,
                "stack_size": stack_size,
                "slot_step": slot_step,
                "slot_order": slot_order,
                "slot_is_variable": slot_is_variable,
                "entity_targets": entity_targets,
                "variable_values": variable_values,
                "entity_values": entity_values,
            }
            decoded = self._decoder(encoded, source_mask, self.action_matrix(), actions, previous_state, popped_states)
            # Omega and supervised attention are training terms: validation losses stay comparable across settings.
            output["loss"], slot_correct = self.supervised_loss(batch, decoded, encoded, source_mask)
            if not self.training:
                for correct in slot_correct:
                    self._slot_accuracy(float(correct))
        if not self.training:
            output.update(
                self.decode(DecodingInputs(encoded, source_mask, source_entity_types, metadata, source_tokens))
            )
            if metadata and metadata[0].get("logical_form") is not None:
                gold = [m["logical_form"] for m in metadata]
                self._exact_match(output["logical_form"], gold, metadata[0]["formalism"])
                for predicted, m in zip(output["predicted_actions"], metadata):
                    self._template_accuracy(float(predicted == m["actions"]))
        return output

    def supervised_loss(
        self,
        batch: Dict[str, Any],
        decoded: DecoderOutput,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        matrix: Optional[torch.Tensor] = None,
        meta: bool = False,
    ) -> Tuple[torch.Tensor, List[bool]]:
        """
        The loss of a teacher-forced `batch` (its gold actions decoded as `decoded` with action rows
        `matrix`, None for `action_matrix()`; of a meta batch's query when `meta`): actions, slots, then
        the loss terms (Omega, supervised attention) that apply. Also, when not training, whether each
        slot was right.
        """
        actions, source_tokens = batch["actions"], batch["source_tokens"]
        bonus = self.action_bonus(decoded.projections, decoded.attention, source_tokens)
        loss = self.action_loss(decoded.projections, actions, batch["stack_size"], matrix, bonus)
        slot_loss, slot_correct = self._slot_variant.slot_loss(
            self,
            decoded.projections,
            encoded,
            source_mask,
            batch["source_entity_types"],
            actions,
            batch["slot_step"],
            batch["slot_order"],
            batch["slot_is_variable"],
            batch["entity_targets"],
            batch["variable_values"],
            batch.get("entity_values"),
        )
        loss = loss + slot_loss
        for term in self.loss_terms():
            if term.active and (term.in_meta_batches if meta else self.training):
                loss = loss + term.weight * term.loss(self, decoded, actions, source_tokens, source_mask)
        return loss, slot_correct

    def loss_terms(self) -> List[LossTerm]:
        """The terms added to the loss of a teacher-forced batch, in this order."""
        return [self.regularizer, self.supervision]

    def action_loss(
        self,
        projections: torch.Tensor,
        actions: torch.Tensor,
        stack_size: torch.Tensor,
        matrix: Optional[torch.Tensor] = None,
        bonus: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        """
        Mean (label-smoothed) cross-entropy of the gold actions over the applicable ones (with
        `restrict_training` false: over every valid action), reduced as `loss_reduction` says.
        """
        if self.restrict_training:
            mask = applicable_mask(self.space(), stack_size)
        else:
            valid = self.space()["valid"]
            mask = valid.expand(*stack_size.shape, valid.size(0))
        log_probs = self.action_log_probs(projections, mask, matrix, bonus)
        # Steps to learn from: real steps whose gold action is known (not padding or unknown).
        gold = actions.clamp(min=0)
        step_mask = (actions >= 0) & self.space()["valid"][gold]
        nll = -log_probs.gather(-1, gold.unsqueeze(-1)).squeeze(-1)
        if self.label_smoothing > 0:
            uniform = -(log_probs * mask).sum(-1) / mask.sum(-1).clamp(min=1)
            nll = (1 - self.label_smoothing) * nll + self.label_smoothing * uniform
        loss = (nll * step_mask).sum() / step_mask.sum().clamp(min=1)
        if self.loss_reduction == "example":
            loss = loss * per_example(step_mask.sum(-1))
        return loss

    # -- decoding -------------------------------------------------------------------------------------

    def decode(self, inputs: DecodingInputs) -> Dict[str, Any]:
        """The best LF, its actions and score per example (and the n-best LFs), by `template_search.decode_batch`."""
        return decode_batch(self, inputs)

    def search(self, inputs: DecodingInputs, beams: int) -> List[List[Hypothesis]]:
        """One decoding pass: per example, the finished hypotheses of a beam of `beams` templates, best first."""
        return search_templates(self, inputs, beams)

    def action_scores(
        self, projections: torch.Tensor, matrix: torch.Tensor, added: Optional[torch.Tensor]
    ) -> torch.Tensor:
        """
        Every action's score as decoding sees it (the search's and `dead_ends`'): `matrix` against the
        `projections` `(..., dim)`, plus the `added` terms (or None), plus `new_action_bias` on new actions.
        """
        logits = torch.matmul(projections, matrix.t())
        if added is not None:
            logits = logits + added
        if self.new_action_bias:
            logits = logits + self.new_action_mask.to(matrix.dtype) * self.new_action_bias
        return logits

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        metrics: Dict[str, float] = {}
        if not self.training:
            metrics.update(self._exact_match.get_metric(reset))
            metrics["template_accuracy"] = self._template_accuracy.get_metric(reset)
            metrics["slot_accuracy"] = self._slot_accuracy.get_metric(reset)
        return metrics

    default_predictor = "proto_parser"
