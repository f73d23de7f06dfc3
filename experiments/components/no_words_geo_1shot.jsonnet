// The best row without MiniLM words (GloVe 50-d instead) (no_words.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'no_words.libsonnet')
