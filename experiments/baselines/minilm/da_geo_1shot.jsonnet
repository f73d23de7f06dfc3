// DA with MiniLM words, geo 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').da.experiment('geo', 1)
