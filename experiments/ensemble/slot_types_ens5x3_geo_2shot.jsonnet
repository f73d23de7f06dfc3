// ProtoParser with ensemble/slot_types_ens5x3.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'slot_types_ens5x3.libsonnet')
