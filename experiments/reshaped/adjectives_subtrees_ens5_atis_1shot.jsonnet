// ProtoParser with reshaped/adjectives_subtrees_ens5.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'adjectives_subtrees_ens5.libsonnet')
