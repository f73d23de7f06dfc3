// ProtoParser with ensemble/slot_types_ens5x3.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'slot_types_ens5x3.libsonnet')
