// ProtoParser with words/contextual_linking.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'contextual_linking.libsonnet')
