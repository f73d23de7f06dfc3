// DA (train + support as source + target domain), atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/da.libsonnet').experiment('atis', 1)
