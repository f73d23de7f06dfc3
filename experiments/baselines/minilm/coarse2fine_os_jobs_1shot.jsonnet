// Coarse2Fine with MiniLM words, os setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').coarse2fine.experiment('jobs', 1, 'os')
