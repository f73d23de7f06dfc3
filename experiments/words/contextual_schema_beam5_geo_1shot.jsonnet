// ProtoParser with words/contextual_schema_beam5.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'contextual_schema_beam5.libsonnet')
