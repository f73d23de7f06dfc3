// The faithful row with the lexicon and lexical linking (faithful_lexicon.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'faithful_lexicon.libsonnet')
