// ProtoParser with ensemble/ensemble.libsonnet (contextual-schema-bias, ensemble of 5), atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'ensemble.libsonnet')
