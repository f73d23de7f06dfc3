// ProtoParser plus the best options beyond the paper (common/plus.libsonnet), atis 2-shot (split from $FEWSHOT_SPLIT).
(import 'common/fewshot.libsonnet').experiment('atis', 2, import 'common/plus.libsonnet')
