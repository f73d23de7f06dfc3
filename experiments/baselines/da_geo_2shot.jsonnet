// DA (train + support as source + target domain), geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/da.libsonnet').experiment('geo', 2)
