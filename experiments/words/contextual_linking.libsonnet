// Frozen contextual MiniLM words + the predicate lexicon + lexical linking pooled by attention and max.
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'contextual-linking', words: pp.words.contextual(), lexicon: true, lexical_linking: true, link_pooling: 'both' }
