// ProtoParser with coverage/coverage_glove.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'coverage_glove.libsonnet')
