// ProtoParser with words/linking_schema.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'linking_schema.libsonnet')
