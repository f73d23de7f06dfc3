// ProtoParser with ensemble/ensemble.libsonnet (contextual-schema-bias, ensemble of 5), geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'ensemble.libsonnet')
