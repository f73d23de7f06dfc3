// ProtoParser with slot_types/slot_types.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'slot_types.libsonnet')
