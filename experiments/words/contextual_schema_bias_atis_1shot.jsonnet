// ProtoParser with words/contextual_schema_bias.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'contextual_schema_bias.libsonnet')
