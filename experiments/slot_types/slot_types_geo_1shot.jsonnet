// ProtoParser with slot_types/slot_types.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'slot_types.libsonnet')
