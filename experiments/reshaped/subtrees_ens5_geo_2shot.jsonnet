// ProtoParser with reshaped/subtrees_ens5.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'subtrees_ens5.libsonnet')
