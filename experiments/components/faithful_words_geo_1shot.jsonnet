// The faithful row with MiniLM words (faithful_words.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'faithful_words.libsonnet')
