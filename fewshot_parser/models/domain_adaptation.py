"""
The DA baseline: Li et al. (IJCAI 2020), "Domain Adaptation for Semantic Parsing", with the
training set as the source domain and the support set as the target domain.

Their parser is a coarse-to-fine one: the coarse stage decodes a domain-general sketch and should
rely on domain-general words and representations; the fine stage fills in the domain-specific
details. Here the sketch keeps only the formalism's operators (`lambda`, `and`, `argmax`, ...;
the reader's `abstract_predicates`), and the fine stage names the predicates as well as the
entities and variables (`coarse2fine`'s `predicate_slots`). Two components separate the stages:

* *domain discriminators* that predict an utterance's domain from encoder states pooled by a
  learned attention. Each stage has its own utterance encoder, as in the authors' code: the coarse
  encoder is trained adversarially against its discriminator (it should not give the domain away),
  the fine encoder cooperatively with its own (it should keep what is specific to the domain);
* *domain relevance attention*: besides its ordinary attention context, each decoder step gets a
  second context whose scores are rescaled word by word, `e'_j = r_j e_j`: the sketch decoder
  scales the words that are not domain-relevant up (by `coarse_relevance_scale`), the fine
  decoder scales the domain-relevant words up (by `fine_relevance_scale`).

What we changed, and why (also in the README):

* One model with two encoders (the fine one is `fine_encoder`), trained together, instead of two
  separately trained models; the word embeddings are shared.
* The adversarial term is a gradient-reversal layer, so the discriminator itself still learns to
  tell the domains apart (the authors' code gives the loss a negative weight).
* Which words are domain-relevant is decided from the training data, since how the authors chose
  them is not described: a word is relevant when its rate per target example is more than
  `relevance_ratio` times its rate per source example (`DomainStatisticsCallback`).
"""

from typing import Any, Dict, List, Optional, Tuple, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder
from allennlp.nn import util

from fewshot_parser.models.coarse2fine import Coarse2Fine
from fewshot_parser.modules.word_ids import vocabulary_word_ids


class _ReverseGradient(torch.autograd.Function):
    """Identity forward; multiplies the gradient by `-scale` backward."""

    @staticmethod
    def forward(ctx: Any, inputs: torch.Tensor, scale: float) -> torch.Tensor:  # type: ignore
        ctx.scale = scale
        return inputs.view_as(inputs)

    @staticmethod
    def backward(ctx: Any, gradient: torch.Tensor) -> Tuple[torch.Tensor, None]:  # type: ignore
        return -ctx.scale * gradient, None


