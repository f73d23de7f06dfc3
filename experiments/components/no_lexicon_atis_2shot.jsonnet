// The best row without the lexicon and lexical linking (no_lexicon.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'no_lexicon.libsonnet')
