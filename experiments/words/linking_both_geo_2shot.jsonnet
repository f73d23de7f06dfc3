// ProtoParser with words/linking_both.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'linking_both.libsonnet')
