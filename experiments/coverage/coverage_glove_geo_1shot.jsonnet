// ProtoParser with coverage/coverage_glove.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'coverage_glove.libsonnet')
