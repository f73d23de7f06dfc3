// DA (train + support as source + target domain), atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/da.libsonnet').experiment('atis', 2)
