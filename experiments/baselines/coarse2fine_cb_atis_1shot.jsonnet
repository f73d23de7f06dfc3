// Coarse2Fine, cb setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('atis', 1, 'cb')
