// The best row without MiniLM words (GloVe 50-d instead) (no_words.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'no_words.libsonnet')
