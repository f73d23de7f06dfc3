// Coarse2Fine, pt setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('jobs', 1, 'pt')
