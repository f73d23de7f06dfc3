// ProtoParser with reshaped/subtrees_ens5.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'subtrees_ens5.libsonnet')
