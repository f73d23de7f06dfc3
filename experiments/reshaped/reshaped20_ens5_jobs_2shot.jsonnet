// ProtoParser with reshaped/reshaped20_ens5.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'reshaped20_ens5.libsonnet')
