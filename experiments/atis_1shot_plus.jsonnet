// ProtoParser plus the best options beyond the paper (common/plus.libsonnet), atis 1-shot (split from $FEWSHOT_SPLIT).
(import 'common/fewshot.libsonnet').experiment('atis', 1, import 'common/plus.libsonnet')
