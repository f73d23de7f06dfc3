// ProtoParser plus the best options beyond the paper (common/plus.libsonnet), jobs 1-shot (split from $FEWSHOT_SPLIT).
(import 'common/fewshot.libsonnet').experiment('jobs', 1, import 'common/plus.libsonnet')
