from typing import Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors
from allennlp.modules import Embedding
from allennlp.nn import util

from fewshot_parser.modules.action_scorers.action_scorer import ActionScorer, StepScores
from fewshot_parser.modules.parser_parts import ParserParts
from fewshot_parser.modules.schema_linking import NUM_MATCH_TYPES, SchemaTables, build_schema_tables, link_batch


def name_embedding(parser: ParserParts) -> Embedding:
    """The parser's `tokens` word table, which embeds predicate names."""
    # A `BasicTextFieldEmbedder` registers each token embedder as its module `token_embedder_<name>`.
    tokens = getattr(parser.source_embedder, "token_embedder_tokens", None)
    if not isinstance(tokens, Embedding):
        raise ConfigurationError(
            "schema_encoding embeds predicate names with the utterance's word embeddings: the parser's "
            "source_embedder needs an 'embedding' token embedder named 'tokens'"
        )
    return tokens


@ActionScorer.register("schema_encoding")
class SchemaEncoding(ActionScorer):
    """
    IRNet's schema encoding (Guo et al. 2019) as the paper adapts it for its IRNet baseline (Sec. 5),
    with the dataset's predicates as the columns of the schema. With it, a predicate first seen at
    fine-tuning starts with a meaningful score from its name, without prototypes.

    * Schema linking (`fewshot_parser.modules.schema_linking`): every utterance word gets a match
      type (none / partial / exact) against the predicate names; its embedding is added to the
      word's embedding before the encoder, as IRNet does for question n-grams.
    * Schema items: a predicate is the mean embedding of its name words (the utterance's `tokens`
      word table; other word embedders, such as MiniLM, feed only the utterance) plus the embedding
      of its match type in this utterance.
    * Like IRNet's column pointer, an action's score gets `h_t . W s_a`, where `s_a` is the mean
      encoding of the action's predicates.

    Registered as an `ActionScorer` with name "schema_encoding".

    # Parameters

    threshold : `float`, optional (default = `0.75`)
        Minimum `predicate_names.link_similarity` for an utterance word to mention a name word.
    """

    def __init__(self, threshold: float = 0.75) -> None:
        super().__init__()
        self.threshold = threshold
        self._schema: Optional[SchemaTables] = None

    def attach(self, parser: ParserParts) -> None:
        tokens = name_embedding(parser)
        # Utterance words may have more embedders beside `tokens` (e.g. MiniLM); predicate names are
        # embedded with the `tokens` table alone, so schema items have that table's width.
        word_dim = parser.source_embedder.get_output_dim()
        name_dim = tokens.get_output_dim()
        self._word_type_embedding = torch.nn.Embedding(NUM_MATCH_TYPES, word_dim)
        self._predicate_type_embedding = torch.nn.Embedding(NUM_MATCH_TYPES, name_dim)
        self._schema_projection = torch.nn.Linear(name_dim, parser.action_embedding.size(1), bias=False)
        for embedding in (self._word_type_embedding, self._predicate_type_embedding):
            torch.nn.init.normal_(embedding.weight, 0.0, 0.1)

    def reset(self) -> None:
        self._schema = None

    def schema(self, parser: ParserParts) -> SchemaTables:
        """The vocabulary-level schema tables of `parser` (rebuilt after its vocabulary grows)."""
        if self._schema is None:
            vocab = parser.vocab
            tokens = [vocab.get_token_from_index(i, "tokens") for i in range(vocab.get_vocab_size("tokens"))]
            predicates = [a.predicates if a is not None else () for a in parser.action_space.actions]
            self._schema, _ = build_schema_tables(predicates, tokens, self.threshold)
        return self._schema

    def link(self, parser: ParserParts, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        """Word match types `(batch, length)` and predicate match types `(batch, P)` of a batch."""
        return link_batch(self.schema(parser), parser.word_ids(source_tokens), util.get_text_field_mask(source_tokens))

    def word_features(self, parser: ParserParts, source_tokens: TextFieldTensors) -> torch.Tensor:
        word_types, _ = self.link(parser, source_tokens)
        return self._word_type_embedding(word_types)

    def schema_actions(self, parser: ParserParts, source_tokens: TextFieldTensors) -> torch.Tensor:
        """`(batch, num_actions, action_dim)`: `W s_a`, each action's projected predicate encoding."""
        tables = self.schema(parser)
        device = parser.action_embedding.device
        _, predicate_types = self.link(parser, source_tokens)
        words = name_embedding(parser)(tables.name_token_ids.to(device))
        name_mask = tables.name_mask.to(device).unsqueeze(-1).float()
        names = (words * name_mask).sum(1) / name_mask.sum(1).clamp(min=1)  # (P, word_dim)
        predicates = names.unsqueeze(0) + self._predicate_type_embedding(predicate_types)  # (batch, P, word_dim)
        actions = torch.matmul(tables.action_predicates.to(device), predicates)  # (batch, A, word_dim)
        return self._schema_projection(parser.encoder_dropout(actions))

    def teacher_forced(
        self, parser: ParserParts, projections: torch.Tensor, attention: torch.Tensor, source_tokens: TextFieldTensors
    ) -> torch.Tensor:
        return torch.bmm(projections, self.schema_actions(parser, source_tokens).transpose(1, 2))

    def decoding(self, parser: ParserParts, source_tokens: TextFieldTensors, beams: int) -> StepScores:
        schema = self.schema_actions(parser, source_tokens).repeat_interleave(beams, 0)
        return lambda projection, attention: torch.bmm(schema, projection.unsqueeze(-1)).squeeze(-1)
