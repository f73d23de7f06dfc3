// ProtoParser with reshaped/adjectives_subtrees_ens5.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'adjectives_subtrees_ens5.libsonnet')
