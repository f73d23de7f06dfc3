// The faithful row with MiniLM words (faithful_words.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'faithful_words.libsonnet')
