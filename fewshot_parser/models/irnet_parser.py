from typing import Any, Callable, Dict, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Embedding
from allennlp.nn import util

from fewshot_parser.modules.schema_linking import NUM_MATCH_TYPES, SchemaTables, build_schema_tables, link_batch
from fewshot_parser.models.proto_parser import ProtoParser


@Model.register("irnet_parser")
class IRNetParser(ProtoParser):
    """
    The IRNet baseline as the paper adapts it (Sec. 5): IRNet's schema encoding (Guo et al. 2019)
    added to our base parser, with the dataset's predicates as the columns of the schema.

    * Schema linking (`fewshot_parser.modules.schema_linking`): every utterance word gets a match
      type (none / partial / exact) against the predicate names; its embedding is added to the
      word's embedding before the encoder, as IRNet does for question n-grams.
    * Schema item encoding: a predicate is the mean embedding of its name words (the utterance's
      `tokens` word table; other word embedders, such as MiniLM, feed only the utterance) plus the
      embedding of its match type in this utterance.
    * Like IRNet's column pointer, an action's score gets `h_t . W s_a`, where `s_a` is the mean
      encoding of the action's predicates. A predicate first seen at fine-tuning thus starts with
      a meaningful score from its name, and no prototype machinery is involved.

    It is trained like any supervised parser (the pt / cb / os settings of the baselines); all
    `proto_parser` parameters apply. Registered as a `Model` with name "irnet_parser".

    # Parameters

    schema_threshold : `float`, optional (default = `0.75`)
        Minimum `predicate_names.link_similarity` for an utterance word to mention a name word.
    """

    def __init__(self, vocab: Vocabulary, schema_threshold: float = 0.75, **kwargs: Any) -> None:
        super().__init__(vocab, **kwargs)
        embedders = getattr(self._source_embedder, "_token_embedders", {})
        if not isinstance(embedders.get("tokens"), Embedding):
            raise ConfigurationError(
                "irnet_parser embeds predicate names with the utterance's word embeddings: the "
                "source_embedder needs an 'embedding' token embedder named 'tokens'"
            )
        # Utterance words may have more embedders beside `tokens` (e.g. MiniLM); predicate names
        # are embedded with the `tokens` table alone, so schema items have that table's width.
        word_dim = self._source_embedder.get_output_dim()
        name_dim = embedders["tokens"].get_output_dim()
        self._schema_threshold = schema_threshold
        self._word_type_embedding = torch.nn.Embedding(NUM_MATCH_TYPES, word_dim)
        self._predicate_type_embedding = torch.nn.Embedding(NUM_MATCH_TYPES, name_dim)
        self._schema_projection = torch.nn.Linear(name_dim, self.action_embedding.size(1), bias=False)
        for embedding in (self._word_type_embedding, self._predicate_type_embedding):
            torch.nn.init.normal_(embedding.weight, 0.0, 0.1)
        self._schema: Optional[SchemaTables] = None

    def schema(self) -> SchemaTables:
        """The vocabulary-level schema tables (rebuilt after the vocabulary grows)."""
        if self._schema is None:
            tokens = [self.vocab.get_token_from_index(i, "tokens") for i in range(self.vocab.get_vocab_size("tokens"))]
            predicates = [a.predicates if a is not None else () for a in self.action_space.actions]
            self._schema, _ = build_schema_tables(predicates, tokens, self._schema_threshold)
        return self._schema

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        super().extend_embedder_vocab(embedding_sources_mapping)
        self._schema = None

    def link(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        """Word match types `(batch, length)` and predicate match types `(batch, P)` of a batch."""
        return link_batch(self.schema(), self.word_ids(source_tokens), util.get_text_field_mask(source_tokens))

    def encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        mask = util.get_text_field_mask(source_tokens)
        word_types, _ = self.link(source_tokens)
        embedded = self._source_embedder(source_tokens) + self._word_type_embedding(word_types)
        return self._dropout(self._encoder(self._dropout(embedded), mask)), mask

    def schema_actions(self, source_tokens: TextFieldTensors) -> torch.Tensor:
        """`(batch, num_actions, action_dim)`: `W s_a`, each action's projected predicate encoding."""
        tables = self.schema()
        device = self.action_embedding.device
        _, predicate_types = self.link(source_tokens)
        words = self._source_embedder._token_embedders["tokens"](tables.name_token_ids.to(device))  # type: ignore
        name_mask = tables.name_mask.to(device).unsqueeze(-1).float()
        names = (words * name_mask).sum(1) / name_mask.sum(1).clamp(min=1)  # (P, word_dim)
        predicates = names.unsqueeze(0) + self._predicate_type_embedding(predicate_types)  # (batch, P, word_dim)
        actions = torch.matmul(tables.action_predicates.to(device), predicates)  # (batch, A, word_dim)
        return self._schema_projection(self._dropout(actions))

    def action_bonus(
        self, projections: torch.Tensor, attention: torch.Tensor, source_tokens: TextFieldTensors
    ) -> Optional[torch.Tensor]:
        schema = torch.bmm(projections, self.schema_actions(source_tokens).transpose(1, 2))
        links = super().action_bonus(projections, attention, source_tokens)
        return schema if links is None else schema + links

    def decoding_bonus(
        self, source_tokens: Optional[TextFieldTensors], beams: int
    ) -> Optional[Callable[[torch.Tensor, torch.Tensor], torch.Tensor]]:
        links = super().decoding_bonus(source_tokens, beams)
        if source_tokens is None:
            return links
        schema = self.schema_actions(source_tokens).repeat_interleave(beams, 0)

        def bonus(projection: torch.Tensor, attention: torch.Tensor) -> torch.Tensor:
            scores = torch.bmm(schema, projection.unsqueeze(-1)).squeeze(-1)
            return scores if links is None else scores + links(projection, attention)

        return bonus
