// The best row without the lexicon and lexical linking (no_lexicon.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'no_lexicon.libsonnet')
