// ProtoParser with words/linking_both.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'linking_both.libsonnet')
