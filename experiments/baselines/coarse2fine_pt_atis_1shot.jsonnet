// Coarse2Fine, pt setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/coarse2fine.libsonnet').experiment('atis', 1, 'pt')
