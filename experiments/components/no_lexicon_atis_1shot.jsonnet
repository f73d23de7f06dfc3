// The best row without the lexicon and lexical linking (no_lexicon.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'no_lexicon.libsonnet')
