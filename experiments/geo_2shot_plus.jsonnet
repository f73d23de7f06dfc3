// ProtoParser plus the best options beyond the paper (common/plus.libsonnet), geo 2-shot (split from $FEWSHOT_SPLIT).
(import 'common/fewshot.libsonnet').experiment('geo', 2, import 'common/plus.libsonnet')
