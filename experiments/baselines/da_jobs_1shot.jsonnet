// DA (train + support as source + target domain), jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/da.libsonnet').experiment('jobs', 1)
