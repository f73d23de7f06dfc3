// ProtoParser with coverage/coverage.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'coverage.libsonnet')
