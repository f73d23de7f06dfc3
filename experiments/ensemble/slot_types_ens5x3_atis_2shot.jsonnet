// ProtoParser with ensemble/slot_types_ens5x3.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'slot_types_ens5x3.libsonnet')
