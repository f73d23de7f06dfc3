// ProtoParser with words/contextual_schema_bias.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'contextual_schema_bias.libsonnet')
