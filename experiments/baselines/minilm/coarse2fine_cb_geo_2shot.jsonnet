// Coarse2Fine with MiniLM words, cb setting, geo 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').coarse2fine.experiment('geo', 2, 'cb')
