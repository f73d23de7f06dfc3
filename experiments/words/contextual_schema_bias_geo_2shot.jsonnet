// ProtoParser with words/contextual_schema_bias.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'contextual_schema_bias.libsonnet')
