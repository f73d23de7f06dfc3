// Frozen contextual MiniLM words + the predicate lexicon in the string-similarity feature.
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'contextual-lexicon', words: pp.words.contextual(), lexicon: true }
