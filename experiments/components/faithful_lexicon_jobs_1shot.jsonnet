// The faithful row with the lexicon and lexical linking (faithful_lexicon.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'faithful_lexicon.libsonnet')
