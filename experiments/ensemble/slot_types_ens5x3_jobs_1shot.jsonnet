// ProtoParser with ensemble/slot_types_ens5x3.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'slot_types_ens5x3.libsonnet')
