// DA (train + support as source + target domain), geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/da.libsonnet').experiment('geo', 1)
