// DA (train + support as source + target domain), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/da.libsonnet').experiment('jobs', 2)
