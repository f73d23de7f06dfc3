// DA with MiniLM words, atis 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').da.experiment('atis', 2)
