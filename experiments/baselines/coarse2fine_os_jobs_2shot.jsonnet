// Coarse2Fine, os setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('jobs', 2, 'os')
