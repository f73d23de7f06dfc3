// ProtoParser with words/linking_schema.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'linking_schema.libsonnet')
