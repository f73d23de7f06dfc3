// ProtoParser plus the best options beyond the paper (common/plus.libsonnet), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'common/fewshot.libsonnet').experiment('jobs', 2, import 'common/plus.libsonnet')
