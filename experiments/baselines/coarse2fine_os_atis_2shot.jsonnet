// Coarse2Fine, os setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('atis', 2, 'os')
