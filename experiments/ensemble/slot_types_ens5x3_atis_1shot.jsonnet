// ProtoParser with ensemble/slot_types_ens5x3.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'slot_types_ens5x3.libsonnet')
