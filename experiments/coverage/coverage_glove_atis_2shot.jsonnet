// ProtoParser with coverage/coverage_glove.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'coverage_glove.libsonnet')
