// ProtoParser with reshaped/adjectives_subtrees_ens5.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'adjectives_subtrees_ens5.libsonnet')
