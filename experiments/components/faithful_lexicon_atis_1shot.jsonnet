// The faithful row with the lexicon and lexical linking (faithful_lexicon.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'faithful_lexicon.libsonnet')
