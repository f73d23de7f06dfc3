// ProtoParser with slot_types/slot_types.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'slot_types.libsonnet')
