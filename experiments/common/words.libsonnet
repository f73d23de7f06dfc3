// Utterance-word switches for the baselines that have an utterance encoder: a `pp.words` option
// (random, glove(file), static(), contextual(); see proto_parser.libsonnet), or null for the
// system's own randomly initialised embedding, as reader indexers and model fields.
{
  // The reader's indexer field (`token_indexers`, or `source_token_indexers` for Seq2Seq).
  indexers(words, field):: if words == null then {} else { [field]: words.indexers },

  // The model's word embedders and the input size of its encoder.
  embedders(words):: if words == null then {} else {
    source_embedder: { token_embedders: words.embedders },
    encoder+: { input_size: words.dim },
  },

  // Options whose `tokens` word table is not an embedding (static, contextual) with a random 200-d
  // table beside them, for models that embed vocabulary words themselves (IRNet's predicate names).
  with_word_table(words, dim=200):: if std.member(['embedding', 'packaged_glove'], words.embedders.tokens.type) then words else words {
    embedders+: { tokens: { type: 'embedding', embedding_dim: dim } },
    dim: super.dim + dim,
  },

  // An experiment library (seq2seq.libsonnet, ...) whose system has other words, named
  // `<system>-<name>` so that its pre-trained archive is kept apart.
  with_words(library, option, name):: library { system+: { words: option, name: library.system.name + '-' + name } },
}
