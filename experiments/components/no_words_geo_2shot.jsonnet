// The best row without MiniLM words (GloVe 50-d instead) (no_words.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'no_words.libsonnet')
