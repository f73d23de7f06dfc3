// ProtoParser with reshaped/subtrees_ens5.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'subtrees_ens5.libsonnet')
