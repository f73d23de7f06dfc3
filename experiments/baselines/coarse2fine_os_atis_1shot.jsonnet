// Coarse2Fine, os setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('atis', 1, 'os')
