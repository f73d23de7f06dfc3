// The coverage variant (the best row) with GloVe 50-d word vectors beside the frozen MiniLM
// (`pp.words.contextual_glove()`, issue 25 item 3): GloVe replaces the random 200-d word table that
// IRNet's schema encoding embeds utterance words and predicate names with. Own pre-trained archive.
local pp = import '../common/proto_parser.libsonnet';
(import 'coverage.libsonnet') + {
  variant: 'contextual-schema-glove',
  words: pp.words.contextual_glove(),
}
