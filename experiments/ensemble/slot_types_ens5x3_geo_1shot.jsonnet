// ProtoParser with ensemble/slot_types_ens5x3.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'slot_types_ens5x3.libsonnet')
