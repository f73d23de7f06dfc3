// ProtoParser with ensemble/ensemble.libsonnet (contextual-schema-bias, ensemble of 5), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'ensemble.libsonnet')
