// DA with MiniLM words, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').da.experiment('jobs', 1)
