"""
ProtoParser with three more behaviours of the authors' code, each a switch (docs/reproduction.md
rows 7, 19 and 23). `proto_parser` keeps the paper's reading; the faithful configs turn these on.

* `decoder: "authors"`: input feeding and a separate input action table
  (`modules/feeding_decoder.py`); prototypes and new-predicate rows then set only output rows.
* `similarity: "parts"`: the string-similarity feature compares a word with the `_` parts of a
  predicate's name, expanded by the authors' table of part words (`modules/predicate_parts.py`).
* `predicate_dropout_unit: "action"`: in a meta batch each action row of the meta-support set
  takes its prototype independently with probability `predicate_dropout` and keeps its trained
  embedding otherwise, as the authors' `ProtoDropout` (a Bernoulli draw per row). The paper's
  Algorithm 1 (`"predicate"`) drops a share of the predicates and gives all their actions prototypes.
"""
from typing import Any, Dict, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model

from fewshot_parser.data.dataset_readers.fewshot_reader import ACTION_NAMESPACE
from fewshot_parser.models.unrestricted import UnrestrictedProtoParser
from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder
from fewshot_parser.modules.predicate_parts import part_similarity_matrix


@Model.register("proto_parser_authors")
class AuthorsProtoParser(UnrestrictedProtoParser):
    """
    A `proto_parser_unrestricted` with the authors' decoder, string similarity and predicate dropout
    available as switches.

    Registered as a `Model` with name "proto_parser_authors".

    # Parameters

    decoder : `str`, optional (default = `"stack"`)
        `"stack"`: our stack-LSTM decoder (input tied to the output rows, no input feeding).
        `"authors"`: `InputFeedingStackDecoder` with a `decoder_input_dim` input table. Greedy only.
    decoder_input_dim : `int`, optional (default = `128`)
        Size of the input action table of the `"authors"` decoder (128 in their code).
    similarity : `str`, optional (default = `"name"`)
        `"name"`: the whole predicate name (and `lexicon` words), as `proto_parser`. `"parts"`: the
        authors' `_` parts with their part table (the `lexicon` option is then not used).
    predicate_dropout_unit : `str`, optional (default = `"predicate"`)
        `"predicate"`: Algorithm 1, a share `predicate_dropout` of the meta-support predicates takes
        prototypes. `"action"`: each action row of the meta-support set takes its prototype with
        probability `predicate_dropout`, independently (the authors' code, p = 0.5).
    **kwargs
        Everything else, as for `proto_parser_unrestricted`.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        decoder: str = "stack",
        decoder_input_dim: int = 128,
        similarity: str = "name",
        predicate_dropout_unit: str = "predicate",
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        for name, value, allowed in (
            ("decoder", decoder, ("stack", "authors")),
            ("similarity", similarity, ("name", "parts")),
            ("predicate_dropout_unit", predicate_dropout_unit, ("predicate", "action")),
        ):
            if value not in allowed:
                raise ConfigurationError(f"proto_parser_authors: {name} must be one of {list(allowed)}, not {value!r}")
        if decoder == "authors":
            if self.beam_size != 1:
                raise ConfigurationError(f"proto_parser_authors: decoder 'authors' is greedy; set beam_size to 1 (got {self.beam_size})")
            stack = self._decoder
            self._decoder = InputFeedingStackDecoder(
                stack.attention_key.in_features, stack.action_dim, stack.hidden_dim,
                vocab.get_vocab_size(ACTION_NAMESPACE), decoder_input_dim, stack.dropout.p, stack.input_dropout.p > 0,
            )
        self.decoder_kind = decoder
        self.similarity = similarity
        self.predicate_dropout_unit = predicate_dropout_unit
        # While `meta_loss` runs with action-wise dropout: the share of rows that take prototypes.
        self._row_rate: Optional[float] = None

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        super().extend_embedder_vocab(embedding_sources_mapping)
        if isinstance(self._decoder, InputFeedingStackDecoder):
            self._decoder.extend(self.vocab.get_vocab_size(ACTION_NAMESPACE))

    def similarity_table(self) -> torch.Tensor:
        if self.similarity == "name":
            return super().similarity_table()
        if self._similarity_table is None:
            tokens = [self.vocab.get_token_from_index(i, "tokens") for i in range(self.vocab.get_vocab_size("tokens"))]
            predicates = [a.predicates if a is not None else () for a in self.action_space.actions]
            self._similarity_table = part_similarity_matrix(predicates, tokens)
        return self._similarity_table

    def meta_loss(self, support: Dict[str, Any], query: Dict[str, Any]) -> torch.Tensor:
        """
        With `predicate_dropout_unit` "action": `prototypes` keeps each present action row with
        probability `predicate_dropout`, and every predicate of the kept rows is dropped, so exactly
        the kept rows take their prototypes in `ProtoParser.meta_loss` (rows that produce no
        predicate keep their embedding, as in the paper's setting).
        """
        if self.predicate_dropout_unit == "predicate":
            return super().meta_loss(support, query)
        rate = self.predicate_dropout
        self._row_rate, self.predicate_dropout = rate, 1.0
        try:
            return super().meta_loss(support, query)
        finally:
            self._row_rate, self.predicate_dropout = None, rate

    def prototypes(self, projections: torch.Tensor, actions: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        prototypes, present = super().prototypes(projections, actions)
        if self._row_rate is not None:
            # One draw per action row from the model's seeded generator, as ProtoDropout draws one per row.
            draws = torch.tensor([self._random.random() for _ in range(present.numel())], device=present.device)
            present = present & (draws < self._row_rate)
        return prototypes, present
