// The faithful row with MiniLM words (faithful_words.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'faithful_words.libsonnet')
