// ProtoParser with reshaped/reshaped80_ens5.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'reshaped80_ens5.libsonnet')
