// Coarse2Fine, pt setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('jobs', 2, 'pt')
