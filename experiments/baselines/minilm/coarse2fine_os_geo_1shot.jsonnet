// Coarse2Fine with MiniLM words, os setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').coarse2fine.experiment('geo', 1, 'os')