def reverse_gradient(inputs: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
    return _ReverseGradient.apply(inputs, scale)


def relevance_attention(
    query: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor, scale: torch.Tensor
) -> torch.Tensor:
    """Dot-product attention whose scores are multiplied by `scale` `(batch, length)` word by word."""
    single = query.dim() == 2
    if single:
        query = query.unsqueeze(1)
    scores = torch.bmm(query, keys.transpose(1, 2)) * scale.unsqueeze(1)
    scores = scores.masked_fill(~mask.unsqueeze(1), torch.finfo(query.dtype).min)
    context = torch.bmm(torch.softmax(scores, dim=-1), keys)
    return context.squeeze(1) if single else context


@Model.register("da_coarse2fine")
class DomainAdaptiveCoarse2Fine(Coarse2Fine):
    """
    `coarse2fine` with a domain discriminator and domain relevance attention (module docstring).
    Train it on `train + support` read with the reader's `domain_labels: true` (and, as the DA
    configs do, `abstract_predicates: true` with `predicate_slots: true`) and the
    `fewshot_domain_statistics` callback, which marks the domain-relevant words.

    Registered as a `Model` with name "da_coarse2fine".

    # Parameters

    fine_encoder : `Seq2SeqEncoder`
        The fine stage's utterance encoder (same output size as `encoder`).
    domain_loss_weight : `float`, optional (default = `0.4`)
        Weight of the coarse discriminator's cross-entropy; the coarse encoder receives it reversed.
    fine_domain_loss_weight : `float`, optional (default = `0.2`)
        Weight of the fine discriminator's cross-entropy (not reversed).
    coarse_relevance_scale, fine_relevance_scale : `float`, optional (default = `60.0`, `2.0`)
        Score multipliers of the relevance contexts (the values of the authors' released code).
    relevance_ratio : `float`, optional (default = `2.0`)
    """

    def __init__(
        self,
        vocab: Vocabulary,
        fine_encoder: Seq2SeqEncoder,
        domain_loss_weight: float = 0.4,
        fine_domain_loss_weight: float = 0.2,
        coarse_relevance_scale: float = 60.0,
        fine_relevance_scale: float = 2.0,
        relevance_ratio: float = 2.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        hidden = self._encoder.get_output_dim()
        if fine_encoder.get_output_dim() != hidden:
            raise ConfigurationError(
                f"fine_encoder outputs {fine_encoder.get_output_dim()} dimensions, encoder {hidden}"
            )
        self._fine_encoder = fine_encoder
        # Each stage's output layer now reads [state; context; relevance context].
        self._sketch_attention_out = torch.nn.Linear(3 * hidden, hidden)
        self._fine_attention_out = torch.nn.Linear(3 * hidden, hidden)
        self._coarse_discriminator = torch.nn.ModuleDict(
            {"attention": torch.nn.Linear(hidden, 1), "output": torch.nn.Linear(hidden, 2)}
        )
        self._fine_discriminator = torch.nn.ModuleDict(
            {"attention": torch.nn.Linear(hidden, 1), "output": torch.nn.Linear(hidden, 2)}
        )
        self.domain_loss_weight = domain_loss_weight
        self.fine_domain_loss_weight = fine_domain_loss_weight
        self.coarse_relevance_scale = coarse_relevance_scale
        self.fine_relevance_scale = fine_relevance_scale
        self.relevance_ratio = relevance_ratio
        # 1 for the words of the `tokens` vocabulary that are domain-relevant (saved with the model).
        self.domain_relevant: torch.Tensor
        self.register_buffer("domain_relevant", torch.zeros(vocab.get_vocab_size("tokens")))
        # The current batch's word relevance and encodings (set by `_encode`, read by both stages and
        # the discriminators within the same forward pass).
        self._relevance: Optional[torch.Tensor] = None
        self._last_encoding: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
        self._fine_encoded: Optional[torch.Tensor] = None

    def set_domain_statistics(self, utterances: List[Tuple[List[str], int]]) -> None:
        """Marks the words over-represented in the target domain, from `(words, domain)` training examples."""
        size = self.vocab.get_vocab_size("tokens")
        counts = torch.zeros(2, size)
        examples = torch.zeros(2)
        for words, domain in utterances:
            examples[domain] += 1
            for word in set(words):
                counts[domain, self.vocab.get_token_index(word, "tokens")] += 1
        rates = counts / examples.clamp(min=1).unsqueeze(-1)
        relevant = (counts[1] > 0) & (rates[1] > self.relevance_ratio * rates[0])
        self.domain_relevant = relevant.float().to(self.domain_relevant.device)

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        super().extend_embedder_vocab(embedding_sources_mapping)
        extra = self.vocab.get_vocab_size("tokens") - self.domain_relevant.size(0)
        if extra > 0:
            self.domain_relevant = torch.cat([self.domain_relevant, self.domain_relevant.new_zeros(extra)])

    def _encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        mask = util.get_text_field_mask(source_tokens)
        embedded = self._dropout(self._source_embedder(source_tokens))
        encoded = self._dropout(self._encoder(embedded, mask))
        self._fine_encoded = self._dropout(self._fine_encoder(embedded, mask))
        ids = vocabulary_word_ids(source_tokens, "domain relevance")
        self._relevance = self.domain_relevant[ids]
        self._last_encoding = (encoded, mask)
        return encoded, mask

    def _fine_states(
        self, sketch: torch.Tensor, sketch_mask: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        # The fine stage reads the fine encoder's states wherever the parent passes the coarse ones.
        assert self._fine_encoded is not None
        return super()._fine_states(sketch, sketch_mask, self._fine_encoded, mask)

    def _slot_log_probs(
        self, fine: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        assert self._fine_encoded is not None
        return super()._slot_log_probs(fine, self._fine_encoded, mask)

    def _sketch_attentional(self, h: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        assert self._relevance is not None
        ones = torch.ones_like(self._relevance)
        context = relevance_attention(h, encoded, mask, ones)
        general = relevance_attention(
            h, encoded, mask, ones + (self.coarse_relevance_scale - 1) * (1 - self._relevance)
        )
        return self._dropout(torch.tanh(self._sketch_attention_out(torch.cat([h, context, general], -1))))

    def _fine_attentional(self, states: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        assert self._relevance is not None
        ones = torch.ones_like(self._relevance)
        context = relevance_attention(states, encoded, mask, ones)
        specific = relevance_attention(states, encoded, mask, ones + (self.fine_relevance_scale - 1) * self._relevance)
        return self._dropout(torch.tanh(self._fine_attention_out(torch.cat([states, context, specific], -1))))

    @staticmethod
    def domain_logits(discriminator: torch.nn.ModuleDict, encoded: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(batch, 2)` source/target logits from the attention-pooled encoder states."""
        weights = util.masked_softmax(discriminator["attention"](encoded).squeeze(-1), cast(torch.BoolTensor, mask))
        return discriminator["output"](torch.bmm(weights.unsqueeze(1), encoded).squeeze(1))

    def forward(  # type: ignore
        self,
        source_tokens: TextFieldTensors,
        metadata: List[Dict[str, Any]],
        sketch_tokens: Optional[TextFieldTensors] = None,
        slot_kind: Optional[torch.Tensor] = None,
        entity_targets: Optional[torch.Tensor] = None,
        variables: Optional[torch.Tensor] = None,
        predicates: Optional[torch.Tensor] = None,
        domain: Optional[torch.Tensor] = None,
    ) -> Dict[str, Any]:
        output = super().forward(
            source_tokens, metadata, sketch_tokens, slot_kind, entity_targets, variables, predicates
        )
        if domain is not None and self.training and "loss" in output:
            assert self._last_encoding is not None and self._fine_encoded is not None
            encoded, mask = self._last_encoding
            labels = domain.long()
            # Coarse: the discriminator reads the coarse encoder through gradient reversal.
            coarse = self.domain_logits(self._coarse_discriminator, reverse_gradient(encoded, 1.0), mask)
            fine = self.domain_logits(self._fine_discriminator, self._fine_encoded, mask)
            output["domain_loss"] = torch.nn.functional.cross_entropy(coarse, labels)
            output["fine_domain_loss"] = torch.nn.functional.cross_entropy(fine, labels)
            output["loss"] = (
                output["loss"]
                + self.domain_loss_weight * output["domain_loss"]
                + self.fine_domain_loss_weight * output["fine_domain_loss"]
            )
        return output
