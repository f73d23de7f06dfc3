// The best row without MiniLM words (GloVe 50-d instead) (no_words.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'no_words.libsonnet')
