// ProtoParser with words/contextual_schema_bias.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'contextual_schema_bias.libsonnet')
