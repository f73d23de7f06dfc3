// ProtoParser with slot_types/slot_types.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'slot_types.libsonnet')
