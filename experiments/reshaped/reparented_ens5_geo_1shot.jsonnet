// ProtoParser with reshaped/reparented_ens5.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'reparented_ens5.libsonnet')
