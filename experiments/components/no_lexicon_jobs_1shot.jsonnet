// The best row without the lexicon and lexical linking (no_lexicon.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'no_lexicon.libsonnet')
