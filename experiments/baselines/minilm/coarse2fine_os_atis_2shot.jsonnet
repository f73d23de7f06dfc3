// Coarse2Fine with MiniLM words, os setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').coarse2fine.experiment('atis', 2, 'os')
