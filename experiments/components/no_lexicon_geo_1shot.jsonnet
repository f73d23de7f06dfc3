// The best row without the lexicon and lexical linking (no_lexicon.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'no_lexicon.libsonnet')
