// ProtoParser plus the best options beyond the paper (common/plus.libsonnet), geo 1-shot (split from $FEWSHOT_SPLIT).
(import 'common/fewshot.libsonnet').experiment('geo', 1, import 'common/plus.libsonnet')
