// ProtoParser with reshaped/subtrees_ens5.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'subtrees_ens5.libsonnet')
