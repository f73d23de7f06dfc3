// The faithful row with the lexicon and lexical linking (faithful_lexicon.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'faithful_lexicon.libsonnet')
