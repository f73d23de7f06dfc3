// The faithful row with the lexicon and lexical linking (faithful_lexicon.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'faithful_lexicon.libsonnet')
