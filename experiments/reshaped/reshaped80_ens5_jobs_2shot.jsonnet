// ProtoParser with reshaped/reshaped80_ens5.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'reshaped80_ens5.libsonnet')
