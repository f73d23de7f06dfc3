// ProtoParser with coverage/coverage_sup.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'coverage_sup.libsonnet')
