// The faithful row with MiniLM words (faithful_words.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'faithful_words.libsonnet')
