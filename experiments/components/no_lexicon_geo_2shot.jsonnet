// The best row without the lexicon and lexical linking (no_lexicon.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'no_lexicon.libsonnet')
