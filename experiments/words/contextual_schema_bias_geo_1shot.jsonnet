// ProtoParser with words/contextual_schema_bias.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'contextual_schema_bias.libsonnet')
