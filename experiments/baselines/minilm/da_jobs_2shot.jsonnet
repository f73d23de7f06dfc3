// DA with MiniLM words, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').da.experiment('jobs', 2)
