// Coarse2Fine with MiniLM words, os setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').coarse2fine.experiment('jobs', 2, 'os')
