// ProtoParser with reshaped/subtrees_ens5.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'subtrees_ens5.libsonnet')
