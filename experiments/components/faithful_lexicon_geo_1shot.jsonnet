// The faithful row with the lexicon and lexical linking (faithful_lexicon.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'faithful_lexicon.libsonnet')
