// ProtoParser with words/contextual_tuned.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'contextual_tuned.libsonnet')
