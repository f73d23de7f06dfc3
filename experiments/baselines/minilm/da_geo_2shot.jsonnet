// DA with MiniLM words, geo 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').da.experiment('geo', 2)
