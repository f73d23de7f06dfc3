// The baselines with the packaged MiniLM (frozen, contextual, outputs cached) as their utterance
// words: the word knowledge of our best row, given to every baseline that has an utterance encoder.
local pp = import '../../common/proto_parser.libsonnet';
local option = pp.words.contextual();

{
  seq2seq:: (import '../../common/seq2seq.libsonnet').with_words(option, 'minilm'),
  coarse2fine:: (import '../../common/coarse2fine.libsonnet').with_words(option, 'minilm'),
  irnet:: (import '../../common/irnet.libsonnet').with_words(option, 'minilm'),
  da:: (import '../../common/da.libsonnet').with_words(option, 'minilm'),
  ptmaml:: (import '../../common/ptmaml.libsonnet').with_words(option, 'minilm'),
}
