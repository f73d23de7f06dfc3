// ProtoParser with slot_types/slot_types.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'slot_types.libsonnet')
