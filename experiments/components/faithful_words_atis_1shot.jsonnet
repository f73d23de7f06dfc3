// The faithful row with MiniLM words (faithful_words.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'faithful_words.libsonnet')
