// Coarse2Fine, os setting, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('geo', 2, 'os')
