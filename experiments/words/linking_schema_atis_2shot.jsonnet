// ProtoParser with words/linking_schema.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'linking_schema.libsonnet')
