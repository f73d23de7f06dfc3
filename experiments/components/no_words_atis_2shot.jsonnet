// The best row without MiniLM words (GloVe 50-d instead) (no_words.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'no_words.libsonnet')
