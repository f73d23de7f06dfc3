// ProtoParser with words/contextual_schema_bias.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'contextual_schema_bias.libsonnet')
