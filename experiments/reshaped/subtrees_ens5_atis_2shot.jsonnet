// ProtoParser with reshaped/subtrees_ens5.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'subtrees_ens5.libsonnet')
