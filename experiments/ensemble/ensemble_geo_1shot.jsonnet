// ProtoParser with ensemble/ensemble.libsonnet (contextual-schema-bias, ensemble of 5), geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'ensemble.libsonnet')
