// DA with MiniLM words, atis 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').da.experiment('atis', 1)
