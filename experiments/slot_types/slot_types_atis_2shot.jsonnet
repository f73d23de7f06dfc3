// ProtoParser with slot_types/slot_types.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'slot_types.libsonnet')
