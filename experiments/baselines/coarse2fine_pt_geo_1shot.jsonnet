// Coarse2Fine, pt setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('geo', 1, 'pt')
