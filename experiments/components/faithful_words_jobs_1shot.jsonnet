// The faithful row with MiniLM words (faithful_words.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'faithful_words.libsonnet')
